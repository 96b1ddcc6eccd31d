//! Finding the chosen move by its index without listing the moves (random playouts, see
//! `Rules::pick_legal_move`): counting the moves of each group (a space, an area, a slot
//! board), then locating the chosen one, costs far less than building the list.
//!
//! The build targets baseline x86-64, which has no population-count instruction: hence the
//! small tables below. (A branch-free scan for the chosen group, against mispredictions on
//! the random index, cost more instructions than it saved time: measured.)

/// `pick(count)`, the index of the chosen move, or `None` without calling `pick` when there is
/// no move.
#[inline]
pub(crate) fn pick_index(count: u32, pick: impl FnOnce(u32) -> u32) -> Option<u32> {
    (count > 0).then(|| pick(count))
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
