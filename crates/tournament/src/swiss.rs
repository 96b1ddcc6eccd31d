//! A Swiss tournament as data: its players, its rounds and their results. The server stores
//! it, calls [`Swiss::pair_next_round`] when a round has ended, commits the pairing, then
//! tells the players; every method is a pure step from one state to the next.
use crate::standings::{Ledger, Standing, podium};
use crate::swiss_pairing::{Entrant, Pairing, RoundRequest, pair_round};
use crate::{Meetings, PlayerId, TableFormat, TableResult, TournamentError};
use pyramidion_core::Seed;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissConfig {
    pub format: TableFormat,
    pub rounds: u32,
    /// Draws the first round's order, ties in the standings and seat orders.
    pub seed: Seed,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlayer {
    pub id: PlayerId,
    /// Withdrawn players (left, or removed after a no-show) are not paired again.
    pub withdrawn: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissRound {
    pub pairing: Pairing,
    /// Per table of the pairing, its result once known.
    pub results: Vec<Option<TableResult>>,
}

impl SwissRound {
    pub fn is_complete(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Swiss {
    pub config: SwissConfig,
    pub players: Vec<SwissPlayer>,
    pub rounds: Vec<SwissRound>,
}

impl Swiss {
    pub fn new(
        config: SwissConfig,
        players: impl IntoIterator<Item = PlayerId>,
    ) -> Result<Self, TournamentError> {
        config.format.validate()?;
        if config.rounds == 0 {
            return Err(TournamentError::NoRounds);
        }
        let mut swiss = Swiss {
            config,
            players: Vec::new(),
            rounds: Vec::new(),
        };
        for id in players {
            swiss.join(id)?;
        }
        Ok(swiss)
    }

    fn player_mut(&mut self, id: &PlayerId) -> Option<&mut SwissPlayer> {
        self.players.iter_mut().find(|p| &p.id == id)
    }

    /// Enters a player, before the first round or late (with no points); a withdrawn player
    /// may come back.
    pub fn join(&mut self, id: PlayerId) -> Result<(), TournamentError> {
        match self.player_mut(&id) {
            Some(p) if p.withdrawn => p.withdrawn = false,
            Some(_) => return Err(TournamentError::DuplicatePlayer(id)),
            None => self.players.push(SwissPlayer {
                id,
                withdrawn: false,
            }),
        }
        Ok(())
    }

    /// Withdraws a player from the next pairings. A table they sit at in the current round
    /// plays on; its result (a forfeit for them, as the server's time-out policy decides) is
    /// recorded as usual.
    pub fn withdraw(&mut self, id: &PlayerId) -> Result<(), TournamentError> {
        let player = self
            .player_mut(id)
            .ok_or_else(|| TournamentError::UnknownPlayer(id.clone()))?;
        player.withdrawn = true;
        Ok(())
    }

    pub fn is_finished(&self) -> bool {
        self.rounds.len() == self.config.rounds as usize
            && self.rounds.last().is_some_and(SwissRound::is_complete)
    }

    /// Pairs the next round from the standings so far. Refused while a table of the current
    /// round has no result, after the last round, and when the active players cannot fill a
    /// table.
    pub fn pair_next_round(&mut self) -> Result<&Pairing, TournamentError> {
        if let Some(current) = self.rounds.last()
            && !current.is_complete()
        {
            return Err(TournamentError::RoundInProgress(current.pairing.round));
        }
        if self.rounds.len() >= self.config.rounds as usize {
            return Err(TournamentError::TournamentOver);
        }
        let standings = self.standings();
        let mut firsts: BTreeMap<&PlayerId, u32> = BTreeMap::new();
        for table in self.rounds.iter().flat_map(|r| &r.pairing.tables) {
            *firsts.entry(&table[0]).or_default() += 1;
        }
        let entrants: Vec<Entrant> = standings
            .iter()
            .filter(|s| !s.withdrawn)
            .map(|s| Entrant {
                id: s.id.clone(),
                points: s.points,
                tiebreak: s.opponents,
                byes: s.byes,
                firsts: firsts.get(&s.id).copied().unwrap_or(0),
            })
            .collect();
        let pairing = pair_round(&RoundRequest {
            format: self.config.format,
            entrants: &entrants,
            meetings: &self.meetings(),
            seed: self.config.seed,
            round: self.rounds.len() as u32,
        })?;
        let tables = pairing.tables.len();
        self.rounds.push(SwissRound {
            pairing,
            results: vec![None; tables],
        });
        Ok(&self.rounds[self.rounds.len() - 1].pairing)
    }

    /// Records the result of `table` in `round`, in the table's seat order.
    pub fn record(
        &mut self,
        round: u32,
        table: usize,
        result: TableResult,
    ) -> Result<(), TournamentError> {
        let r = self
            .rounds
            .get_mut(round as usize)
            .ok_or(TournamentError::NoSuchRound(round))?;
        let players = r
            .pairing
            .tables
            .get(table)
            .ok_or(TournamentError::NoSuchTable(table))?;
        result.validate(players.len())?;
        let slot = &mut r.results[table];
        if slot.is_some() {
            return Err(TournamentError::ResultAlreadyRecorded(table));
        }
        *slot = Some(result);
        Ok(())
    }

    /// Every pair that has shared a table, counted once per table.
    pub fn meetings(&self) -> Meetings {
        let mut meetings = Meetings::new();
        for round in &self.rounds {
            for table in &round.pairing.tables {
                meetings.add_table(table);
            }
        }
        meetings
    }

    pub fn standings(&self) -> Vec<Standing> {
        let mut ledger = Ledger {
            players: self.players.iter().map(|p| (&p.id, p.withdrawn)).collect(),
            tables: Vec::new(),
            byes: Vec::new(),
        };
        for round in &self.rounds {
            for (table, result) in round.pairing.tables.iter().zip(&round.results) {
                if let Some(result) = result {
                    ledger.tables.push((table, result));
                }
            }
            ledger.byes.extend(&round.pairing.byes);
        }
        ledger.standings()
    }

    pub fn podium(&self) -> Vec<Standing> {
        podium(&self.standings())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swiss(players: usize) -> Swiss {
        let config = SwissConfig {
            format: TableFormat::new(2, false).unwrap(),
            rounds: 2,
            seed: 5,
        };
        Swiss::new(config, (0..players).map(|i| PlayerId::new(format!("p{i}")))).unwrap()
    }

    fn win() -> TableResult {
        TableResult {
            places: vec![0, 1],
            scores: vec![1, 0],
        }
    }

    #[test]
    fn bad_configurations_are_refused() {
        let format = TableFormat::new(3, false).unwrap();
        let config = SwissConfig {
            format,
            rounds: 0,
            seed: 0,
        };
        assert_eq!(
            Swiss::new(config, []).unwrap_err(),
            TournamentError::NoRounds
        );
        let config = SwissConfig {
            rounds: 3,
            ..config
        };
        let twice = [PlayerId::new("a"), PlayerId::new("a")];
        assert_eq!(
            Swiss::new(config, twice).unwrap_err(),
            TournamentError::DuplicatePlayer(PlayerId::new("a"))
        );
        let bad = SwissConfig {
            format: TableFormat {
                seats: 6,
                short_tables: false,
            },
            ..config
        };
        assert_eq!(
            Swiss::new(bad, []).unwrap_err(),
            TournamentError::TableSizeOutOfRange(6)
        );
    }

    #[test]
    fn a_round_is_paired_once_its_predecessor_has_ended() {
        let mut s = swiss(4);
        s.pair_next_round().unwrap();
        assert_eq!(
            s.pair_next_round().unwrap_err(),
            TournamentError::RoundInProgress(0)
        );
        s.record(0, 0, win()).unwrap();
        assert_eq!(
            s.record(0, 0, win()),
            Err(TournamentError::ResultAlreadyRecorded(0))
        );
        assert_eq!(s.record(0, 2, win()), Err(TournamentError::NoSuchTable(2)));
        assert_eq!(s.record(1, 0, win()), Err(TournamentError::NoSuchRound(1)));
        let three = TableResult {
            places: vec![0, 1, 2],
            scores: vec![0; 3],
        };
        assert_eq!(s.record(0, 1, three), Err(TournamentError::BadPlacements));
        s.record(0, 1, win()).unwrap();
        // The two winners meet in round 2.
        let winners: Vec<PlayerId> = s.rounds[0]
            .pairing
            .tables
            .iter()
            .map(|t| t[0].clone())
            .collect();
        let mut top = s.pair_next_round().unwrap().tables[0].clone();
        top.sort();
        let mut expected = winners;
        expected.sort();
        assert_eq!(top, expected);
        s.record(1, 0, win()).unwrap();
        s.record(1, 1, win()).unwrap();
        assert!(s.is_finished());
        assert_eq!(
            s.pair_next_round().unwrap_err(),
            TournamentError::TournamentOver
        );
        assert_eq!(s.podium()[0].points, 48);
    }

    #[test]
    fn withdrawn_players_are_not_paired_and_may_come_back() {
        let mut s = swiss(5);
        let p0 = PlayerId::new("p0");
        s.withdraw(&p0).unwrap();
        let pairing = s.pair_next_round().unwrap().clone();
        assert!(pairing.tables.iter().flatten().all(|id| id != &p0));
        assert!(pairing.byes.is_empty());
        assert_eq!(
            s.withdraw(&PlayerId::new("x")),
            Err(TournamentError::UnknownPlayer(PlayerId::new("x")))
        );
        s.join(p0.clone()).unwrap();
        assert_eq!(
            s.join(p0.clone()),
            Err(TournamentError::DuplicatePlayer(p0))
        );
    }
}
