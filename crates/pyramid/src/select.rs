//! The `n`-th set bit of a bitboard, without a loop over its bits.
//!
//! Random playouts choose a legal placement by its index among the slot anchors. Clearing the
//! lowest bit `n` times made a loop whose exit, `n` being random, mispredicted on almost
//! every pick; this broadword select (byte counts, then a table for the last byte) has no
//! data-dependent branch.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = ONES << 7;

/// `IN_BYTE[b][k]`: the position of the `k`-th (from 0) set bit of byte `b` (0 when absent).
const IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if b >> bit & 1 == 1 {
                table[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// Position of the `n`-th (from 0) set bit of `byte`, lowest first; `n` must be less than
/// `byte.count_ones()`. A table lookup (random playouts pick gem kinds, piles and payments
/// from such masks).
#[inline]
pub fn select_u8(byte: u8, n: u32) -> u32 {
    IN_BYTE[byte as usize][n as usize & 7] as u32
}

/// Position of the `n`-th (from 0) set bit of `word`, lowest first; `n` must be less than
/// `word.count_ones()`.
#[inline]
pub fn select_u64(word: u64, n: u32) -> u32 {
    debug_assert!(n < word.count_ones());
    let pairs = word - ((word >> 1) & 0x5555_5555_5555_5555);
    let nibbles = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
    let bytes = (nibbles + (nibbles >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte i: the set bits of bytes 0..=i (at most 64: no byte overflows into the next).
    let running = bytes.wrapping_mul(ONES);
    // High bit of byte i set when running_i <= n (each byte: 128 + n - running_i >= 64, so no
    // borrow crosses bytes). Running counts only grow, so those are the bytes before the bit's.
    let before_bytes = (((n as u64 * ONES) | HIGHS) - running) & HIGHS;
    let byte = before_bytes.count_ones();
    let before = ((running << 8) >> (8 * byte)) as u32 & 0xff;
    8 * byte + select_u8((word >> (8 * byte)) as u8, n - before)
}

/// [`select_u64`] for a `u128`.
#[inline]
pub fn select_u128(bits: u128, n: u32) -> u32 {
    let low = bits as u64;
    let low_count = low.count_ones();
    let in_high = n >= low_count;
    let word = if in_high { (bits >> 64) as u64 } else { low };
    let rank = if in_high { n - low_count } else { n };
    64 * u32::from(in_high) + select_u64(word, rank)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_loop(mut bits: u128, n: u32) -> u32 {
        for _ in 0..n {
            bits &= bits - 1;
        }
        bits.trailing_zeros()
    }

    #[test]
    fn select_matches_clearing_bits() {
        let mut rng = pyramidion_core::GameRng::from_seed(31);
        for round in 0..5000 {
            let raw = (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
            // Dense, sparse and very sparse boards.
            let bits = match round % 3 {
                0 => raw,
                1 => raw & (raw >> 3),
                _ => raw & (raw >> 3) & (raw >> 7) & (raw >> 11),
            };
            for n in 0..bits.count_ones() {
                assert_eq!(select_u128(bits, n), by_loop(bits, n), "{bits:x} {n}");
            }
            let low = bits as u64;
            for n in 0..low.count_ones() {
                assert_eq!(select_u64(low, n), by_loop(low as u128, n));
            }
        }
        for byte in 0..=255u8 {
            for n in 0..byte.count_ones() {
                assert_eq!(select_u8(byte, n), by_loop(byte as u128, n));
            }
        }
        assert_eq!(select_u64(u64::MAX, 63), 63);
        assert_eq!(select_u128(1 << 127, 0), 127);
    }
}
