//! Who of the Arena's free players sits down now, and with whom.
//!
//! The server calls [`crate::Arena::pair`] often (every second or two, like lichess), so a
//! player who comes free usually finds others free. The policy, with `patience` from the
//! configuration:
//! 1. **Due** players have waited at least `patience`. They sit first, longest wait first.
//! 2. **Tables**: as many full tables as the free players fill. Short tables (one seat fewer,
//!    if the format allows) form only when a due player would otherwise be left waiting; the
//!    layout is then the format's (fewest left out).
//! 3. **Who waits**: if more players are free than seats, the seating search of
//!    `seating.rs` chooses among the players not yet due (or among the due tied at the
//!    cut, when the due alone overfill the seats) who stays on the bench, so as to avoid
//!    rematches and keep tables close in the standings.
//! 4. **Tables close in the standings, no immediate rematch**: the seating search minimises
//!    first the pairs who sat at the same table in their last game, then the spread of
//!    Arena points at each table.
//! 5. **The very same table again** (every player's last table was this one) is not formed
//!    before one of them is due: someone else may come free meanwhile. After `patience`
//!    they play each other again rather than wait on.
use crate::seating::{self, Problem};
use crate::{Layout, TableFormat};

/// A free player, in standing order (the pool is given leaders first).
pub(crate) struct Free {
    pub since: u64,
    pub points: u32,
    /// The table of their last game, if any.
    pub last_table: Option<usize>,
    /// How many players sat at that table.
    pub last_size: usize,
}

/// The tables to form now, as indices into `pool`.
pub(crate) fn tables(
    format: TableFormat,
    patience: u64,
    now: u64,
    pool: &[Free],
) -> Vec<Vec<usize>> {
    let n = pool.len();
    let seats = usize::from(format.seats);
    let due = |f: &Free| now.saturating_sub(f.since) >= patience;
    let due_count = pool.iter().filter(|f| due(f)).count();
    let full_only = Layout {
        full: n / seats,
        short: 0,
        byes: n % seats,
    };
    let layout = if format.allows_short() && due_count > full_only.seated(format.seats) {
        match format.layout(n) {
            Ok(layout) => layout,
            Err(_) => return Vec::new(),
        }
    } else {
        full_only
    };
    let seated = layout.seated(format.seats);
    if seated == 0 {
        return Vec::new();
    }
    // Longest wait first, then standing.
    let mut by_wait: Vec<usize> = (0..n).collect();
    by_wait.sort_by_key(|&i| (pool[i].since, i));
    let (candidates, benchable): (Vec<usize>, Vec<bool>) = if due_count >= seated {
        // The due alone fill the seats: those tied with the last seated on their wait may
        // trade places; later ones wait.
        let cut = pool[by_wait[seated - 1]].since;
        let mut candidates: Vec<usize> = by_wait
            .iter()
            .copied()
            .filter(|&i| pool[i].since <= cut)
            .collect();
        candidates.sort_unstable();
        let benchable = candidates.iter().map(|&i| pool[i].since == cut).collect();
        (candidates, benchable)
    } else {
        ((0..n).collect(), pool.iter().map(|f| !due(f)).collect())
    };
    let m = candidates.len();
    let mut met = vec![0; m * m];
    for a in 0..m {
        for b in a + 1..m {
            let (fa, fb) = (&pool[candidates[a]], &pool[candidates[b]]);
            if fa.last_table.is_some() && fa.last_table == fb.last_table {
                met[a * m + b] = 1;
                met[b * m + a] = 1;
            }
        }
    }
    let points: Vec<u32> = candidates.iter().map(|&i| pool[i].points).collect();
    let sizes = layout.sizes(format.seats);
    let seating = seating::seat(&Problem {
        points: &points,
        met: &met,
        sizes: &sizes,
        bench: m - seated,
        benchable: &benchable,
        exact: false,
    });
    seating
        .tables
        .into_iter()
        .map(|table| table.into_iter().map(|i| candidates[i]).collect::<Vec<_>>())
        .filter(|table| {
            // The very same table again waits until one of its players is due.
            let first = &pool[table[0]];
            let same = first.last_table.is_some()
                && first.last_size == table.len()
                && table
                    .iter()
                    .all(|&i| pool[i].last_table == first.last_table);
            !same || table.iter().any(|&i| due(&pool[i]))
        })
        .collect()
}
