//! The tournament director: a task on every instance that, every [`STEP_EVERY`], steps the
//! tournaments with work (an open one whose start has come, a running one). Each step takes
//! the tournament's lease first (`crate::cluster`, like a game's: one instance runs a
//! tournament at a time, and another takes it over when that one dies), computes the step
//! from what is stored (`swiss_step`, `arena_step`: pure), commits it in one transaction fenced by the
//! lease and the state's version (`store::commit`), and only then starts the new games'
//! rooms and tells the players. A step cut short by a crash left nothing behind, or all of
//! it: the next holder starts again from what is stored, and a round is never paired twice
//! (the version, and the round's key).
use super::core_state::Core;
use super::row::{Format, Status, TournamentRow};
use super::store::{self, Commit, NewTable};
use super::view;
use super::{arena_step, is_bot, lease_of, swiss_step};
use crate::AppState;
use crate::cluster::{Owner, Renewal};
use crate::db::fence::Fence;
use crate::db::rows::{GameRow, SeatKind};
use crate::live::protocol::ServerMsg;
use crate::live::tournament_msg::TournamentMsg;
use crate::reach::Kind;
use crate::secret::random_hex;
use pyramidion_tournament::PlayerId;
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
    Ok(
        match cluster.take(&lease_of(id), Renewal::KeepEpoch).await? {
            Owner::Me(epoch) => Ok(Some(Fence {
                owner: cluster.me.clone(),
                epoch,
            })),
            Owner::Other { .. } => Err(()),
        },
    )
}

/// What a step of either format changes, to commit and then publish.
struct Stepped {
    core: Core,
    status: Status,
    /// A Swiss round just paired.
    round: Option<u32>,
    /// The tables just formed: round, table, players in seat order.
    formed: Vec<(u32, usize, Vec<PlayerId>)>,
    no_shows: Vec<String>,
}

fn stepped(
    row: &TournamentRow,
    entrants: &[swiss_step::Entrant],
    tables: &[swiss_step::TableGame],
    now: i64,
) -> Result<Option<Stepped>, DirectorError> {
    Ok(match row.format {
        Format::Swiss => swiss_step::step(row, entrants, tables)?.map(|s| Stepped {
            round: s.paired.as_ref().map(|p| p.round),
            formed: s
                .paired
                .iter()
                .flat_map(|p| {
                    p.tables
                        .iter()
                        .enumerate()
                        .map(|(i, t)| (p.round, i, t.clone()))
                })
                .collect(),
            core: Core::Swiss(s.swiss),
            status: s.status,
            no_shows: s.no_shows,
        }),
        Format::Arena => arena_step::step(row, entrants, tables, now)?.map(|s| Stepped {
            round: None,
            formed: s
                .formed
                .iter()
                .map(|&i| (0, i, s.arena.tables[i].players.clone()))
                .collect(),
            core: Core::Arena(s.arena),
            status: s.status,
            no_shows: s.no_shows,
        }),
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
    // A round past its deadline ends first: its games' results are read just below.
    super::deadline::adjudicate_due(state, &row, now).await?;
    let entrants = store::entrants(&state.store, id).await?;
    let tables = store::tables(&state.store, id).await?;
    let Some(step) = stepped(&row, &entrants, &tables, now)? else {
        return Ok(false);
    };
    let new = new_tables(state, &row, &step.formed, now)?;
    let commit = Commit {
        id: id.to_string(),
        version: row.version,
        state: step
            .core
            .to_json()
            .map_err(crate::db::error::StoreError::from)?,
        status: step.status,
        now,
        round: step.round,
        tables: new.clone(),
        no_shows: step.no_shows.clone(),
    };
    if !store::commit(&state.store, commit, fence).await? {
        return Ok(false);
    }
    tracing::debug!(tournament = %id, status = step.status.as_str(), round = ?step.round, tables = new.len(), "tournament stepped");
    // Committed: now the games start and the players are told.
    for t in &new {
        if let Err(e) = state.rooms.get(&state.live, &t.game.id).await {
            tracing::warn!(game = %t.game.id, error = %e, "cannot start a tournament game (it starts when someone opens it)");
        }
    }
    publish(state, &row, &step, &new).await?;
    Ok(true)
}

/// The games of the tables just formed: each a normal game of the tournament's game at its
/// size, its players in the core's seat order, bots at the bots' seats; rated when the
/// tournament is and no bot sits there.
fn new_tables(
    state: &AppState,
    row: &TournamentRow,
    formed: &[(u32, usize, Vec<PlayerId>)],
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
    for (round, i, players) in formed {
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
            round: *round,
            table: *i,
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

/// Standings lines a `tournament` message carries at most (an Arena of hundreds: the page
/// reads the rest).
pub const STANDINGS_IN_MESSAGE: usize = 100;

/// Tells the players and the lobby's watchers (the tournament pages) what the committed step
/// changed: a Swiss tells every entrant at every step, an Arena the players just seated (and
/// everyone at the end); a player seated is told by push or mail when away.
async fn publish(
    state: &AppState,
    row: &TournamentRow,
    step: &Stepped,
    tables: &[NewTable],
) -> Result<(), DirectorError> {
    let ids = step.core.players();
    let names = view::names(&state.store, &ids).await?;
    let mut standings = step.core.standings(&names);
    standings.truncate(STANDINGS_IN_MESSAGE);
    let finished = matches!(step.status, Status::Finished | Status::Cancelled);
    let event = match (finished, row.format, tables.is_empty()) {
        (true, ..) => "finished",
        (false, Format::Swiss, false) => "round_started",
        (false, Format::Arena, false) => "seated",
        _ => "standings",
    };
    let msg = |game: Option<String>| {
        ServerMsg::Tournament(Box::new(TournamentMsg {
            tournament: row.id.clone(),
            event,
            status: step.status.as_str(),
            round: step.round,
            game,
            standings: standings.clone(),
        }))
    };
    let everyone = finished || row.format == Format::Swiss;
    for id in ids.iter().filter(|id| !is_bot(id)) {
        let game = tables
            .iter()
            .find(|t| t.seats.contains(&SeatKind::Human(id.clone())))
            .map(|t| t.game.id.clone());
        if let Some(game) = &game {
            // A seat waits for them: by push or mail if they are not on the site.
            state.hub.away(id, game, Kind::TableFull);
        } else if !everyone {
            continue;
        }
        state.hub.to_user(id, &msg(game));
    }
    state.hub.to_lobby(&msg(None));
    Ok(())
}
