//! HTTP API: identity, lobby (tables), history and records. JSON in and out; every error is
//! `{"error": {"code", "message"}}` with a stable code.
use crate::AppState;
use crate::auth::{
    Identity, clear_cookie, hash_password, random_hex, start_session, verify_password,
};
use crate::error::{ApiError, ApiResult};
use crate::store::{GameRow, SeatKind, now_ms};
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use pyramidion_ai::any::{BotLevel, UnknownLevel};
use pyramidion_core::GameKind;
use pyramidion_games::AnyGame;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// `Json` whose rejections are API errors (`bad_request`, `payload_too_large`).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(ApiJson(v)),
            Err(JsonRejection::BytesRejection(e))
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE =>
            {
                Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "payload_too_large",
                    "request body too large",
                ))
            }
            Err(e) => Err(ApiError::bad_request(e.body_text())),
        }
    }
}

fn with_cookie(cookie: String, body: Value) -> Response {
    ([(header::SET_COOKIE, cookie)], Json(body)).into_response()
}

fn identity_json(id: &str, name: &str, guest: bool) -> Value {
    json!({ "id": id, "name": name, "guest": guest })
}

/// Who am I? Creates a guest identity (and its session cookie) on the first visit.
pub async fn me(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    if let Some(id) = Identity::from_headers(&state, &headers).await? {
        return Ok(Json(identity_json(&id.user_id, &id.display_name(), id.guest)).into_response());
    }
    let user_id = random_hex(12);
    state.store.create_user(&user_id, None, None, true).await?;
    let cookie = start_session(&state, &user_id).await?;
    let guest = Identity {
        user_id: user_id.clone(),
        name: None,
        guest: true,
    };
    Ok(with_cookie(
        cookie,
        identity_json(&user_id, &guest.display_name(), true),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

fn check_credentials(c: &Credentials) -> ApiResult<()> {
    let name_ok = (3..=24).contains(&c.name.chars().count())
        && c.name
            .chars()
            .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '-');
    if !name_ok {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_name",
            "names have 3–24 letters, digits, _ or -",
        ));
    }
    if !(8..=128).contains(&c.password.chars().count()) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad_password",
            "passwords have 8–128 characters",
        ));
    }
    Ok(())
}

/// Creates an account; a guest who registers keeps its identity and games.
pub async fn register(
    State(state): State<AppState>,
    headers: HeaderMap,
    ApiJson(c): ApiJson<Credentials>,
) -> ApiResult<Response> {
    check_credentials(&c)?;
    let cost = state.config.hash_cost;
    let password = c.password.clone();
    let hash = tokio::task::spawn_blocking(move || hash_password(&password, cost))
        .await
        .map_err(ApiError::internal)?;
    let taken = || ApiError::conflict("name_taken", "that name is taken");
    if let Some(id) = Identity::from_headers(&state, &headers).await?
        && id.guest
    {
        if !state
            .store
            .upgrade_guest(&id.user_id, &c.name, &hash)
            .await?
        {
            return Err(taken());
        }
        return Ok(Json(identity_json(&id.user_id, &c.name, false)).into_response());
    }
    if state.store.user_by_name(&c.name).await?.is_some() {
        return Err(taken());
    }
    let user_id = random_hex(12);
    state
        .store
        .create_user(&user_id, Some(&c.name), Some(&hash), false)
        .await
        .map_err(|_| taken())?;
    let cookie = start_session(&state, &user_id).await?;
    Ok(with_cookie(cookie, identity_json(&user_id, &c.name, false)))
}

pub async fn login(
    State(state): State<AppState>,
    ApiJson(c): ApiJson<Credentials>,
) -> ApiResult<Response> {
    let wrong = || ApiError::unauthorized("wrong name or password");
    let Some((user_id, Some(hash), false)) = state.store.user_by_name(&c.name).await? else {
        return Err(wrong());
    };
    let password = c.password.clone();
    let ok = tokio::task::spawn_blocking(move || verify_password(&password, &hash))
        .await
        .map_err(ApiError::internal)?;
    if !ok {
        return Err(wrong());
    }
    let cookie = start_session(&state, &user_id).await?;
    Ok(with_cookie(cookie, identity_json(&user_id, &c.name, false)))
}

pub async fn logout(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    if let Some(token) = crate::auth::cookie_token(&headers) {
        state
            .store
            .delete_session(&crate::auth::token_hash(&token))
            .await?;
    }
    Ok(with_cookie(clear_cookie(), json!({ "ok": true })))
}

/// The games this server plays.
pub async fn games() -> Json<Value> {
    let list: Vec<Value> = pyramidion_games::registered()
        .into_iter()
        .map(|k| json!({ "key": k.key() }))
        .collect();
    Json(json!({ "games": list, "bots": BotLevel::names() }))
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum SeatSpec {
    /// The creator sits here.
    Me,
    /// Anyone may join (with the invite link if the table is unlisted).
    Open,
    /// Kept for someone with the invite link.
    Invite,
    Bot {
        level: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    game: String,
    #[serde(default)]
    options: Value,
    seats: Vec<SeatSpec>,
    #[serde(default = "yes")]
    listed: bool,
    /// Seconds per move (0: no clock); on timeout a bot plays that move.
    #[serde(default)]
    move_seconds: u32,
}

fn yes() -> bool {
    true
}

/// A table as clients see it, with the display name of every seated human.
async fn table_json(
    state: &AppState,
    row: &GameRow,
    seats: &[SeatKind],
    me: Option<&str>,
) -> ApiResult<Value> {
    let mut out = Vec::with_capacity(seats.len());
    for s in seats {
        out.push(match s {
            SeatKind::Open => json!({ "type": "open" }),
            SeatKind::Invited => json!({ "type": "invite" }),
            SeatKind::Bot(level) => json!({ "type": "bot", "level": level }),
            SeatKind::Human(u) => {
                let name = state.store.user(u).await?.and_then(|(name, _)| name);
                json!({
                    "type": "human",
                    "user": u,
                    "name": crate::auth::display_name(u, name.as_deref()),
                    "me": Some(u.as_str()) == me,
                })
            }
        });
    }
    let seats = out;
    let mut v = json!({
        "id": row.id,
        "game": row.kind,
        "options": serde_json::from_str::<Value>(&row.options).unwrap_or(Value::Null),
        "status": row.status,
        "listed": row.listed,
        "move_seconds": row.move_seconds,
        "seats": seats,
        "created_at": row.created_at,
        "result": row.result.as_deref().and_then(|r| serde_json::from_str::<Value>(r).ok()),
    });
    // Only the creator is shown the invite token (they share the link).
    if me == Some(row.created_by.as_str()) {
        v["invite"] = json!(row.invite);
    }
    Ok(v)
}

pub async fn create_table(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(t): ApiJson<NewTable>,
) -> ApiResult<Response> {
    let kind: GameKind = t
        .game
        .parse()
        .map_err(|e: pyramidion_core::kind::UnknownGame| {
            ApiError::new(StatusCode::BAD_REQUEST, "unknown_game", e.to_string())
        })?;
    let mut seed_bytes = [0u8; 8];
    getrandom::fill(&mut seed_bytes).map_err(ApiError::internal)?;
    let seed = u64::from_le_bytes(seed_bytes) >> 1; // stored as a signed 64-bit integer
    let game = AnyGame::new(kind, &t.options, seed)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.code, e.message))?;
    if t.seats.len() != game.seats() as usize {
        return Err(ApiError::bad_request(format!(
            "this game has {} seats, {} given",
            game.seats(),
            t.seats.len()
        )));
    }
    if t.move_seconds > 3600 {
        return Err(ApiError::bad_request("move_seconds is at most 3600"));
    }
    let mut seats = Vec::new();
    for s in t.seats {
        seats.push(match s {
            SeatSpec::Me => SeatKind::Human(identity.user_id.clone()),
            SeatSpec::Open => SeatKind::Open,
            SeatSpec::Invite => SeatKind::Invited,
            SeatSpec::Bot { level } => {
                let level: BotLevel = level
                    .parse()
                    .map_err(|e: UnknownLevel| ApiError::bad_request(e.to_string()))?;
                SeatKind::Bot(level.name().to_string())
            }
        });
    }
    if !seats.iter().any(|s| matches!(s, SeatKind::Human(_))) {
        return Err(ApiError::bad_request(
            "the creator must sit at the table (a seat of type \"me\")",
        ));
    }
    let full = !seats
        .iter()
        .any(|s| matches!(s, SeatKind::Open | SeatKind::Invited));
    let row = GameRow {
        id: random_hex(8),
        kind: kind.key().to_string(),
        options: serde_json::to_string(&t.options).map_err(ApiError::internal)?,
        seed,
        status: if full { "live" } else { "open" }.to_string(),
        listed: t.listed,
        invite: random_hex(12),
        move_seconds: t.move_seconds,
        created_by: identity.user_id.clone(),
        result: None,
        created_at: now_ms(),
    };
    state.store.create_game(&row, &seats).await?;
    tracing::info!(game = %row.id, kind = %row.kind, status = %row.status, "table created");
    if full {
        // Solo games and bot tables start at once.
        state.rooms.get(&state, &row.id).await?;
    }
    Ok((
        StatusCode::CREATED,
        Json(table_json(&state, &row, &seats, Some(&identity.user_id)).await?),
    )
        .into_response())
}

/// Open, listed tables waiting for players.
pub async fn open_tables(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let mut list = Vec::new();
    for row in state.store.games_with_status("open").await? {
        if row.listed {
            let seats = state.store.seats(&row.id).await?;
            list.push(table_json(&state, &row, &seats, None).await?);
        }
    }
    Ok(Json(json!({ "tables": list })))
}

async fn load(state: &AppState, id: &str) -> ApiResult<(GameRow, Vec<SeatKind>)> {
    if id.len() > 64 {
        return Err(ApiError::not_found("no such table"));
    }
    let row = state
        .store
        .game(id)
        .await?
        .ok_or_else(|| ApiError::not_found("no such table"))?;
    let seats = state.store.seats(id).await?;
    Ok((row, seats))
}

pub async fn table(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let me = Identity::from_headers(&state, &headers).await?;
    let (row, seats) = load(&state, &id).await?;
    Ok(Json(
        table_json(
            &state,
            &row,
            &seats,
            me.as_ref().map(|i| i.user_id.as_str()),
        )
        .await?,
    ))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    #[serde(default)]
    invite: Option<String>,
}

pub async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
    body: axum::body::Bytes,
) -> ApiResult<Json<Value>> {
    // The body is optional: `{"invite": "…"}` to use an invite link.
    let request: JoinRequest = if body.iter().all(u8::is_ascii_whitespace) {
        JoinRequest::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::bad_request(format!("malformed JSON: {e}")))?
    };
    let _guard = state.lobby_lock.lock().await;
    let (row, mut seats) = load(&state, &id).await?;
    let invite = request.invite;
    let invited = invite.as_deref() == Some(row.invite.as_str());
    if invite.is_some() && !invited {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "bad_invite",
            "that invite link is not valid for this table",
        ));
    }
    if row.status != "open" {
        return Err(ApiError::conflict(
            "table_started",
            "this table has already started",
        ));
    }
    if !row.listed && !invited {
        return Err(ApiError::not_found("no such table"));
    }
    if seats
        .iter()
        .any(|s| matches!(s, SeatKind::Human(u) if *u == identity.user_id))
        && !invited
    {
        return Err(ApiError::conflict(
            "already_seated",
            "you already sit at this table",
        ));
    }
    let seat = seats
        .iter()
        .position(|s| matches!(s, SeatKind::Invited) && invited)
        .or_else(|| seats.iter().position(|s| matches!(s, SeatKind::Open)))
        .ok_or_else(|| ApiError::conflict("table_full", "no free seat at this table"))?;
    seats[seat] = SeatKind::Human(identity.user_id.clone());
    state.store.set_seat(&id, seat, &seats[seat]).await?;
    let full = !seats
        .iter()
        .any(|s| matches!(s, SeatKind::Open | SeatKind::Invited));
    let mut row = row;
    if full {
        state.store.set_status(&id, "live", None).await?;
        tracing::info!(game = %id, "table full: game started");
        row.status = "live".into();
        state.rooms.get(&state, &id).await?;
    }
    Ok(Json(
        table_json(&state, &row, &seats, Some(&identity.user_id)).await?,
    ))
}

pub async fn leave(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
) -> ApiResult<Json<Value>> {
    let _guard = state.lobby_lock.lock().await;
    let (row, mut seats) = load(&state, &id).await?;
    if row.status != "open" {
        return Err(ApiError::conflict(
            "table_started",
            "the game has started: it is played to the end",
        ));
    }
    let Some(seat) = seats
        .iter()
        .position(|s| matches!(s, SeatKind::Human(u) if *u == identity.user_id))
    else {
        return Err(ApiError::conflict(
            "not_seated",
            "you do not sit at this table",
        ));
    };
    seats[seat] = SeatKind::Open;
    state.store.set_seat(&id, seat, &seats[seat]).await?;
    if !seats.iter().any(|s| matches!(s, SeatKind::Human(_))) {
        state.store.set_status(&id, "abandoned", None).await?;
    }
    Ok(Json(
        table_json(&state, &row, &seats, Some(&identity.user_id)).await?,
    ))
}

/// The signed-in user's games, newest first.
pub async fn my_games(State(state): State<AppState>, identity: Identity) -> ApiResult<Json<Value>> {
    let mut list = Vec::new();
    for row in state.store.games_of_user(&identity.user_id).await? {
        let seats = state.store.seats(&row.id).await?;
        list.push(table_json(&state, &row, &seats, Some(&identity.user_id)).await?);
    }
    Ok(Json(json!({ "games": list })))
}

#[derive(Deserialize)]
pub struct RecordQuery {
    #[serde(default)]
    format: Option<String>,
}

/// A game's record. The seed is only given once the game is over.
pub async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<RecordQuery>,
) -> ApiResult<Response> {
    let (row, _) = load(&state, &id).await?;
    if row.status == "open" || row.status == "abandoned" {
        return Err(ApiError::conflict(
            "not_started",
            "this game has not started",
        ));
    }
    let moves = state.store.moves(&id).await?;
    let finished = row.status == "finished";
    let result: Option<Value> = row
        .result
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok());
    let scores = result
        .as_ref()
        .and_then(|r| serde_json::from_value::<Vec<i32>>(r["scores"].clone()).ok());
    match q.format.as_deref() {
        Some("text") if finished => {
            let record = pyramidion_core::record::Record {
                game: row.kind.parse().map_err(ApiError::internal)?,
                options: serde_json::from_str(&row.options).map_err(ApiError::internal)?,
                seed: row.seed,
                result: scores,
                moves,
                move_lines: Vec::new(),
            };
            Ok((
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                record.to_text(),
            )
                .into_response())
        }
        Some("text") => Err(ApiError::conflict(
            "not_finished",
            "the text record (with its seed) is given once the game is over",
        )),
        Some(other) if other != "json" => Err(ApiError::bad_request("format is json or text")),
        _ => {
            let mut v = json!({
                "game": row.kind,
                "options": serde_json::from_str::<Value>(&row.options).unwrap_or(Value::Null),
                "moves": moves,
            });
            if finished {
                v["seed"] = json!(row.seed);
                if let Some(s) = scores {
                    v["result"] = json!(s);
                }
            }
            Ok(Json(v).into_response())
        }
    }
}
