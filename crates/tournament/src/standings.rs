//! Standings: points, the tie-breaks that order equal points, shared ranks, the podium.
//!
//! Players are ordered by, larger first:
//! 1. **points**: placement points (see [`crate::points`]) plus [`BYE`] per bye;
//! 2. **opponents**: the strength of the tables played, the Buchholz idea adapted to tables:
//!    for every game, the mean final points of the player's opponents at that table. Over a
//!    table of `k` opponents the mean is kept exact by counting it in twelfths
//!    (`12 / k × their sum`, and 12 divides by 1 to 4). A bye counts as a game against an
//!    opponent level with the player (FIDE's virtual opponent), so a bye neither helps nor
//!    hurts the tie-break much;
//! 3. **score**: the sum of the player's own game scores;
//! 4. **wins**: sole first places.
//!
//! Players level on all four share a rank (listed by id). Tables without a result yet do not
//! count. Withdrawn players keep their standing, marked, and can stand on the podium: the
//! points were earned.
use crate::points::BYE;
use crate::{PlayerId, TableResult};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub id: PlayerId,
    /// 0 for the leaders; players level on every tie-break share a rank.
    pub rank: u32,
    pub points: u32,
    /// The opponents' mean points summed over games, in twelfths of a point.
    pub opponents: u64,
    pub score: i64,
    pub wins: u32,
    pub games: u32,
    pub byes: u32,
    pub withdrawn: bool,
}

/// What the standings are computed from: the players (with their withdrawal), every finished
/// table and every bye.
pub struct Ledger<'a> {
    pub players: Vec<(&'a PlayerId, bool)>,
    pub tables: Vec<(&'a [PlayerId], &'a TableResult)>,
    pub byes: Vec<&'a PlayerId>,
}

#[derive(Default)]
struct Tally {
    points: u32,
    score: i64,
    wins: u32,
    games: u32,
    byes: u32,
}

impl Ledger<'_> {
    pub fn standings(&self) -> Vec<Standing> {
        let mut tally: BTreeMap<&PlayerId, Tally> = BTreeMap::new();
        for &(id, _) in &self.players {
            tally.entry(id).or_default();
        }
        for &(players, result) in &self.tables {
            let points = result.points();
            for (seat, id) in players.iter().enumerate() {
                let t = tally.entry(id).or_default();
                t.points += points[seat];
                t.score += result.scores[seat];
                t.games += 1;
                t.wins += u32::from(result.sole_winner(seat));
            }
        }
        for &id in &self.byes {
            let t = tally.entry(id).or_default();
            t.points += BYE;
            t.byes += 1;
        }
        let mut opponents: BTreeMap<&PlayerId, u64> = BTreeMap::new();
        for &(players, _) in &self.tables {
            let k = (players.len() - 1) as u64;
            let total: u64 = players.iter().map(|p| u64::from(tally[p].points)).sum();
            for id in players {
                let others = total - u64::from(tally[id].points);
                *opponents.entry(id).or_default() += 12 / k * others;
            }
        }
        for &id in &self.byes {
            *opponents.entry(id).or_default() += 12 * u64::from(tally[id].points);
        }
        let withdrawn: BTreeMap<&PlayerId, bool> = self.players.iter().copied().collect();
        let mut list: Vec<Standing> = tally
            .into_iter()
            .map(|(id, t)| Standing {
                id: id.clone(),
                rank: 0,
                points: t.points,
                opponents: opponents.get(id).copied().unwrap_or(0),
                score: t.score,
                wins: t.wins,
                games: t.games,
                byes: t.byes,
                withdrawn: withdrawn.get(id).copied().unwrap_or(false),
            })
            .collect();
        // Stable on the id order the map gave: level players stay listed by id.
        list.sort_by_key(|s| std::cmp::Reverse(key(s)));
        for i in 0..list.len() {
            list[i].rank = if i > 0 && key(&list[i]) == key(&list[i - 1]) {
                list[i - 1].rank
            } else {
                i as u32
            };
        }
        list
    }
}

fn key(s: &Standing) -> (u32, u64, i64, u32) {
    (s.points, s.opponents, s.score, s.wins)
}

/// The podium: every player ranked first, second or third (ties may put more than three on
/// it).
pub fn podium(standings: &[Standing]) -> Vec<Standing> {
    standings.iter().filter(|s| s.rank < 3).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(names: &[&str]) -> Vec<PlayerId> {
        names.iter().map(|n| PlayerId::new(*n)).collect()
    }

    #[test]
    fn points_then_opponents_then_score() {
        let t1 = ids(&["a", "b", "c"]);
        let r1 = TableResult {
            places: vec![0, 1, 2],
            scores: vec![30, 20, 10],
        };
        let t2 = ids(&["d", "e", "f"]);
        let r2 = TableResult {
            places: vec![0, 1, 2],
            scores: vec![40, 20, 10],
        };
        let t3 = ids(&["a", "e", "g"]);
        let r3 = TableResult {
            places: vec![2, 0, 1],
            scores: vec![0, 9, 5],
        };
        let players: Vec<PlayerId> = ids(&["a", "b", "c", "d", "e", "f", "g"]);
        let ledger = Ledger {
            players: players.iter().map(|p| (p, false)).collect(),
            tables: vec![(&t1, &r1), (&t2, &r2), (&t3, &r3)],
            byes: vec![],
        };
        let s = ledger.standings();
        let order: Vec<&str> = s.iter().map(|s| s.id.0.as_str()).collect();
        // e: 12 + 24 = 36; a: 24 + 0 = 24; d: 24; g: 12; b: 12; f: 0; c: 0.
        assert_eq!(s[0].id.0, "e");
        assert_eq!(s[0].points, 36);
        // a met b (12), c (0), e (36), g (12): 6 × 12 + 6 × 48 = 360. d met e and f: 6 × 36.
        let a = s.iter().find(|s| s.id.0 == "a").unwrap();
        let d = s.iter().find(|s| s.id.0 == "d").unwrap();
        assert_eq!((a.opponents, d.opponents), (360, 216));
        assert_eq!(&order[1..3], ["a", "d"]);
        assert_eq!((a.rank, d.rank), (1, 2));
        assert_eq!(podium(&s).len(), 3);
    }

    #[test]
    fn level_players_share_a_rank() {
        let t = ids(&["x", "y"]);
        let r = TableResult {
            places: vec![0, 0],
            scores: vec![5, 5],
        };
        let players = ids(&["x", "y", "z"]);
        let ledger = Ledger {
            players: players.iter().map(|p| (p, false)).collect(),
            tables: vec![(&t, &r)],
            byes: vec![],
        };
        let s = ledger.standings();
        assert_eq!(s.iter().map(|s| s.rank).collect::<Vec<_>>(), vec![0, 0, 2]);
        assert_eq!(podium(&s).len(), 3);
    }
}
