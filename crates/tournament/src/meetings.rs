//! Who has already sat with whom: the pairs a new seating should not bring together again.
use crate::PlayerId;
use std::collections::BTreeMap;

/// How often each pair of players shared a table. Derived from the rounds already paired (a
/// pairing counts as a meeting from the moment it is committed, result or not), never stored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Meetings {
    pairs: BTreeMap<(PlayerId, PlayerId), u32>,
}

impl Meetings {
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts every pair of players at one table.
    pub fn add_table(&mut self, players: &[PlayerId]) {
        for (i, a) in players.iter().enumerate() {
            for b in &players[i + 1..] {
                *self.pairs.entry(key(a, b)).or_insert(0) += 1;
            }
        }
    }

    pub fn count(&self, a: &PlayerId, b: &PlayerId) -> u32 {
        self.pairs.get(&key(a, b)).copied().unwrap_or(0)
    }

    /// The repeats a table would bring: for every pair at it, how often they met before.
    pub fn repeats(&self, players: &[PlayerId]) -> u32 {
        let mut repeats = 0;
        for (i, a) in players.iter().enumerate() {
            for b in &players[i + 1..] {
                repeats += self.count(a, b);
            }
        }
        repeats
    }

    /// The square matrix of meetings between `players` (index order), as the seating search
    /// reads it.
    pub(crate) fn matrix(&self, players: &[&PlayerId]) -> Vec<u32> {
        let n = players.len();
        let mut met = vec![0; n * n];
        for a in 0..n {
            for b in a + 1..n {
                let count = self.count(players[a], players[b]);
                met[a * n + b] = count;
                met[b * n + a] = count;
            }
        }
        met
    }
}

fn key(a: &PlayerId, b: &PlayerId) -> (PlayerId, PlayerId) {
    if a <= b {
        (a.clone(), b.clone())
    } else {
        (b.clone(), a.clone())
    }
}
