//! The tournament director: a task on every instance that, every [`STEP_EVERY`], steps the
//! tournaments with work (an open one whose start has come, a running one). Each step takes
//! the tournament's lease first (`crate::cluster`, like a game's: one instance runs a
//! tournament at a time, and another takes it over when that one dies), computes the step
//! from what is stored (`swiss_step`, pure), commits it in one transaction fenced by the
//! lease and the state's version (`store::commit`), and only then starts the new games'
//! rooms and tells the players. A step cut short by a crash left nothing behind, or all of
//! it: the next holder starts again from what is stored, and a round is never paired twice
//! (the version, and the round's key).
use super::row::{Status, TournamentRow};
use super::store::{self, Commit, NewTable};
use super::swiss_step::{self, Step};
use super::view::{self, StandingView};
use super::{is_bot, lease_of};
use crate::AppState;
use crate::cluster::{Owner, Renewal};
use crate::db::fence::Fence;
use crate::db::rows::{GameRow, SeatKind};
use crate::live::protocol::ServerMsg;
use crate::reach::Kind;
use crate::secret::random_hex;
use pyramidion_tournament::Pairing;
use serde::Serialize;
use std::time::Duration;

/// How often the director looks for work: a round starts within this of the last game of the
/// previous one ending.
pub const STEP_EVERY: Duration = Duration::from_secs(1);

#[derive(Debug, thiserror::Error)]
pub enum DirectorError {
    #[error(transparent)]
    Store(#[from] crate::db::error::StoreError),
    #[error(transparent)]
    Cluster(#[from] crate::cluster::error::ClusterError),
    #[error("tournament: {0}")]
    Tournament(#[from] pyramidion_tournament::TournamentError),
    #[error("a tournament's stored bot level: {0}")]
    BotLevel(String),
    #[error("cannot draw a seed: {0}")]
    Seed(String),
}

/// A `tournament` message: what changed, and the standings as they are now.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct TournamentMsg {
    pub tournament: String,
    /// `round_started`, `standings` (a result moved them) or `finished`.
    pub event: &'static str,
    pub status: Status,
    /// The round just started (from 0).
    pub round: Option<u32>,
    /// The recipient's game in the round just started.
    pub game: Option<String>,
    pub standings: Vec<StandingView>,
}

/// Steps the tournaments with work until the process ends.
pub async fn run(state: AppState) {
    let mut every = tokio::time::interval(STEP_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        if *state.draining.borrow() || state.cluster.as_ref().is_some_and(|c| c.retired()) {
            continue;
        }
        tick(&state).await;
    }
}

/// One pass over the tournaments with work.
pub async fn tick(state: &AppState) {
    let now = state.config.room_clock.now_ms();
    let ids = match store::due(&state.store, now).await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read the tournaments with work");
            return;
        }
    };
    for id in ids {
        if let Err(e) = step(state, &id, now).await {
            tracing::warn!(tournament = %id, error = %e, "cannot step a tournament");
        }
    }
}

/// This instance's hold of the tournament's lease (none on one instance), or `Err(())` when
/// another alive instance runs it.
async fn hold(state: &AppState, id: &str) -> Result<Result<Option<Fence>, ()>, DirectorError> {
    let Some(cluster) = &state.cluster else {
        return Ok(Ok(None));
    };
    Ok(match cluster.take(&lease_of(id), Renewal::KeepEpoch).await? {
        Owner::Me(epoch) => Ok(Some(Fence {
            owner: cluster.me.clone(),
            epoch,
        })),
        Owner::Other { .. } => Err(()),
    })
}

/// Steps tournament `id` if this instance runs it; whether a step was committed.
pub async fn step(state: &AppState, id: &str, now: i64) -> Result<bool, DirectorError> {
    let Ok(fence) = hold(state, id).await? else {
        return Ok(false);
    };
    let Some(row) = store::get(&state.store, id).await? else {
        return Ok(false);
    };
    let entrants = store::entrants(&state.store, id).await?;
    let tables = store::tables(&state.store, id).await?;
    let Some(step) = swiss_step::step(&row, &entrants, &tables)? else {
        return Ok(false);
    };
    let round = match &step.paired {
        Some(p) => Some((p.round, new_tables(state, &row, p, now)?)),
        None => None,
    };
    let commit = Commit {
        id: id.to_string(),
        version: row.version,
        state: serde_json::to_string(&step.swiss).map_err(crate::db::error::StoreError::from)?,
        status: step.status,
        now,
        round: round.clone(),
        no_shows: step.no_shows.clone(),
    };
    if !store::commit(&state.store, commit, fence).await? {
        return Ok(false);
    }
    tracing::info!(tournament = %id, status = step.status.as_str(), round = ?step.paired.as_ref().map(|p| p.round), "tournament stepped");
    // Committed: now the games start and the players are told.
    if let Some((_, tables)) = &round {
        for t in tables {
            if let Err(e) = state.rooms.get(state, &t.game.id).await {
                tracing::warn!(game = %t.game.id, error = %e.message, "cannot start a tournament game (it starts when someone opens it)");
            }
        }
    }
    publish(state, &row, &step, round.as_ref().map(|(_, t)| t.as_slice())).await?;
    Ok(true)
}

/// The games of a round just paired: each table a normal game of the tournament's game at
/// its size, its players in the pairing's seat order, bots at the bots' seats; rated when
/// the tournament is and no bot sits there.
fn new_tables(
    state: &AppState,
    row: &TournamentRow,
    pairing: &Pairing,
    now: i64,
) -> Result<Vec<NewTable>, DirectorError> {
    let level = match &row.bot_level {
        Some(l) => Some(
            l.parse::<pyramidion_ai::level::BotLevel>()
                .map_err(|e| DirectorError::BotLevel(e.to_string()))?,
        ),
        None => None,
    };
    let clock = row
        .clock
        .as_ref()
        .and_then(|k| state.config.clocks.iter().find(|p| &p.key == k).cloned());
    let mut out = Vec::new();
    for (i, players) in pairing.tables.iter().enumerate() {
        let seats: Vec<SeatKind> = players
            .iter()
            .map(|p| match (is_bot(&p.0), level) {
                (true, Some(level)) => SeatKind::Bot(level),
                _ => SeatKind::Human(p.0.clone()),
            })
            .collect();
        let bots = seats.iter().any(|s| matches!(s, SeatKind::Bot(_)));
        let mut seed = [0u8; 8];
        getrandom::fill(&mut seed).map_err(|e| DirectorError::Seed(e.to_string()))?;
        let created_by = players
            .iter()
            .find(|p| !is_bot(&p.0))
            .map_or_else(|| row.created_by.clone(), |p| p.0.clone());
        out.push(NewTable {
            table: i,
            game: GameRow {
                id: random_hex(8),
                kind: row.game,
                options: row.table_options(players.len()).to_string(),
                seed: u64::from_le_bytes(seed) >> 1,
                status: crate::game_status::GameStatus::Live,
                listed: true,
                invite: random_hex(12),
                clock: clock.clone(),
                clock_state: None,
                to_move: None,
                created_by,
                result: None,
                created_at: now,
                rated: row.rated && !bots && clock.is_some(),
                finished_at: None,
            },
            seats,
        });
    }
    Ok(out)
}

/// Tells the entrants (each with their new game, and by push or mail when away) and the
/// lobby's watchers (the tournament pages) what the committed step changed.
async fn publish(
    state: &AppState,
    row: &TournamentRow,
    step: &Step,
    tables: Option<&[NewTable]>,
) -> Result<(), DirectorError> {
    let ids: Vec<String> = step.swiss.players.iter().map(|p| p.id.0.clone()).collect();
    let names = view::names(&state.store, &ids).await?;
    let standings = view::standings(&step.swiss, &names);
    let event = match (step.status, &step.paired) {
        (Status::Finished | Status::Cancelled, _) => "finished",
        (_, Some(_)) => "round_started",
        _ => "standings",
    };
    let msg = |game: Option<String>| {
        ServerMsg::Tournament(Box::new(TournamentMsg {
            tournament: row.id.clone(),
            event,
            status: step.status,
            round: step.paired.as_ref().map(|p| p.round),
            game,
            standings: standings.clone(),
        }))
    };
    for p in step.swiss.players.iter().filter(|p| !is_bot(&p.id.0)) {
        let game = tables.and_then(|ts| {
            ts.iter()
                .find(|t| t.seats.contains(&SeatKind::Human(p.id.0.clone())))
                .map(|t| t.game.id.clone())
        });
        if let Some(game) = &game {
            // A seat waits for them: by push or mail if they are not on the site.
            state.hub.away(&p.id.0, game, Kind::TableFull);
        }
        state.hub.to_user(&p.id.0, &msg(game));
    }
    state.hub.to_lobby(&msg(None));
    Ok(())
}
