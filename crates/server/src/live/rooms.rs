//! The registry of running rooms: one per game that someone follows or that is being played.
use crate::LiveContext as Context;
use crate::cluster::{Lease, Owner};
use crate::db::error::StoreError;
use crate::db::rows::{SeatKind, TurnWrite};
use crate::live::clock::Clock;
use crate::live::load_error::LoadError;
use crate::live::room::{Room, RoomSetup, WAKE_AHEAD};
use crate::live::room_cmd::{RoomCmd, RoomHandle};

type Result<T, E = LoadError> = std::result::Result<T, E>;
use pyramidion_core::record::Record;
use pyramidion_games::AnyGame;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Every WebSocket message that names a game looks its room up here, so the lock is only held
/// for a map access: never across the database reads that rebuild a room.
#[derive(Default)]
pub struct Rooms {
    map: Mutex<HashMap<String, RoomHandle>>,
    /// Finished games already replayed: they never change, so a subscriber to one does not
    /// cost a replay of its record each time.
    finished: Mutex<HashMap<String, Loaded>>,
    /// One gate per game whose room is being built: see [`Rooms::get_as`].
    building: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// How often games whose clock runs out soon are brought back into memory…
pub const WAKE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Most finished games kept replayed.
const FINISHED_CACHE: usize = 256;

/// A game read back from the database, ready to become a room.
#[derive(Clone)]
struct Loaded {
    game: AnyGame,
    moves: Vec<pyramidion_games::PlayedMove>,
    /// Steps taken back so far (`RoomSetup::undos`).
    undos: u64,
    seats: Vec<SeatKind>,
    seed: u64,
    clock: Option<Clock>,
    owner: String,
    reveal_at_end: bool,
    sealed: Option<crate::live::protocol::SealedEnd>,
    resigned: Vec<u8>,
    ending: Option<String>,
    /// A finished game's absent seats, as its stored result says (`RoomSetup::absent`).
    absent: Option<Vec<u8>>,
}

impl Rooms {
    /// The room of a started game, rebuilding it from its record if it is not running. With
    /// several instances, a live game another alive instance runs is served by a remote room
    /// that forwards to it (`crate::live::link`).
    pub async fn get(&self, state: &Context, id: &str) -> Result<Option<RoomHandle>> {
        self.get_as(state, id, true).await
    }

    /// The room of a started game only if it runs here (or can be taken over now): never a
    /// remote room. For the internal link, and for what only the owner does (clocks,
    /// resuming, adopting orphans).
    pub async fn get_owned(&self, state: &Context, id: &str) -> Result<Option<RoomHandle>> {
        match self.lookup(id) {
            Ok(running) if !running.local => Ok(None),
            _ => self.get_as(state, id, false).await,
        }
    }

    /// The running room of `id`, or one built for it, one build at a time per game. Two
    /// builds at once (a player subscribing while the orphan sweep adopts the game) would
    /// both claim the game's lease, each a new epoch; the build that lost the race would
    /// return the winner's room and drop its own lease, letting the game go at the newer
    /// epoch: another instance would then take the game and run it, while the winner's room,
    /// fenced out, kept its subscribers, who would hear nothing more (a cluster test's player
    /// waited 60 s for a state: docs/tests.md).
    async fn get_as(
        &self,
        state: &Context,
        id: &str,
        remote_ok: bool,
    ) -> Result<Option<RoomHandle>> {
        if let Ok(running) = self.lookup(id) {
            return Ok(Some(running));
        }
        let gate = self
            .building
            .lock()
            .expect("rooms lock")
            .entry(id.to_string())
            .or_default()
            .clone();
        let built = {
            let _one_build = gate.lock().await;
            self.build(state, id, remote_ok).await
        };
        // The gate goes when no other build waits at it (the map's copy and this one left).
        let mut gates = self.building.lock().expect("rooms lock");
        if Arc::strong_count(&gate) == 2 {
            gates.remove(id);
        }
        built
    }

    /// The body of [`Rooms::get_as`], behind the game's gate: a room built meanwhile is found
    /// by its first lookup.
    async fn build(
        &self,
        state: &Context,
        id: &str,
        remote_ok: bool,
    ) -> Result<Option<RoomHandle>> {
        loop {
            let seen = match self.lookup(id) {
                Ok(running) => return Ok(Some(running)),
                Err(ended) => ended,
            };
            let cached = self.finished_lock().get(id).cloned();
            let mut lease = None;
            let loaded = match cached {
                Some(loaded) => loaded,
                None => {
                    // Among several instances, a live game is claimed before it is read: the
                    // record read after the claim holds every move its last owner committed.
                    if let Some(cluster) = state.cluster.clone()
                        && is_live(state, id).await?
                    {
                        match cluster.claim(id).await? {
                            Owner::Me(epoch) => {
                                lease = Some(Lease {
                                    cluster,
                                    game: id.to_string(),
                                    epoch,
                                })
                            }
                            Owner::Other { id: owner, address } => {
                                if !remote_ok {
                                    return Ok(None);
                                }
                                let mut map = self.map.lock().expect("rooms lock");
                                if let Some(running) = map.get(id).filter(|h| !h.tx.is_closed()) {
                                    return Ok(Some(running.clone()));
                                }
                                let handle = crate::live::link::remote_room(
                                    state.clone(),
                                    cluster,
                                    id.to_string(),
                                    owner,
                                    address,
                                );
                                map.insert(id.to_string(), handle.clone());
                                return Ok(Some(handle));
                            }
                        }
                    }
                    let Some((loaded, finished)) = load(state, id).await? else {
                        return Ok(None);
                    };
                    // A daily game under embargo is not kept: its end is revealed later.
                    if finished && loaded.reveal_at_end {
                        let mut cache = self.finished_lock();
                        if cache.len() >= FINISHED_CACHE {
                            // Any one: the cache only saves replays, it is never needed.
                            let old = cache.keys().next().cloned();
                            old.map(|k| cache.remove(&k));
                        }
                        cache.insert(id.to_string(), loaded.clone());
                    }
                    loaded
                }
            };
            let mut map = self.map.lock().expect("rooms lock");
            let unchanged = match (map.get(id), &seen) {
                (None, None) => true,
                (Some(now), Some(then)) => now.tx.same_channel(&then.tx),
                _ => false,
            };
            // Another request started (or a room ended) while the record was read: that
            // record may be stale, so look again.
            if !unchanged {
                continue;
            }
            let handle = Room::spawn(RoomSetup {
                id: id.to_string(),
                game: loaded.game,
                moves: loaded.moves,
                undos: loaded.undos,
                seats: loaded.seats,
                seed: loaded.seed,
                clock: loaded.clock,
                store: Arc::new(state.store.clone()),
                // The rooms' time of day (`Config::room_clock`): the clocks stored with moves
                // and the deadline sweep (`wake_due`) read it too.
                wall: state.config.room_clock.clone(),
                metrics: state.metrics.clone(),
                hub: state.hub.clone(),
                idle_after: state.config.limits.room_idle,
                bot_pace: state.config.bot_pace,
                bots: state.bots.clone(),
                owner: loaded.owner,
                reveal_at_end: loaded.reveal_at_end,
                sealed: loaded.sealed,
                resigned: loaded.resigned,
                ending: loaded.ending,
                absent: loaded.absent,
                lease,
            });
            // Finished rooms end their task but stay in the map; drop them now and then so
            // the map holds about the live games.
            if map.len() >= 1024 && map.len().is_power_of_two() {
                map.retain(|_, h| !h.tx.is_closed());
            }
            map.insert(id.to_string(), handle.clone());
            return Ok(Some(handle));
        }
    }

    fn finished_lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Loaded>> {
        self.finished.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drops `room` from the map if it is still `id`'s entry (a newer one is kept).
    fn forget(&self, id: &str, room: &RoomHandle) {
        let mut map = self.map.lock().expect("rooms lock");
        if map.get(id).is_some_and(|now| now.tx.same_channel(&room.tx)) {
            map.remove(id);
        }
    }

    /// The room of `id` if it is running (never rebuilds one).
    pub fn running(&self, id: &str) -> Option<RoomHandle> {
        self.lookup(id).ok()
    }

    /// Rooms in memory, running or ended but not yet dropped from the map.
    pub fn in_memory(&self) -> usize {
        self.map.lock().expect("rooms lock").len()
    }

    /// The running room, or the ended one (if any) the map still holds.
    fn lookup(&self, id: &str) -> Result<RoomHandle, Option<RoomHandle>> {
        let map = self.map.lock().expect("rooms lock");
        match map.get(id) {
            Some(h) if !h.tx.is_closed() => Ok(h.clone()),
            ended => Err(ended.cloned()),
        }
    }

    /// Asks every local room whose lease is not among `held` (game → epoch, as the heartbeat
    /// last read this instance's leases) to check its own: one that lost its game stops
    /// serving it and sends its followers to whoever runs it now. A room built since that
    /// reading is not among them either, so the room itself reads its lease again.
    pub fn check_leases(&self, held: &HashMap<String, i64>) {
        let doubtful: Vec<RoomHandle> = self
            .map
            .lock()
            .expect("rooms lock")
            .iter()
            .filter(|(id, h)| {
                h.local && !h.tx.is_closed() && h.epoch.is_some_and(|e| held.get(*id) != Some(&e))
            })
            .map(|(_, h)| h.clone())
            .collect();
        for room in doubtful {
            if let Err(crate::queue::TrySendError::Full(cmd)) =
                room.tx.try_send(RoomCmd::CheckLease)
            {
                tokio::spawn(async move {
                    let _ = room.tx.send(cmd).await;
                });
            }
        }
    }

    /// Brings back into memory every live game whose turn's time runs out within
    /// [`WAKE_AHEAD`]: its room, which left memory while nobody followed it, then plays the
    /// time-out itself, on time. Run every [`WAKE_EVERY`].
    pub async fn wake_due(&self, state: &Context) -> Result<()> {
        let soon = state.config.room_clock.now_ms() + WAKE_AHEAD.as_millis() as i64;
        for id in state.store.games_due(soon).await? {
            if self.running(&id).is_none()
                && let Err(e) = self.get_owned(state, &id).await
            {
                tracing::error!(game = %id, error = %e, "cannot wake a game whose clock runs out");
            }
        }
        Ok(())
    }

    /// Starts every unfinished game after a restart, so bots and clocks resume at once.
    pub async fn resume_all(&self, state: &Context) -> Result<usize> {
        let live = state
            .store
            .games_with_status(crate::game_status::GameStatus::Live)
            .await?;
        let mut resumed = 0;
        for g in &live {
            match self.get_owned(state, &g.id).await {
                Ok(Some(_)) => resumed += 1,
                // Another alive instance runs it.
                Ok(None) => {}
                Err(e) => tracing::error!(game = %g.id, error = %e, "cannot resume game"),
            }
        }
        Ok(resumed)
    }

    /// Takes over the live games of instances that died (`crate::cluster`): their clocks and
    /// bots go on here even if none of their players comes back. Run every [`WAKE_EVERY`].
    pub async fn adopt_orphans(&self, state: &Context) -> Result<usize> {
        let Some(cluster) = state.cluster.as_ref() else {
            return Ok(0);
        };
        if cluster.retired() {
            return Ok(0);
        }
        let mut adopted = 0;
        for id in cluster.orphans().await? {
            if let Some(running) = self.running(&id) {
                if running.local {
                    continue;
                }
                // A remote room of a game whose owner is dead or drained forwards to nobody
                // (a drain's notice comes before the forwarder's own check): the game is built
                // here now, and the forwarder sends its followers here at that check.
                self.forget(&id, &running);
            }
            match self.get_owned(state, &id).await {
                Ok(Some(_)) => {
                    adopted += 1;
                    tracing::info!(game = %id, "took over a game whose instance died");
                }
                Ok(None) => {}
                Err(e) => tracing::error!(game = %id, error = %e, "cannot take over a game"),
            }
        }
        Ok(adopted)
    }
}

/// Whether `id` is a live game (only those have an owner among several instances).
async fn is_live(state: &Context, id: &str) -> Result<bool> {
    Ok(state
        .store
        .game(id)
        .await?
        .is_some_and(|row| row.status == crate::game_status::GameStatus::Live))
}

/// A started game rebuilt from its record, and whether it is finished. Tables that never
/// started (open, or abandoned before the start) have no room.
async fn load(state: &Context, id: &str) -> Result<Option<(Loaded, bool)>> {
    let Some(row) = state.store.game(id).await? else {
        return Ok(None);
    };
    if row.status != crate::game_status::GameStatus::Live
        && row.status != crate::game_status::GameStatus::Finished
    {
        return Ok(None);
    }
    state.metrics.replayed();
    let record = Record {
        game: row.kind.key().to_string(),
        options: serde_json::from_str(&row.options).map_err(|error| LoadError::Options {
            id: id.to_string(),
            error,
        })?,
        seed: row.seed,
        result: None,
        moves: state.store.moves(id).await?,
        move_lines: Vec::new(),
    };
    let (game, moves) = match replay_played(&record) {
        Ok(g) => g,
        Err(e) => {
            return Err(LoadError::Replay {
                id: id.to_string(),
                error: e.to_string(),
            });
        }
    };
    let seats = state.store.seats(id).await?;
    let to_move = match game.to_move() {
        pyramidion_core::ToMove::Seat(s) => Some(s.0),
        pyramidion_core::ToMove::Over => None,
    };
    // A game read for the first time (just started, or from before clocks per turn) starts
    // its clock now, and stores it with the seat to move for the "your move" lists.
    let clock = row
        .clock
        .clone()
        .map(|profile| match row.clock_state.clone() {
            Some(state) => Clock { profile, state },
            None => Clock::start(
                profile,
                seats.len(),
                to_move,
                state.config.room_clock.now_ms(),
            ),
        });
    // A turn-based game that starts while one of its players is on vacation starts paused
    // for that player's seats, as if it had been running when the vacation began.
    let mut clock = clock;
    if row.clock_state.is_none()
        && let Some(clock) = clock.as_mut()
    {
        crate::live::vacation::pause_at_start(state, clock, &seats).await?;
    }
    let unstored =
        row.to_move != to_move || clock.as_ref().map(|c| &c.state) != row.clock_state.as_ref();
    if unstored && row.status == crate::game_status::GameStatus::Live {
        let turn = TurnWrite {
            to_move,
            clock_state: clock
                .as_ref()
                .map(|c| serde_json::to_string(&c.state))
                .transpose()
                .map_err(StoreError::from)?,
            deadline_at: clock.as_ref().and_then(Clock::deadline),
        };
        state.store.set_turn(id, turn).await?;
    }
    let (reveal_at_end, sealed) = match state.store.daily_challenge_of_game(id).await? {
        Some((day, challenge)) if !crate::live::daily_embargo::day_is_public(state, &day) => (
            false,
            Some(crate::live::protocol::SealedEnd {
                challenge,
                public_at: crate::live::daily_embargo::public_at(state, &day),
            }),
        ),
        _ => (true, None),
    };
    let loaded = Loaded {
        game,
        moves,
        undos: state.store.undo_count(id).await?,
        seats,
        seed: row.seed,
        clock,
        owner: row.created_by.clone(),
        reveal_at_end,
        sealed,
        resigned: state.store.resignations(id).await?,
        ending: state.store.ending(id).await?,
        absent: (row.status == crate::game_status::GameStatus::Finished).then(|| {
            let result = row
                .result
                .as_deref()
                .and_then(|r| serde_json::from_str(r).ok());
            crate::live::endings::stored_seats(&result.unwrap_or_default(), "absent")
        }),
    };
    Ok(Some((
        loaded,
        row.status == crate::game_status::GameStatus::Finished,
    )))
}

/// Rebuilds a game from its record, keeping every move as each viewer may see it.
pub fn replay_played(
    record: &Record,
) -> Result<(AnyGame, Vec<pyramidion_games::PlayedMove>), pyramidion_games::GameError> {
    let mut game = AnyGame::from_record_prefix(record, Some(0))?;
    let mut played = Vec::with_capacity(record.moves.len());
    for text in &record.moves {
        played.push(game.play_text(text)?);
    }
    Ok((game, played))
}
