//! The next step of an Arena, from what is stored and the time: entrants synced in (late
//! entries, withdrawals, returns), every finished game recorded (placement points, the
//! streak bonus), the free players seated again (`Arena::pair`), and the end once its time
//! is up and its last tables are over. Pure like `swiss_step`: the director commits what it
//! returns. No bots in an Arena: whoever is free plays whoever else is.
use super::row::{Status, TournamentRow};
use super::swiss_step::{Entrant, TableGame, table_result};
use pyramidion_tournament::{
    Arena, ArenaConfig, ArenaState, PlayerId, TableFormat, TournamentError,
};

/// How long a free player waits for the best table before a short table or the very same
/// table again (docs/tournaments.md, "Who sits down, with whom").
pub const PATIENCE_MS: u64 = 20_000;

#[derive(Debug)]
pub struct ArenaStep {
    pub arena: Arena,
    pub status: Status,
    /// The tables formed (indices into `arena.tables`).
    pub formed: Vec<usize>,
    pub no_shows: Vec<String>,
}

pub fn new_arena(row: &TournamentRow) -> Result<Arena, TournamentError> {
    Arena::new(ArenaConfig {
        format: TableFormat::new(row.seats, row.short_tables)?,
        starts_at: row.starts_at.max(0) as u64,
        duration: row.duration_ms.unwrap_or(0).max(0) as u64,
        patience: PATIENCE_MS,
        seed: row.seed,
    })
}

/// The next step at `now` (ms), or none when nothing is to change.
pub fn step(
    row: &TournamentRow,
    entrants: &[Entrant],
    games: &[TableGame],
    now: i64,
) -> Result<Option<ArenaStep>, TournamentError> {
    let now = now.max(0) as u64;
    let (mut arena, mut changed) = match (row.status, &row.state) {
        (Status::Open, _) => (new_arena(row)?, true),
        (Status::Running, Some(state)) => (
            serde_json::from_str(state).map_err(|_| TournamentError::NoRounds)?,
            false,
        ),
        _ => return Ok(None),
    };
    let running = arena.is_running(now);
    for e in entrants {
        let id = PlayerId::new(e.user.clone());
        let known = arena
            .players
            .iter()
            .find(|p| p.id == id)
            .map(|p| (p.state == ArenaState::Away, p.leaving));
        match (known, e.withdrawn) {
            // New, back after leaving, or no longer leaving after their table.
            (None, false) | (Some((true, _)), false) | (Some((false, true)), false) if running => {
                arena.join(id, now)?;
                changed = true;
            }
            (Some((false, false)), true) => {
                arena.leave(&id)?;
                changed = true;
            }
            _ => {}
        }
    }
    let mut no_shows = Vec::new();
    for g in games {
        let Some(result) = &g.result else { continue };
        let Some(table) = arena.tables.get(g.table) else {
            continue;
        };
        if table.result.is_some() {
            continue;
        }
        let players = table.players.clone();
        arena.record(g.table, table_result(result, players.len()), now)?;
        changed = true;
        for seat in crate::db::stored_result::stored_seats(result, "absent") {
            if let Some(p) = players.get(usize::from(seat)) {
                arena.leave(p)?;
                no_shows.push(p.0.clone());
            }
        }
    }
    let formed = if arena.is_running(now) {
        arena.pair(now)?
    } else {
        Vec::new()
    };
    let open_tables = arena.tables.iter().any(|t| t.result.is_none());
    let status = if now >= arena.ends_at() && !open_tables {
        Status::Finished
    } else {
        Status::Running
    };
    changed |= !formed.is_empty() || status != row.status;
    Ok(changed.then_some(ArenaStep {
        arena,
        status,
        formed,
        no_shows,
    }))
}
