//! Finding the chosen move by its index without listing the moves (random playouts, see
//! `Rules::pick_legal_move`): counting the moves of each group (a space, an area, a slot
//! board), then locating the chosen one, costs far less than building the list.
//!
//! The index is random, so finding its group must not branch on it: [`locate`] counts the
//! groups before it without an early exit (a loop leaving at the group mispredicted on almost
//! every pick; measured with cachegrind's branch simulation, and in games per second). Within
//! a group, the move is the `n`-th set bit of a small mask (`select_u8`, a table lookup).

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
}
