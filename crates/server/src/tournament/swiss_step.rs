//! The next step of a Swiss tournament, from what is stored: its row, its entrants and the
//! games of its tables. Pure (no I/O, no clock): the director loads, calls [`step`], and
//! commits what it returns in one transaction; the same inputs give the same step, so an
//! instance that takes a tournament over after a crash computes what the dead one would have.
use super::row::{Status, TournamentRow};
use super::{bot_id, is_bot};
use crate::db::stored_result::{stored_ranks, stored_seats};
use pyramidion_tournament::{
    Pairing, PlayerId, Swiss, SwissConfig, TableFormat, TableResult, TournamentError,
};

/// An entrant as stored.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub user: String,
    pub withdrawn: bool,
}

/// A game of a table of the tournament, as stored.
#[derive(Clone, Debug)]
pub struct TableGame {
    pub round: u32,
    pub table: usize,
    pub game: String,
    /// The stored result (`games.result`) once the game is finished.
    pub result: Option<serde_json::Value>,
}

/// What a step changes.
#[derive(Debug)]
pub struct Step {
    pub swiss: Swiss,
    pub status: Status,
    /// The round just paired: its tables are to be created with it.
    pub paired: Option<Pairing>,
    /// Entrants withdrawn because the time-out policy took their seat over (a no-show).
    pub no_shows: Vec<String>,
    /// Whether a table's result was recorded (the standings moved).
    pub recorded: bool,
}

/// The core's state of a new Swiss from the row (before any entrant).
pub fn new_swiss(row: &TournamentRow) -> Result<Swiss, TournamentError> {
    Swiss::new(
        SwissConfig {
            format: TableFormat::new(row.seats, row.short_tables)?,
            rounds: row.rounds.unwrap_or(0),
            seed: row.seed,
        },
        [],
    )
}

/// The next step of the tournament, or none when nothing is to change.
pub fn step(
    row: &TournamentRow,
    entrants: &[Entrant],
    games: &[TableGame],
) -> Result<Option<Step>, TournamentError> {
    match row.status {
        Status::Open => {
            let mut swiss = new_swiss(row)?;
            for e in entrants.iter().filter(|e| !e.withdrawn) {
                swiss.join(PlayerId::new(e.user.clone()))?;
            }
            fill_bots(&mut swiss, row)?;
            let (status, paired) = pair(&mut swiss, Status::Cancelled)?;
            Ok(Some(Step {
                swiss,
                status,
                paired,
                no_shows: Vec::new(),
                recorded: false,
            }))
        }
        Status::Running => {
            let Some(state) = &row.state else {
                return Ok(None);
            };
            let mut swiss: Swiss =
                serde_json::from_str(state).map_err(|_| TournamentError::NoRounds)?;
            let mut changed = sync_entrants(&mut swiss, entrants)?;
            let (recorded, no_shows) = record_results(&mut swiss, games)?;
            for user in &no_shows {
                swiss.withdraw(&PlayerId::new(user.clone()))?;
            }
            changed |= recorded;
            let complete = swiss.rounds.last().is_none_or(|r| r.is_complete());
            if !complete {
                return Ok(changed.then_some(Step {
                    swiss,
                    status: Status::Running,
                    paired: None,
                    no_shows,
                    recorded,
                }));
            }
            let (status, paired) = if swiss.is_finished() {
                (Status::Finished, None)
            } else {
                fill_bots(&mut swiss, row)?;
                pair(&mut swiss, Status::Finished)?
            };
            Ok(Some(Step {
                swiss,
                status,
                paired,
                no_shows,
                recorded,
            }))
        }
        Status::Finished | Status::Cancelled => Ok(None),
    }
}

/// Pairs the next round: running with it, or `otherwise` when too few players are left.
fn pair(
    swiss: &mut Swiss,
    otherwise: Status,
) -> Result<(Status, Option<Pairing>), TournamentError> {
    match swiss.pair_next_round() {
        Ok(p) => Ok((Status::Running, Some(p.clone()))),
        Err(TournamentError::TooFewPlayers { .. }) => Ok((otherwise, None)),
        Err(e) => Err(e),
    }
}

/// Late entries, withdrawals and returns, as the entrants' rows say; whether any changed.
fn sync_entrants(swiss: &mut Swiss, entrants: &[Entrant]) -> Result<bool, TournamentError> {
    let mut changed = false;
    for e in entrants {
        let id = PlayerId::new(e.user.clone());
        let known = swiss
            .players
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.withdrawn);
        match (known, e.withdrawn) {
            (None, false) | (Some(true), false) => {
                swiss.join(id)?;
                changed = true;
            }
            (Some(false), true) => {
                swiss.withdraw(&id)?;
                changed = true;
            }
            _ => {}
        }
    }
    Ok(changed)
}

/// Records every finished game of a table without a result; whether any was, and the human
/// players of those games whose seat the time-out policy handed to a bot (absent).
fn record_results(
    swiss: &mut Swiss,
    games: &[TableGame],
) -> Result<(bool, Vec<String>), TournamentError> {
    let mut recorded = false;
    let mut absent = Vec::new();
    for g in games {
        let Some(result) = &g.result else { continue };
        let Some(round) = swiss.rounds.get(g.round as usize) else {
            continue;
        };
        if round.results.get(g.table).is_none_or(Option::is_some) {
            continue;
        }
        let players = round.pairing.tables[g.table].clone();
        let table = table_result(result, players.len());
        swiss.record(g.round, g.table, table)?;
        recorded = true;
        for seat in stored_seats(result, "absent") {
            if let Some(p) = players.get(usize::from(seat))
                && !is_bot(&p.0)
            {
                absent.push(p.0.clone());
            }
        }
    }
    Ok((recorded, absent))
}

/// A game's stored result as the core reads it: places in standard competition ranking (the
/// count of seats strictly ahead) from the server's final ranks, and the game's scores (0
/// when the game ended early without them).
pub fn table_result(result: &serde_json::Value, seats: usize) -> TableResult {
    let ranks = stored_ranks(result)
        .filter(|r| r.len() == seats)
        .unwrap_or_else(|| vec![0; seats]);
    let places = ranks
        .iter()
        .map(|r| ranks.iter().filter(|o| o < &r).count() as u8)
        .collect();
    let scores: Vec<i64> = result
        .get("scores")
        .and_then(|s| serde_json::from_value(s.clone()).ok())
        .filter(|s: &Vec<i64>| s.len() == seats)
        .unwrap_or_else(|| vec![0; seats]);
    TableResult { places, scores }
}

/// Bots fill the tables when the tournament allows them: as many active bots as it takes to
/// make full tables of the people still in (none once no person is), taken back from the
/// bots of earlier rounds first, in their order, so that the same bots play on.
fn fill_bots(swiss: &mut Swiss, row: &TournamentRow) -> Result<(), TournamentError> {
    if row.bot_level.is_none() {
        return Ok(());
    }
    let seats = usize::from(row.seats);
    let people = swiss
        .players
        .iter()
        .filter(|p| !is_bot(&p.id.0) && !p.withdrawn)
        .count();
    let wanted = if people == 0 {
        0
    } else {
        people.div_ceil(seats) * seats - people
    };
    let mut bots = 0;
    for p in swiss.players.iter_mut().filter(|p| is_bot(&p.id.0)) {
        p.withdrawn = bots >= wanted;
        bots += 1;
    }
    for n in bots..wanted {
        swiss.join(PlayerId::new(bot_id(n + 1)))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn places_are_competition_ranks_and_missing_scores_are_zero() {
        let r = table_result(&json!({"ranks": [1, 0, 0], "scores": [3, 9, 9]}), 3);
        assert_eq!(r.places, vec![2, 0, 0]);
        assert_eq!(r.scores, vec![3, 9, 9]);
        let early = table_result(&json!({"ranks": [0, 1], "ending": "resigned"}), 2);
        assert_eq!((early.places, early.scores), (vec![0, 1], vec![0, 0]));
    }
}
