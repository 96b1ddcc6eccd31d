//! The exhaustive reference the pairing is checked and measured against: the fewest repeated
//! pairs any seating can have. Exponential in the field, for small fields only (tests and the
//! `repeat-rates` example); the pairing itself never calls it.
use crate::{Meetings, PlayerId};
use std::collections::BTreeSet;

/// The fewest repeats any seating of `players` into tables of `sizes` has (exhaustive, with
/// pruning; for small fields only).
pub fn fewest_repeats(players: &[PlayerId], sizes: &[usize], meetings: &Meetings) -> u32 {
    fn go(
        rest: &[PlayerId],
        sizes: &mut Vec<usize>,
        meetings: &Meetings,
        so_far: u32,
        best: &mut u32,
    ) {
        if so_far >= *best {
            return;
        }
        let Some((first, others)) = rest.split_first() else {
            *best = so_far;
            return;
        };
        let distinct: BTreeSet<usize> = sizes.iter().copied().collect();
        for size in distinct {
            let at = sizes.iter().position(|&s| s == size).unwrap();
            sizes.swap_remove(at);
            // Every choice of `size - 1` companions for the first player left.
            let mut pick: Vec<usize> = (0..size - 1).collect();
            loop {
                let mut table = vec![first.clone()];
                table.extend(pick.iter().map(|&i| others[i].clone()));
                let left: Vec<PlayerId> = (0..others.len())
                    .filter(|i| !pick.contains(i))
                    .map(|i| others[i].clone())
                    .collect();
                go(
                    &left,
                    sizes,
                    meetings,
                    so_far + meetings.repeats(&table),
                    best,
                );
                // Next combination in lexicographic order.
                let k = pick.len();
                let Some(i) = (0..k).rev().find(|&i| pick[i] < others.len() - k + i) else {
                    break;
                };
                pick[i] += 1;
                for j in i + 1..k {
                    pick[j] = pick[j - 1] + 1;
                }
                if k == 0 {
                    break;
                }
            }
            sizes.push(size);
        }
    }
    let mut best = u32::MAX;
    go(players, &mut sizes.to_vec(), meetings, 0, &mut best);
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exhaustive_oracle_counts_repeats() {
        // Guards the oracle the property leans on: four players of whom two pairs met, at tables
        // of two, can always avoid them; at one table of four they cannot.
        let ids: Vec<PlayerId> = (0..4).map(|i| PlayerId::new(format!("p{i}"))).collect();
        let mut meetings = Meetings::new();
        meetings.add_table(&ids[0..2]);
        meetings.add_table(&ids[2..4]);
        assert_eq!(fewest_repeats(&ids, &[2, 2], &meetings), 0);
        assert_eq!(fewest_repeats(&ids, &[4], &meetings), 2);
        meetings.add_table(&[ids[0].clone(), ids[2].clone()]);
        meetings.add_table(&[ids[1].clone(), ids[3].clone()]);
        meetings.add_table(&[ids[0].clone(), ids[3].clone()]);
        assert_eq!(fewest_repeats(&ids, &[2, 2], &meetings), 1);
    }
}
