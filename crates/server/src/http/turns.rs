//! "Your move" and clocks over HTTP: the clock profiles a table may use, and the live games
//! where the signed-in user is to move (docs/protocol.md, "Clocks").
use crate::AppState;
use crate::error::ApiResult;
use crate::http::api::table_json;
use crate::http::auth::Identity;
use crate::wall_clock::now_ms;
use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

/// The clock profiles a table may be created with.
pub async fn clocks(State(state): State<AppState>) -> Json<Value> {
    Json(json!({
        "clocks": state.config.clocks,
        "bot_after": crate::live::clock::TIMEOUTS_TO_BOT,
    }))
}

/// Live games where the signed-in user is to move (and no bot plays their seat), the longest
/// waiting first; each table carries `to_move` and, with a clock, `remaining_ms` (its time
/// left as of this answer).
pub async fn my_turns(
    State(state): State<AppState>,
    identity: Identity,
) -> ApiResult<Json<crate::http::api::GameList>> {
    let now = now_ms();
    let mut list = Vec::new();
    for row in state.store.turns_of_user(&identity.user_id).await? {
        let Some(seat) = row.to_move else { continue };
        let clock = row
            .clock
            .clone()
            .zip(row.clock_state.clone())
            .map(|(profile, state)| crate::live::clock::Clock { profile, state });
        if clock.as_ref().is_some_and(|c| c.bot_plays(seat)) {
            continue;
        }
        // A resigned seat is a bot's until the end.
        if state.store.resignations(&row.id).await?.contains(&seat) {
            continue;
        }
        let seats = state.store.seats(&row.id).await?;
        let mut v = table_json(&state, &row, &seats, Some(&identity.user_id)).await?;
        v["to_move"] = json!(seat);
        v["remaining_ms"] = json!(clock.map(|c| c.remaining(seat, now)));
        list.push(v);
    }
    Ok(Json(crate::http::api::GameList { games: list }))
}
