//! A Swiss round cannot wait for ever (issue 49): a round of games without a clock (turn-based
//! with no time-outs: nothing else ever ends a game nobody plays) has a deadline, the
//! tournament's `round_days` (chosen at creation within `super::row::ROUND_DAYS`, by default
//! `super::row::DEFAULT_ROUND_DAYS`) after it was paired. At the deadline every game of the round still
//! under way is adjudicated (`crate::live::endings::Action::Adjudicate`): it ends at once, the
//! seat to move (the one holding the game up) ranked last and every other seat sharing the
//! first rank, as a time-out would rank it; the round then ends as any other and the next one
//! is paired. Rounds with a clock need no deadline: its time-out policy ends their games
//! (a bot plays an absent seat out). See docs/tournaments.md, "Round deadlines".
use super::row::{Format, Status, TournamentRow};
use super::store;
use crate::AppState;
use crate::live::endings::Action;
use crate::live::room_cmd::RoomCmd;

const DAY_MS: i64 = 24 * 3600 * 1000;

/// Whether `row`'s rounds have a deadline: a clockless Swiss.
pub fn has_round_deadline(row: &TournamentRow) -> bool {
    row.format == Format::Swiss && row.clock.is_none()
}

/// When the current round of `row` must be over (ms since the epoch), if it has a deadline:
/// a running clockless Swiss whose round `round` started at `started_at`.
pub fn round_deadline(row: &TournamentRow, started_at: i64) -> Option<i64> {
    has_round_deadline(row).then_some(started_at + i64::from(row.round_days) * DAY_MS)
}

/// Adjudicates the unfinished games of the round of `row` whose deadline passed by `now`;
/// how many ended. Called by the director holding the tournament's lease, before it steps:
/// the step then records the results.
pub async fn adjudicate_due(
    state: &AppState,
    row: &TournamentRow,
    now: i64,
) -> Result<usize, crate::db::error::StoreError> {
    if row.status != Status::Running {
        return Ok(0);
    }
    let starts = store::round_starts(&state.store, &row.id).await?;
    let Some(&(round, started_at, None)) = starts.last() else {
        return Ok(0);
    };
    if round_deadline(row, started_at).is_none_or(|at| at > now) {
        return Ok(0);
    }
    let mut ended = 0;
    for table in store::tables(&state.store, &row.id).await? {
        if table.round != round || table.result.is_some() {
            continue;
        }
        let room = match state.rooms.get(&state.live, &table.game).await {
            Ok(Some(room)) => room,
            Ok(None) => continue,
            Err(e) => {
                tracing::warn!(game = %table.game, error = %e, "cannot open a game to adjudicate");
                continue;
            }
        };
        let (reply, answer) = tokio::sync::oneshot::channel();
        let cmd = RoomCmd::Act {
            user: None,
            action: Action::Adjudicate,
            reply,
        };
        if room.tx.send(cmd).await.is_ok() && matches!(answer.await, Ok(Ok(_))) {
            ended += 1;
            tracing::info!(tournament = %row.id, game = %table.game, round, "game adjudicated at the round's deadline");
        }
    }
    Ok(ended)
}
