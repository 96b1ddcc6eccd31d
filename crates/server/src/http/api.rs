//! HTTP API: the JSON extractor, the game descriptors and the lobby (tables); accounts are in
//! `accounts.rs`. JSON in and out; every error is
//! `{"error": {"code", "message"}}` with a stable code.
use crate::AppState;
use crate::db::rows::{GameRow, SeatKind};
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::http::coded_field::{coded, read_body};
use crate::identity::Identity;
use crate::live::stored_game::load;
use crate::live::visibility::plausible_id;
use crate::secret::random_hex;
use crate::table_view::{SeatPerson, Table, TableSeat};
use crate::wall_clock::now_ms;
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use pyramidion_ai::level::BotLevel;
use pyramidion_games::AnyGame;
use pyramidion_games::GameKind;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// `Json` whose rejections are API errors (`bad_request`, `payload_too_large`, and a coded
/// field's own code: `crate::http::coded_field`).
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<Value>::from_request(req, state).await {
            Ok(Json(v)) => {
                refuse_nul(&v)?;
                read_body(v, |e| format!("invalid request body: {e}")).map(ApiJson)
            }
            Err(JsonRejection::BytesRejection(e)) => Err(body_error(e)),
            Err(e) => Err(ApiError::bad_request(e.body_text())),
        }
    }
}

/// A body that could not be read: too large (`413`), too slow (`408`), or broken (`400`).
pub fn body_error(e: axum::extract::rejection::BytesRejection) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::new(ApiErrorCode::PayloadTooLarge, "request body too large");
    }
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&e);
    while let Some(c) = cause {
        if c.is::<tower_http::timeout::TimeoutError>() {
            return ApiError::new(
                ApiErrorCode::RequestTimeout,
                "the request body did not arrive in time",
            );
        }
        cause = c.source();
    }
    ApiError::bad_request(e.body_text())
}

/// No text field may hold a NUL character: PostgreSQL cannot store one, and no name, id or
/// move needs it.
fn refuse_nul(v: &Value) -> ApiResult<()> {
    let bad = match v {
        Value::String(s) => s.contains('\0'),
        Value::Array(a) => return a.iter().try_for_each(refuse_nul),
        Value::Object(o) => {
            o.keys().any(|k| k.contains('\0')) || o.values().any(|v| refuse_nul(v).is_err())
        }
        _ => false,
    };
    if bad {
        return Err(ApiError::bad_request(
            "text fields may not contain NUL characters",
        ));
    }
    Ok(())
}

/// The games this server plays: each game's descriptor (key, seats, options, bot levels,
/// error codes, move kinds), in registry order.
#[derive(serde::Serialize)]
pub struct Games {
    pub games: Vec<&'static pyramidion_core::descriptor::GameDescriptor>,
}

/// `GET /api/games`.
pub async fn games() -> Json<Games> {
    Json(Games {
        games: GameKind::descriptors(),
    })
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
    /// Kept for a player the creator follows (a challenge, `crate::social::friends`): they
    /// hear of it, and take it by joining; `403 not_following` for anyone else.
    Friend { user: String },
    /// A level the game lists (`GET /api/games`); another is `unknown_bot_level`.
    Bot {
        #[serde(deserialize_with = "coded")]
        level: BotLevel,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    /// An unknown game is `unknown_game`.
    #[serde(deserialize_with = "coded")]
    game: GameKind,
    #[serde(default)]
    options: Value,
    seats: Vec<SeatSpec>,
    #[serde(default = "yes")]
    listed: bool,
    /// The key of one of the server's clock profiles (`GET /api/clocks`); none: no clock.
    #[serde(default)]
    clock: Option<String>,
    /// A rated table moves its players' ratings when it ends; tables are casual by default.
    #[serde(default)]
    rated: bool,
    /// Only the players the creator follows may take a free seat (`403 friends_only`).
    #[serde(default)]
    friends_only: bool,
    /// Only the members of this club may take a free seat (`403 club_only`; the creator
    /// must be one).
    #[serde(default)]
    club: Option<String>,
}

fn yes() -> bool {
    true
}

/// The table of `row` as `me` sees it.
pub(crate) async fn table_of(
    state: &AppState,
    row: &GameRow,
    seats: &[SeatKind],
    me: Option<&str>,
) -> ApiResult<Table> {
    let mut out = Vec::with_capacity(seats.len());
    for s in seats {
        let person = async |u: &String| -> ApiResult<SeatPerson> {
            let name = state.store.user(u).await?.and_then(|user| user.name);
            Ok(SeatPerson {
                user: u.clone(),
                name: crate::identity::display_name(u, name.as_deref()),
                me: Some(u.as_str()) == me,
            })
        };
        out.push(match s {
            SeatKind::Open => TableSeat::Open,
            SeatKind::Invited => TableSeat::Invited,
            SeatKind::Reserved(u) => TableSeat::Reserved(person(u).await?),
            SeatKind::Bot(level) => TableSeat::Bot { level: *level },
            SeatKind::Human(u) => TableSeat::Human(person(u).await?),
        });
    }
    Ok(Table {
        id: row.id.clone(),
        game: row.kind,
        options: serde_json::from_str::<Value>(&row.options).unwrap_or(Value::Null),
        status: row.status,
        listed: row.listed,
        rated: row.rated,
        clock: row.clock.clone(),
        seats: out,
        created_at: row.created_at,
        result: row
            .result
            .as_deref()
            .and_then(|r| serde_json::from_str::<Value>(r).ok()),
        invite: (me == Some(row.created_by.as_str())).then(|| row.invite.clone()),
        // Said while seats may be taken (one read more per open table only).
        audience: match row.status {
            crate::game_status::GameStatus::Open => state.store.audience(&row.id).await?,
            _ => None,
        },
    })
}

/// A page of open tables: `next` (when there may be more) is the `after` of the next page.
#[derive(serde::Serialize)]
pub struct TablePage {
    pub tables: Vec<Table>,
    pub next: Option<String>,
}

pub async fn create_table(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(t): ApiJson<NewTable>,
) -> ApiResult<Response> {
    let kind = t.game;
    // Counting and creating under one lock: two requests of the same user at once would
    // otherwise both pass the count and go one over the limit.
    let _count_guard = state.lobby_lock.lock().await;
    crate::http::quotas::may_create_table(&state, &identity).await?;
    let mut seed_bytes = [0u8; 8];
    getrandom::fill(&mut seed_bytes).map_err(ApiError::internal)?;
    let seed = u64::from_le_bytes(seed_bytes) >> 1; // stored as a signed 64-bit integer
    let game = AnyGame::new(kind, &t.options, seed).map_err(ApiError::setup)?;
    if t.seats.len() != game.seats() as usize {
        return Err(ApiError::bad_request(format!(
            "this game has {} seats, {} given",
            game.seats(),
            t.seats.len()
        )));
    }
    if t.rated && game.seats() < 2 {
        return Err(ApiError::new(
            ApiErrorCode::SoloNotRated,
            "a solo game cannot be rated: its best scores and the daily challenges rank it",
        ));
    }
    // A rated game without a clock could be stalled for ever by the player who is losing; with
    // one, a player who stops is played by a bot (`clock`, `room::scheduling`) and it ends.
    if t.rated && t.clock.is_none() {
        return Err(ApiError::new(
            ApiErrorCode::RatedNeedsClock,
            "a rated table needs a clock (see GET /api/clocks)",
        ));
    }
    let clock = match &t.clock {
        None => None,
        Some(key) => Some(
            state
                .config
                .clocks
                .iter()
                .find(|p| &p.key == key)
                .cloned()
                .ok_or_else(|| {
                    ApiError::new(
                        ApiErrorCode::UnknownClock,
                        format!("no clock profile '{key}' (see GET /api/clocks)"),
                    )
                })?,
        ),
    };
    let mut seats = Vec::new();
    for s in t.seats {
        seats.push(match s {
            SeatSpec::Me => SeatKind::Human(identity.user_id.clone()),
            SeatSpec::Open => SeatKind::Open,
            SeatSpec::Invite => SeatKind::Invited,
            SeatSpec::Friend { user } => SeatKind::Reserved(
                crate::http::friends::challenged(&state, &identity, &user).await?,
            ),
            SeatSpec::Bot { level } => {
                // Only a level the game lists: a `search:N` budget is a level of the bots,
                // not one a table offers.
                kind.descriptor().bot_level(&level.name()).ok_or_else(|| {
                    let names: Vec<&str> = kind
                        .descriptor()
                        .bot_levels
                        .iter()
                        .map(|l| l.name)
                        .collect();
                    ApiError::new(
                        ApiErrorCode::UnknownBotLevel,
                        format!("unknown bot level '{level}' (levels: {})", names.join(", ")),
                    )
                })?;
                SeatKind::Bot(level)
            }
        });
    }
    if !seats.iter().any(|s| matches!(s, SeatKind::Human(_))) {
        return Err(ApiError::bad_request(
            "the creator must sit at the table (a seat of type \"me\")",
        ));
    }
    let mine = seats
        .iter()
        .filter(|s| matches!(s, SeatKind::Human(_)))
        .count();
    crate::http::quotas::may_take_seats(&state, &identity.user_id, mine).await?;
    // The search bots are counted and the table created under the lobby lock (taken above).
    crate::live::bot_seats::check(&state.live, &identity.user_id, &seats).await?;
    let audience = crate::social::audience::of_new_table(
        &state,
        &identity.user_id,
        t.friends_only,
        t.club.as_deref(),
    )
    .await?;
    let full = !seats.iter().any(SeatKind::is_free);
    if full {
        crate::live::capacity::admit_game(&state.live)?;
    }
    let row = GameRow {
        id: random_hex(8),
        kind,
        options: serde_json::to_string(&t.options).map_err(ApiError::internal)?,
        seed,
        status: if full {
            crate::game_status::GameStatus::Live
        } else {
            crate::game_status::GameStatus::Open
        },
        listed: t.listed,
        invite: random_hex(12),
        clock,
        clock_state: None,
        to_move: None,
        created_by: identity.user_id.clone(),
        result: None,
        created_at: now_ms(),
        rated: t.rated,
        finished_at: None,
    };
    if let Some(audience) = &audience {
        state.store.set_audience(&row.id, audience).await?;
    }
    state.store.create_game(&row, &seats).await?;
    tracing::info!(game = %row.id, kind = %row.kind, status = %row.status, "table created");
    crate::http::friends::announce(&state, &row, &seats, &identity.display_name());
    if full {
        // Solo games and bot tables start at once.
        state.rooms.get(&state.live, &row.id).await?;
    } else {
        tell_lobby(&state, &row, &seats).await?;
    }
    Ok((
        StatusCode::CREATED,
        Json(table_of(&state, &row, &seats, Some(&identity.user_id)).await?),
    )
        .into_response())
}

/// Open, listed tables waiting for players.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Page {
    #[serde(default)]
    limit: Option<usize>,
    /// The `next` of the previous page.
    #[serde(default)]
    after: Option<String>,
}

/// Open, listed tables waiting for players, oldest first, one page at a time: `next` (when
/// there may be more) is the `after` of the next page.
pub async fn open_tables(
    State(state): State<AppState>,
    Query(page): Query<Page>,
    headers: HeaderMap,
) -> ApiResult<Json<TablePage>> {
    // Friends-only and club tables are listed to those who may sit there only.
    let viewer = Identity::from_headers(&state, &headers).await?;
    let viewer = viewer.as_ref().map(|v| v.user_id.as_str());
    let default = state.config.limits.lobby_page.max(1);
    let limit = page.limit.unwrap_or(default).clamp(1, 4 * default);
    let after = match page.after.as_deref() {
        None => None,
        Some(cursor) => {
            let bad = || ApiError::bad_request("`after` is the `next` of a previous page");
            let (at, id) = cursor.split_once('-').ok_or_else(bad)?;
            if !plausible_id(id) {
                return Err(bad());
            }
            Some((at.parse::<i64>().map_err(|_| bad())?, id.to_string()))
        }
    };
    let rows = state.store.open_tables_page(limit, after).await?;
    let next = (rows.len() == limit)
        .then(|| rows.last().map(|r| format!("{}-{}", r.created_at, r.id)))
        .flatten();
    let mut list = Vec::with_capacity(rows.len());
    for row in rows {
        if !crate::social::audience::visible_to(&state, &row, viewer).await? {
            continue;
        }
        let seats = state.store.seats(&row.id).await?;
        list.push(table_of(&state, &row, &seats, None).await?);
    }
    Ok(Json(TablePage { tables: list, next }))
}

pub async fn table(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Table>> {
    let me = Identity::from_headers(&state, &headers).await?;
    let (row, seats) = load(&state.live, &id).await?;
    Ok(Json(
        table_of(
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
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> ApiResult<Json<Table>> {
    let body = body.map_err(body_error)?;
    // The body is optional: `{"invite": "…"}` to use an invite link.
    let request: JoinRequest = if body.iter().all(u8::is_ascii_whitespace) {
        JoinRequest::default()
    } else {
        let v: Value = serde_json::from_slice(&body)
            .map_err(|e| ApiError::bad_request(format!("malformed JSON: {e}")))?;
        refuse_nul(&v)?;
        serde_json::from_value(v)
            .map_err(|e| ApiError::bad_request(format!("malformed JSON: {e}")))?
    };
    let _guard = state.lobby_lock.lock().await;
    let (row, mut seats) = load(&state.live, &id).await?;
    let invite = request.invite;
    let invited = invite.as_deref() == Some(row.invite.as_str());
    if invite.is_some() && !invited {
        return Err(ApiError::new(
            ApiErrorCode::BadInvite,
            "that invite link is not valid for this table",
        ));
    }
    if row.status != crate::game_status::GameStatus::Open {
        return Err(ApiError::conflict(
            ApiErrorCode::TableStarted,
            "this table has already started",
        ));
    }
    let reserved = seats
        .iter()
        .position(|s| matches!(s, SeatKind::Reserved(u) if *u == identity.user_id));
    if !row.listed && !invited && reserved.is_none() {
        return Err(ApiError::not_found("no such table"));
    }
    if reserved.is_none() {
        crate::social::audience::may_join(&state, &row, &identity.user_id).await?;
    }
    // One seat per joining user, invite or not: one invite link never fills every seat.
    if seats
        .iter()
        .any(|s| matches!(s, SeatKind::Human(u) if *u == identity.user_id))
    {
        return Err(ApiError::conflict(
            ApiErrorCode::AlreadySeated,
            "you already sit at this table",
        ));
    }
    crate::http::quotas::may_take_seats(&state, &identity.user_id, 1).await?;
    if seats.iter().filter(|s| s.is_free()).count() == 1 {
        // This seat fills the table: its game would start.
        crate::live::capacity::admit_game(&state.live)?;
    }
    // The seat kept for this user first; a seat kept for someone else is never taken.
    let seat = reserved
        .or_else(|| {
            seats
                .iter()
                .position(|s| matches!(s, SeatKind::Invited) && invited)
        })
        .or_else(|| seats.iter().position(|s| matches!(s, SeatKind::Open)))
        .ok_or_else(|| ApiError::conflict(ApiErrorCode::TableFull, "no free seat at this table"))?;
    seats[seat] = SeatKind::Human(identity.user_id.clone());
    state.store.set_seat(&id, seat, &seats[seat]).await?;
    let full = !seats.iter().any(SeatKind::is_free);
    let mut row = row;
    if full {
        state
            .store
            .set_status(&id, crate::game_status::GameStatus::Live, None)
            .await?;
        tracing::info!(game = %id, "table full: game started");
        row.status = crate::game_status::GameStatus::Live;
        state.rooms.get(&state.live, &id).await?;
    }
    tell_lobby(&state, &row, &seats).await?;
    if full {
        // The players who were waiting and went away hear that their game started.
        for seat in &seats {
            if let SeatKind::Human(user) = seat
                && *user != identity.user_id
            {
                state.hub.away(user, &id, crate::reach::Kind::TableFull);
            }
        }
    }
    Ok(Json(
        table_of(&state, &row, &seats, Some(&identity.user_id)).await?,
    ))
}

pub async fn leave(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
) -> ApiResult<Json<Table>> {
    let _guard = state.lobby_lock.lock().await;
    let (row, mut seats) = load(&state.live, &id).await?;
    if row.status != crate::game_status::GameStatus::Open {
        return Err(ApiError::conflict(
            ApiErrorCode::TableStarted,
            "the game has started: it is played to the end",
        ));
    }
    let Some(seat) = seats
        .iter()
        .position(|s| matches!(s, SeatKind::Human(u) if *u == identity.user_id))
    else {
        return Err(ApiError::conflict(
            ApiErrorCode::NotSeated,
            "you do not sit at this table",
        ));
    };
    seats[seat] = SeatKind::Open;
    state.store.set_seat(&id, seat, &seats[seat]).await?;
    let mut row = row;
    if !seats.iter().any(|s| matches!(s, SeatKind::Human(_))) {
        state
            .store
            .set_status(&id, crate::game_status::GameStatus::Abandoned, None)
            .await?;
        row.status = crate::game_status::GameStatus::Abandoned;
    }
    tell_lobby(&state, &row, &seats).await?;
    Ok(Json(
        table_of(&state, &row, &seats, Some(&identity.user_id)).await?,
    ))
}

/// Tells the lobby's watchers that a listed table was created or changed (as anyone sees it:
/// never its invite).
/// The players seated there hear of it too (listed or not): their waiting page follows.
async fn tell_lobby(state: &AppState, row: &GameRow, seats: &[SeatKind]) -> ApiResult<()> {
    let table = Box::new(table_of(state, row, seats, None).await?);
    let msg = crate::live::protocol::ServerMsg::Table { table };
    let mut told: Vec<&str> = Vec::new();
    for seat in seats {
        if let SeatKind::Human(user) = seat
            && !told.contains(&user.as_str())
        {
            told.push(user);
            state.hub.to_user(user, &msg);
        }
    }
    if !row.listed {
        return Ok(());
    }
    // A friends-only or club table reaches only the connections of those who may sit there
    // (their lobby shows it; another page ignores it), never the lobby of everyone.
    match state.store.audience(&row.id).await? {
        None => state.hub.to_lobby(&msg),
        Some(audience) => {
            for user in crate::social::audience::members(state, &audience, &row.created_by).await? {
                if !told.contains(&user.as_str()) {
                    state.hub.to_user(&user, &msg);
                }
            }
        }
    }
    Ok(())
}
