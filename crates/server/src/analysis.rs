//! "Analyse": a finished game's analysis (`pyramidion_ai::analysis`, what `pyramidion analyse`
//! prints) queued on the bot pool and stored, for the replay to show each move's points lost.
//!
//! The work is cut into jobs of a few plies each, queued one after the other behind the bot
//! moves of live games, so that an analysis never holds a pool thread for long. The budget is
//! a search level of the game's descriptor (`Config::analysis_level`, `medium` unless
//! `serve --analysis-level` says otherwise) with 16 sampled futures per decision: enough to
//! flag the clear mistakes, cheap enough to share the pool with live games.
use crate::AppState;
use crate::auth::Identity;
use crate::error::{ApiError, ApiResult};
use crate::store::SeatKind;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use pyramidion_ai::analysis::{Analysis, AnalysisConfig, analyse_plies};
use pyramidion_core::record::Record;
use pyramidion_games::GameKind;
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};

/// Plies per bot pool job.
const PLIES_PER_JOB: usize = 8;
/// Sampled futures per decision.
const SAMPLES: u32 = 16;

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
/// its players; answers the stored one if it is done.
pub async fn request(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
) -> ApiResult<(StatusCode, Json<Value>)> {
    let (row, seats) = crate::api::load(&state, &id).await?;
    if !seats
        .iter()
        .any(|s| matches!(s, SeatKind::Human(u) if *u == identity.user_id))
    {
        return Err(ApiError::conflict(
            "not_seated",
            "only the game's players can ask for its analysis",
        ));
    }
    if row.status != "finished" {
        return Err(ApiError::conflict(
            "not_finished",
            "a game is analysed once it is over",
        ));
    }
    let current = stored(&state, &id).await?;
    if current["status"] == "done" {
        return Ok((StatusCode::OK, Json(current)));
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
        let iterations = analysis_iterations(kind, &state.config.analysis_level);
        state.store.set_analysis(&id, "queued", None).await?;
        ApiResult::Ok((record, iterations))
    };
    let (record, iterations) = match prepared.await {
        Ok(prepared) => prepared,
        Err(e) => {
            done_running(&id);
            return Err(e);
        }
    };
    let config = AnalysisConfig {
        iterations,
        samples: SAMPLES,
        seed: row.seed,
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

/// Search iterations per decision of an analysis of a `kind` game: those of `level`, or of
/// the game's weakest search level when it does not list `level`.
fn analysis_iterations(kind: GameKind, level: &str) -> u32 {
    let descriptor = kind.descriptor();
    descriptor
        .bot_level(level)
        .map(|l| l.iterations)
        .filter(|&i| i > 0)
        .or_else(|| {
            descriptor
                .bot_levels
                .iter()
                .map(|l| l.iterations)
                .find(|&i| i > 0)
        })
        .unwrap_or(1)
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
    fn the_analysis_budget_is_the_named_level_or_the_weakest_search() {
        for &kind in GameKind::ALL {
            let d = kind.descriptor();
            let medium = d.bot_level("medium").map(|l| l.iterations);
            let weakest = d.bot_levels.iter().map(|l| l.iterations).find(|&i| i > 0);
            assert_eq!(Some(analysis_iterations(kind, "medium")), medium, "{kind}");
            // Random and greedy do not search; an unknown level is not listed.
            assert_eq!(Some(analysis_iterations(kind, "greedy")), weakest, "{kind}");
            assert_eq!(
                Some(analysis_iterations(kind, "grandmaster")),
                weakest,
                "{kind}"
            );
        }
    }
}
