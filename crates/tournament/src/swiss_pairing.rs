//! One Swiss round: who sits out, who sits with whom, in which seat order.
//!
//! 1. **Draw**: the players in an order drawn from the seed (a seeded shuffle of the ids), so
//!    that the first round is a random draw and no id sorts ahead by name.
//! 2. **Byes** (when the format cannot seat everyone): those with the fewest byes so far,
//!    the lowest standing (points, then the tie-break, then the draw) first. Nobody gets a
//!    second bye while an active player has none.
//! 3. **Tables**: the rest, by points (ties in the drawn order), cut into the layout's tables
//!    (full tables first, so the leaders sit at full tables), then improved by
//!    `seating.rs`: fewest repeated pairs first, then the least spread of points at
//!    each table.
//! 4. **Seats**: the first seat often moves first, so it goes to the player at the table who
//!    has had it least often; the rest of the seat order is drawn from the seed.
use crate::seating::{self, Problem};
use crate::{Meetings, PlayerId, TableFormat, TournamentError};
use pyramidion_core::{GameRng, Seed};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A player to pair, with their standing and their byes so far.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    pub id: PlayerId,
    pub points: u32,
    /// Orders equal points, larger first (the standings' opponents tie-break).
    pub tiebreak: u64,
    pub byes: u32,
    /// How many times the player had the first seat of a table.
    #[serde(default)]
    pub firsts: u32,
}

/// Everything a round's pairing depends on; the same request always gives the same pairing.
pub struct RoundRequest<'a> {
    pub format: TableFormat,
    /// The active players: withdrawn players are simply not here.
    pub entrants: &'a [Entrant],
    pub meetings: &'a Meetings,
    pub seed: Seed,
    /// The round's number (0 first); each round draws its own ties and seats.
    pub round: u32,
}

/// A round's pairing: the data the server commits before telling anyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    pub round: u32,
    /// The tables, the leaders' first; each in seat order.
    pub tables: Vec<Vec<PlayerId>>,
    /// The players sitting out this round, each scoring a bye.
    pub byes: Vec<PlayerId>,
}

/// The stream of a round's random choices, apart from every other round's.
fn round_rng(seed: Seed, round: u32) -> GameRng {
    GameRng::from_seed(seed ^ u64::from(round).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

pub fn pair_round(request: &RoundRequest) -> Result<Pairing, TournamentError> {
    let format = request.format;
    let mut seen = BTreeSet::new();
    for entrant in request.entrants {
        if !seen.insert(&entrant.id) {
            return Err(TournamentError::DuplicatePlayer(entrant.id.clone()));
        }
    }
    let layout = format.layout(request.entrants.len())?;
    let mut rng = round_rng(request.seed, request.round);

    // A draw independent of the order the entrants came in, then the standing order.
    let mut drawn: Vec<&Entrant> = request.entrants.iter().collect();
    drawn.sort_by(|a, b| a.id.cmp(&b.id));
    rng.shuffle(&mut drawn);
    let mut order = drawn.clone();
    order.sort_by_key(|e| std::cmp::Reverse((e.points, e.tiebreak)));

    // Byes: fewest byes first, then lowest standing first.
    let mut by_bye: Vec<usize> = (0..order.len()).collect();
    by_bye.sort_by_key(|&i| (order[i].byes, std::cmp::Reverse(i)));
    let bye_set: BTreeSet<usize> = by_bye[..layout.byes].iter().copied().collect();
    let byes: Vec<PlayerId> = bye_set.iter().rev().map(|&i| order[i].id.clone()).collect();

    // The tables are cut by points alone, ties in the drawn order: cut by the tie-break,
    // last round's tablemates (who share their opponents, hence their tie-breaks) would sit
    // side by side and the search would spend its steps parting them.
    let benched: BTreeSet<&PlayerId> = byes.iter().collect();
    let mut seated: Vec<&Entrant> = drawn
        .iter()
        .copied()
        .filter(|e| !benched.contains(&e.id))
        .collect();
    seated.sort_by_key(|e| std::cmp::Reverse(e.points));
    let ids: Vec<&PlayerId> = seated.iter().map(|e| &e.id).collect();
    let points: Vec<u32> = seated.iter().map(|e| e.points).collect();
    let met = request.meetings.matrix(&ids);
    let sizes = layout.sizes(format.seats);
    let seating = seating::seat(&Problem {
        points: &points,
        met: &met,
        sizes: &sizes,
        bench: 0,
        benchable: &vec![false; seated.len()],
        exact: true,
    });
    let tables = seating
        .tables
        .into_iter()
        .map(|table| {
            let mut players: Vec<&Entrant> = table.iter().map(|&i| seated[i]).collect();
            rng.shuffle(&mut players);
            // The fewest first seats takes the first seat (ties: the draw); the rest keep the
            // drawn order.
            if let Some(first) = (0..players.len()).min_by_key(|&k| players[k].firsts) {
                let player = players.remove(first);
                players.insert(0, player);
            }
            players.into_iter().map(|e| e.id.clone()).collect()
        })
        .collect();
    Ok(Pairing {
        round: request.round,
        tables,
        byes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrants(n: usize) -> Vec<Entrant> {
        (0..n)
            .map(|i| Entrant {
                id: PlayerId::new(format!("p{i:02}")),
                points: (n - i) as u32,
                tiebreak: 0,
                byes: 0,
                firsts: 0,
            })
            .collect()
    }

    fn pair(format: TableFormat, entrants: &[Entrant], meetings: &Meetings) -> Pairing {
        pair_round(&RoundRequest {
            format,
            entrants,
            meetings,
            seed: 7,
            round: 1,
        })
        .unwrap()
    }

    #[test]
    fn leaders_sit_together_and_the_last_sit_out() {
        let format = TableFormat::new(4, false).unwrap();
        let field = entrants(10);
        let pairing = pair(format, &field, &Meetings::new());
        let mut first = pairing.tables[0].clone();
        first.sort();
        assert_eq!(
            first,
            field[..4].iter().map(|e| e.id.clone()).collect::<Vec<_>>()
        );
        assert_eq!(pairing.byes, vec![field[9].id.clone(), field[8].id.clone()]);
    }

    #[test]
    fn byes_go_first_to_those_without_one() {
        let format = TableFormat::new(2, false).unwrap();
        let mut field = entrants(5);
        field[4].byes = 1;
        let pairing = pair(format, &field, &Meetings::new());
        assert_eq!(pairing.byes, vec![field[3].id.clone()]);
    }

    #[test]
    fn input_order_does_not_matter() {
        let format = TableFormat::new(3, true).unwrap();
        let mut field = entrants(11);
        for e in &mut field {
            e.points = 0;
        }
        let a = pair(format, &field, &Meetings::new());
        field.reverse();
        assert_eq!(a, pair(format, &field, &Meetings::new()));
    }

    #[test]
    fn duplicates_and_small_fields_are_refused() {
        let format = TableFormat::new(3, false).unwrap();
        let mut field = entrants(4);
        field[3].id = field[0].id.clone();
        let meetings = Meetings::new();
        let request = |entrants| RoundRequest {
            format,
            entrants,
            meetings: &meetings,
            seed: 1,
            round: 0,
        };
        assert_eq!(
            pair_round(&request(&field)).unwrap_err(),
            TournamentError::DuplicatePlayer(field[0].id.clone())
        );
        assert_eq!(
            pair_round(&request(&field[..2])).unwrap_err(),
            TournamentError::TooFewPlayers { players: 2 }
        );
    }
}
