//! "Analyse": a finished game's analysis (`pyramidion_ai::analysis`, what `pyramidion analyse`
//! prints) queued on the bot pool and stored, for the replay to show each move's points lost.
//!
//! The work is cut into jobs of a few plies each, queued one after the other behind the bot
//! moves of live games, so that an analysis never holds a pool thread for long. The budget
//! per decision is the judge's (4 × the game's `max`), or the operator's budget per game
//! (`serve --analysis-budget`) shared among its decisions where that is less.
//!
//! A game's players may always ask for its analysis; any other signed-in player may ask for
//! the analysis of a finished public (listed) game, up to `serve --analysis-quota` a day (a
//! counter in memory: a restart forgets it, which costs at most one more day's quota).
use crate::AppState;
use crate::auth::Identity;
use crate::error::{ApiError, ApiResult};
use crate::store::SeatKind;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use pyramidion_ai::analysis::{Analysis, AnalysisConfig, analyse_plies, decision_count};
use pyramidion_core::record::Record;
use pyramidion_games::GameKind;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// Plies per bot pool job.
const PLIES_PER_JOB: usize = 8;

/// Analyses asked today by players of games they did not play in: (user, UTC day) → count.
fn asked_today() -> &'static Mutex<std::collections::HashMap<String, (i64, u32)>> {
    static ASKED: OnceLock<Mutex<std::collections::HashMap<String, (i64, u32)>>> = OnceLock::new();
    ASKED.get_or_init(Mutex::default)
}

/// Counts one analysis asked by `user` on `day`; `false` (and nothing counted) when the
/// day's `quota` is spent.
fn take_quota(user: &str, day: i64, quota: u32) -> bool {
    let mut asked = asked_today().lock().unwrap_or_else(|p| p.into_inner());
    let entry = asked.entry(user.to_string()).or_insert((day, 0));
    if entry.0 != day {
        *entry = (day, 0);
    }
    if entry.1 >= quota {
        return false;
    }
    entry.1 += 1;
    true
}

/// Games whose analysis runs in this process (a `queued` row whose game is not here was cut
/// short by a restart: [`resume_queued`] starts it again when the server starts).
fn running() -> &'static Mutex<HashSet<String>> {
    static RUNNING: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    RUNNING.get_or_init(Mutex::default)
}

/// The stored analysis of a game, as the API gives it: `{"status", "analysis"}`; status `none`
/// when nobody asked for one.
pub(crate) async fn stored(state: &AppState, game_id: &str) -> ApiResult<Value> {
    Ok(match state.store.analysis(game_id).await? {
        None => json!({ "status": "none", "analysis": null }),
        Some((status, result)) => json!({
            "status": status,
            "analysis": result.and_then(|r| serde_json::from_str::<Value>(&r).ok()),
        }),
    })
}

/// `GET /api/games/{id}/analysis` (a daily game's only to its player until its day is over,
/// as its replay).
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    crate::api::load(&state, &id).await?;
    let viewer = Identity::from_headers(&state, &headers).await?;
    crate::daily::embargo(&state, &id, viewer.as_ref().map(|v| v.user_id.as_str())).await?;
    Ok(Json(stored(&state, &id).await?))
}

/// `POST /api/games/{id}/analysis`: queues the analysis of a finished game, asked by one of
/// its players, or by any signed-in player when the game is public (within their daily
/// quota); answers the stored one if it is done.
pub async fn request(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let (row, seats) = crate::api::load(&state, &id).await?;
    let seated = seats
        .iter()
        .any(|s| matches!(s, SeatKind::Human(u) if *u == identity.user_id));
    if !seated && (!row.listed || identity.guest) {
        return Err(ApiError::conflict(
            "not_seated",
            "only the game's players, or any signed-in player for a public game, can ask for its analysis",
        ));
    }
    if row.status != "finished" {
        return Err(ApiError::conflict(
            "not_finished",
            "a game is analysed once it is over",
        ));
    }
    crate::daily::embargo(&state, &id, Some(identity.user_id.as_str())).await?;
    let current = stored(&state, &id).await?;
    if current["status"] == "done" || current["status"] == "queued" {
        let code = if current["status"] == "done" {
            StatusCode::OK
        } else {
            StatusCode::ACCEPTED
        };
        // Already asked: nothing to count, and it runs (or a restart starts it again).
        if current["status"] == "queued" {
            start(&state, &row).await?;
        }
        return Ok((code, Json(current)));
    }
    let day = crate::store::now_ms().div_euclid(86_400_000);
    if !seated && !take_quota(&identity.user_id, day, state.config.analysis_daily_quota) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "analysis_quota",
            format!(
                "at most {} analyses a day of games you did not play in",
                state.config.analysis_daily_quota
            ),
        ));
    }
    if !start(&state, &row).await? {
        return Ok((StatusCode::ACCEPTED, Json(current)));
    }
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({ "status": "queued", "analysis": null })),
    ))
}

/// Starts again every analysis a restart cut short (called once the server is up; a game
/// that cannot be read is logged and marked `failed`, so nobody waits on it forever).
pub async fn resume_queued(state: &AppState) -> anyhow::Result<usize> {
    let mut resumed = 0;
    for id in state.store.queued_analyses().await? {
        let started = match crate::api::load(state, &id).await {
            Ok((row, _)) => start(state, &row).await,
            Err(e) => Err(e),
        };
        match started {
            Ok(true) => resumed += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(game = %id, error = ?e, "cannot resume an analysis");
                state.store.set_analysis(&id, "failed", None).await?;
            }
        }
    }
    Ok(resumed)
}

/// Marks the game's analysis `queued` and runs it on the bot pool; `false` if it already
/// runs in this process.
async fn start(state: &AppState, row: &crate::store::GameRow) -> ApiResult<bool> {
    let id = row.id.clone();
    if !running()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(id.clone())
    {
        return Ok(false);
    }
    let prepared = async {
        let record = crate::export::stored_record(state, row).await?;
        let kind: GameKind = row.kind.parse().map_err(ApiError::internal)?;
        let decisions = decision_count(&record).map_err(ApiError::internal)?;
        let config = AnalysisConfig::judge(kind.descriptor(), row.seed)
            .within(state.config.analysis_game_budget, decisions);
        state.store.set_analysis(&id, "queued", None).await?;
        ApiResult::Ok((record, config))
    };
    let (record, config) = match prepared.await {
        Ok(prepared) => prepared,
        Err(e) => {
            done_running(&id);
            return Err(e);
        }
    };
    let store = state.store.clone();
    tokio::spawn(async move {
        let (status, result) = match analyse(record, config).await {
            Ok(analysis) => ("done", serde_json::to_string(&analysis).ok()),
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "analysis failed");
                ("failed", None)
            }
        };
        if let Err(e) = store.set_analysis(&id, status, result).await {
            tracing::error!(game = %id, error = %e, "cannot store an analysis");
        }
        done_running(&id);
    });
    Ok(true)
}

fn done_running(id: &str) {
    running()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .remove(id);
}

/// The whole analysis, one short pool job after the other.
async fn analyse(record: Record, config: AnalysisConfig) -> Result<Analysis, String> {
    let record = std::sync::Arc::new(record);
    let mut decisions = Vec::new();
    let mut seats = 0;
    let mut from = 0;
    while from < record.moves.len() {
        let to = (from + PLIES_PER_JOB).min(record.moves.len());
        let shared = record.clone();
        let (part, n) = crate::bot_pool::global()
            .run(move || analyse_plies(&shared, config, from..to))
            .await
            .ok_or("the analysis stopped (see the log)")?
            .map_err(|e| e.to_string())?;
        decisions.extend(part);
        seats = n;
        from = to;
    }
    Ok(Analysis::from_decisions(&record, config, seats, decisions))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_daily_quota_counts_per_user_and_day() {
        assert!(take_quota("quota-a", 10, 2));
        assert!(take_quota("quota-a", 10, 2));
        assert!(!take_quota("quota-a", 10, 2));
        assert!(take_quota("quota-b", 10, 2), "another user's own quota");
        assert!(take_quota("quota-a", 11, 2), "a new day");
    }
}
