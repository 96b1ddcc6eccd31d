//! Finding the chosen move by its index without listing the moves (random playouts, see
//! `Rules::pick_legal_move`): counting the moves of each group (a space, an area, a slot
//! board), then locating the chosen one, costs far less than building the list.
//!
//! The index is random, so finding its group must not branch on it: [`locate`] counts the
//! groups before it without an early exit (a loop leaving at the group mispredicted on almost
//! every pick; measured with cachegrind's branch simulation, and in games per second). The
//! small tables date from the baseline x86-64 target, which had no population count; they
//! cost about what `count_ones` does and also give the `n`-th bit.

/// `pick(count)`, the index of the chosen move, or `None` without calling `pick` when there is
/// no move.
#[inline]
pub(crate) fn pick_index(count: u32, pick: impl FnOnce(u32) -> u32) -> Option<u32> {
    (count > 0).then(|| pick(count))
}

/// The group holding item `n` of groups of `counts[i]` items each, in order, and the item's
/// index within it; `n` is less than the total. Counted without an early exit: `n` is random,
/// and a loop leaving at its group mispredicted on almost every pick.
#[inline]
pub(crate) fn locate<const N: usize>(counts: &[u32; N], n: u32) -> (usize, u32) {
    let mut group = 0;
    let mut before = 0;
    let mut running = 0;
    for &count in &counts[..N - 1] {
        running += count;
        let past = n >= running;
        group += usize::from(past);
        before = if past { running } else { before };
    }
    (group, n - before)
}

/// Set bits of a 7-bit mask (gem kinds, take options, payments, piles).
#[inline]
pub(crate) fn bit_count(mask: u8) -> u32 {
    const COUNTS: [u8; 128] = {
        let mut table = [0; 128];
        let mut m = 1;
        while m < 128 {
            table[m] = table[m >> 1] + (m & 1) as u8;
            m += 1;
        }
        table
    };
    COUNTS[mask as usize & 127] as u32
}

/// Index of the `n`-th (from 0) set bit of the 7-bit mask `bits`, lowest first; `bits` has
/// more than `n` set bits.
#[inline]
pub(crate) fn nth_bit(bits: u8, n: u32) -> usize {
    /// `SELECT[mask][n]`: the position of the `n`-th set bit of `mask` (0 when there is none).
    const SELECT: [[u8; 7]; 128] = {
        let mut table = [[0; 7]; 128];
        let mut mask = 0;
        while mask < 128 {
            let (mut bit, mut n) = (0, 0);
            while bit < 7 {
                if mask >> bit & 1 == 1 {
                    table[mask][n] = bit as u8;
                    n += 1;
                }
                bit += 1;
            }
            mask += 1;
        }
        table
    };
    SELECT[bits as usize & 127][n as usize] as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_matches_the_group_walk() {
        let counts = [2, 0, 3, 1, 0];
        let mut expected = Vec::new();
        for (group, &count) in counts.iter().enumerate() {
            for i in 0..count {
                expected.push((group, i));
            }
        }
        for (n, &want) in expected.iter().enumerate() {
            assert_eq!(locate(&counts, n as u32), want);
        }
    }

    #[test]
    fn tables_match_bit_loops() {
        for mask in 0u8..128 {
            assert_eq!(bit_count(mask), mask.count_ones());
            let mut bits = mask;
            for n in 0..mask.count_ones() {
                assert_eq!(nth_bit(mask, n), bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
}
