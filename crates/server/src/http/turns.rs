//! "Your move" and clocks over HTTP: the clock profiles a table may use, and the live games
//! where the signed-in user is to move (docs/protocol.md, "Clocks").
use crate::AppState;
use crate::error::ApiResult;
use crate::http::api::table_of;
use crate::identity::Identity;
use crate::table_view::{GameList, Table};
use axum::Json;
use axum::extract::State;
use serde::Serialize;

/// The clock profiles a table may be created with, and after how many time-outs a bot takes
/// a seat over.
#[derive(Serialize)]
pub struct Clocks {
    pub clocks: Vec<crate::time_control::ClockProfile>,
    pub bot_after: u32,
}

/// `GET /api/clocks`.
pub async fn clocks(State(state): State<AppState>) -> Json<Clocks> {
    Json(Clocks {
        clocks: state.config.clocks.clone(),
        bot_after: crate::live::clock::TIMEOUTS_TO_BOT,
    })
}

/// A table where the signed-in user is to move: the seat, and its time left when the table
/// has a clock (null without).
#[derive(Serialize)]
pub struct TurnEntry {
    #[serde(flatten)]
    pub table: Table,
    pub to_move: u8,
    pub remaining_ms: Option<i64>,
    /// While the user's vacation pauses this game's clock: until when. Such a game is not
    /// waiting for them (the header's count leaves it out and says it apart).
    pub paused_until: Option<i64>,
}

/// Live games where the signed-in user is to move (and no bot plays their seat), the longest
/// waiting first; each table carries `to_move` and, with a clock, `remaining_ms` (its time
/// left as of this answer) and `paused_until` (while a vacation pauses it).
pub async fn my_turns(
    State(state): State<AppState>,
    identity: Identity,
) -> ApiResult<Json<GameList<TurnEntry>>> {
    let now = state.config.room_clock.now_ms();
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
        list.push(TurnEntry {
            table: table_of(&state, &row, &seats, Some(&identity.user_id)).await?,
            to_move: seat,
            paused_until: clock
                .as_ref()
                .and_then(|c| c.vacation_until(seat))
                .filter(|&until| until > now),
            remaining_ms: clock.map(|c| c.remaining(seat, now)),
        });
    }
    Ok(Json(GameList { games: list }))
}
