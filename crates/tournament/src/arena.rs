//! An Arena as data: a fixed duration during which whoever is free is seated again at once
//! with others free and close in the standings (`arena_pool.rs`), placement points with
//! the streak bonus of [`crate::streak`]. The server owns the clock and passes the time in
//! milliseconds to every call; it stores the state and commits new tables before telling
//! anyone.
use crate::arena_pool::{self, Free};
use crate::points::TableResult;
use crate::streak::{arena_points, next_streak, on_fire};
use crate::{PlayerId, TableFormat, TournamentError};
use pyramidion_core::{GameRng, Seed};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaConfig {
    pub format: TableFormat,
    /// Milliseconds on the server's clock.
    pub starts_at: u64,
    pub duration: u64,
    /// How long a free player waits for the best table before the fallbacks: a short table,
    /// or the very same table again.
    pub patience: u64,
    /// Draws the seat order at each table (the first seat goes to whoever had it least).
    pub seed: Seed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum ArenaState {
    /// Free, waiting for a table since this time.
    Waiting {
        since: u64,
    },
    Playing {
        table: usize,
    },
    /// Left (or the Arena ended while they played); may come back while it runs.
    Away,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaPlayer {
    pub id: PlayerId,
    pub state: ArenaState,
    /// Leaves once their current table ends.
    pub leaving: bool,
    pub points: u32,
    pub games: u32,
    pub wins: u32,
    /// Sole wins in a row.
    pub streak: u32,
    pub last_table: Option<usize>,
    /// How many times the player had the first seat of a table (it often moves first).
    #[serde(default)]
    pub firsts: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaTable {
    /// In seat order.
    pub players: Vec<PlayerId>,
    pub started_at: u64,
    pub result: Option<TableResult>,
    /// Per seat, the Arena points awarded (placement points, doubled on fire), once ended.
    pub awarded: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaStanding {
    pub id: PlayerId,
    pub rank: u32,
    pub points: u32,
    pub wins: u32,
    pub games: u32,
    pub on_fire: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arena {
    pub config: ArenaConfig,
    pub players: Vec<ArenaPlayer>,
    pub tables: Vec<ArenaTable>,
}

impl Arena {
    pub fn new(config: ArenaConfig) -> Result<Self, TournamentError> {
        config.format.validate()?;
        Ok(Arena {
            config,
            players: Vec::new(),
            tables: Vec::new(),
        })
    }

    pub fn ends_at(&self) -> u64 {
        self.config.starts_at.saturating_add(self.config.duration)
    }

    /// Whether new tables may form: from the start to the end. Tables formed before the end
    /// finish and count.
    pub fn is_running(&self, now: u64) -> bool {
        (self.config.starts_at..self.ends_at()).contains(&now)
    }

    fn index(&self, id: &PlayerId) -> Result<usize, TournamentError> {
        self.players
            .iter()
            .position(|p| &p.id == id)
            .ok_or_else(|| TournamentError::UnknownPlayer(id.clone()))
    }

    /// Enters a player (before the start, or while it runs), or brings back one who left.
    pub fn join(&mut self, id: PlayerId, now: u64) -> Result<(), TournamentError> {
        if now >= self.ends_at() {
            return Err(TournamentError::ArenaClosed);
        }
        // Waiting before the start does not count towards patience.
        let since = now.max(self.config.starts_at);
        match self.players.iter_mut().find(|p| p.id == id) {
            Some(p) if p.state == ArenaState::Away => p.state = ArenaState::Waiting { since },
            Some(p) if p.leaving => p.leaving = false,
            Some(_) => return Err(TournamentError::DuplicatePlayer(id)),
            None => self.players.push(ArenaPlayer {
                id,
                state: ArenaState::Waiting { since },
                leaving: false,
                points: 0,
                games: 0,
                wins: 0,
                streak: 0,
                last_table: None,
                firsts: 0,
            }),
        }
        Ok(())
    }

    /// A player leaves: at once when free, after their table otherwise. They keep their points.
    pub fn leave(&mut self, id: &PlayerId) -> Result<(), TournamentError> {
        let i = self.index(id)?;
        let player = &mut self.players[i];
        match player.state {
            ArenaState::Waiting { .. } => player.state = ArenaState::Away,
            ArenaState::Playing { .. } => player.leaving = true,
            ArenaState::Away => {}
        }
        Ok(())
    }

    /// Seats free players (see `arena_pool.rs`) and returns the new tables' indices.
    pub fn pair(&mut self, now: u64) -> Result<Vec<usize>, TournamentError> {
        if !self.is_running(now) {
            return Err(TournamentError::ArenaClosed);
        }
        let pool_ids: Vec<usize> = self
            .standing_order()
            .into_iter()
            .filter(|&i| matches!(self.players[i].state, ArenaState::Waiting { .. }))
            .collect();
        let pool: Vec<Free> = pool_ids
            .iter()
            .map(|&i| {
                let p = &self.players[i];
                let ArenaState::Waiting { since } = p.state else {
                    unreachable!("the pool holds waiting players only")
                };
                Free {
                    since,
                    points: p.points,
                    last_table: p.last_table,
                    last_size: p.last_table.map_or(0, |t| self.tables[t].players.len()),
                }
            })
            .collect();
        let mut formed = Vec::new();
        for table in arena_pool::tables(self.config.format, self.config.patience, now, &pool) {
            let index = self.tables.len();
            let mut players: Vec<usize> = table.into_iter().map(|k| pool_ids[k]).collect();
            let mut rng = GameRng::from_seed(
                self.config.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            );
            rng.shuffle(&mut players);
            // As in a Swiss round: the first seat to whoever had it least (ties: the draw).
            if let Some(first) = (0..players.len()).min_by_key(|&k| self.players[players[k]].firsts)
            {
                let player = players.remove(first);
                players.insert(0, player);
                self.players[player].firsts += 1;
            }
            for &i in &players {
                self.players[i].state = ArenaState::Playing { table: index };
            }
            self.tables.push(ArenaTable {
                players: players
                    .iter()
                    .map(|&i| self.players[i].id.clone())
                    .collect(),
                started_at: now,
                result: None,
                awarded: Vec::new(),
            });
            formed.push(index);
        }
        Ok(formed)
    }

    /// Records a table's result (in its seat order), awards the points and frees its players:
    /// back to the pool while the Arena runs, away after its end or if they asked to leave.
    pub fn record(
        &mut self,
        table: usize,
        result: TableResult,
        now: u64,
    ) -> Result<(), TournamentError> {
        let t = self
            .tables
            .get(table)
            .ok_or(TournamentError::NoSuchTable(table))?;
        if t.result.is_some() {
            return Err(TournamentError::ResultAlreadyRecorded(table));
        }
        result.validate(t.players.len())?;
        let placement = result.points();
        let running = self.is_running(now);
        let mut awarded = Vec::with_capacity(placement.len());
        for (seat, id) in t.players.clone().iter().enumerate() {
            let i = self.index(id)?;
            let p = &mut self.players[i];
            let points = arena_points(placement[seat], p.streak);
            let win = result.sole_winner(seat);
            p.points += points;
            p.games += 1;
            p.wins += u32::from(win);
            p.streak = next_streak(p.streak, win);
            p.last_table = Some(table);
            p.state = if running && !p.leaving {
                ArenaState::Waiting { since: now }
            } else {
                ArenaState::Away
            };
            p.leaving = false;
            awarded.push(points);
        }
        let t = &mut self.tables[table];
        t.result = Some(result);
        t.awarded = awarded;
        Ok(())
    }

    /// Points, then sole wins, then fewer games (the same points in fewer games is the
    /// better run), larger first; level players share a rank, listed by id.
    pub fn standings(&self) -> Vec<ArenaStanding> {
        let order = self.standing_order();
        let mut list: Vec<ArenaStanding> = Vec::with_capacity(order.len());
        for (place, &i) in order.iter().enumerate() {
            let p = &self.players[i];
            let rank = match list.last() {
                Some(above) if standing_key(&self.players[order[place - 1]]) == standing_key(p) => {
                    above.rank
                }
                _ => place as u32,
            };
            list.push(ArenaStanding {
                id: p.id.clone(),
                rank,
                points: p.points,
                wins: p.wins,
                games: p.games,
                on_fire: on_fire(p.streak),
            });
        }
        list
    }

    /// Indices of the players in standing order.
    fn standing_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by(|&a, &b| {
            let (pa, pb) = (&self.players[a], &self.players[b]);
            standing_key(pa)
                .cmp(&standing_key(pb))
                .then_with(|| pa.id.cmp(&pb.id))
        });
        order
    }
}

fn standing_key(p: &ArenaPlayer) -> (Reverse<u32>, Reverse<u32>, u32) {
    (Reverse(p.points), Reverse(p.wins), p.games)
}
