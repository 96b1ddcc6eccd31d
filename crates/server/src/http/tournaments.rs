//! Tournaments over HTTP (issue 49 item 1; `crate::tournament` runs them): create (an
//! account), list, read one (standings, rounds, tables, podium), enter and withdraw (guests
//! may enter open ones). Live changes reach the players and the tournament pages as
//! `tournament` messages on the socket (`crate::tournament::director`), not by polling.
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::http::api::ApiJson;
use crate::identity::Identity;
use crate::secret::random_hex;
use crate::tournament::entry::{self, Entry};
use crate::tournament::row::{Format, Status, TournamentRow};
use crate::tournament::{store, view};
use crate::wall_clock::now_ms;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use pyramidion_games::{AnyGame, GameKind};
use serde::Deserialize;
use serde_json::{Value, json};

/// Tournaments listed at most.
pub const LIST: usize = 100;
/// The longest name of a tournament, in characters.
pub const NAME_MAX: usize = 60;
/// Rounds of a Swiss at most.
pub const ROUNDS_MAX: u32 = 15;
/// The longest Arena, in minutes.
pub const ARENA_MAX_MIN: u32 = 240;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    name: String,
    #[serde(deserialize_with = "crate::http::coded_field::coded")]
    game: GameKind,
    /// The game's options but `players` (the table size sets it).
    #[serde(default)]
    options: Option<Value>,
    /// `swiss` (with `rounds`) or `arena` (with `duration_min`).
    format: String,
    seats: u8,
    #[serde(default)]
    short_tables: bool,
    /// A clock profile key; none: turn-based games.
    #[serde(default)]
    clock: Option<String>,
    #[serde(default)]
    rated: bool,
    /// When the first round is paired (ms since the epoch); none: in `starts_in_s`.
    #[serde(default)]
    starts_at: Option<i64>,
    #[serde(default)]
    starts_in_s: Option<i64>,
    #[serde(default)]
    rounds: Option<u32>,
    /// An Arena's length in minutes.
    #[serde(default)]
    duration_min: Option<u32>,
    #[serde(default)]
    min_rating: Option<i64>,
    #[serde(default)]
    max_rating: Option<i64>,
    /// `open` (the default), `invite`, or `club` (with `club`: its members only).
    #[serde(default)]
    entry: Option<String>,
    /// The club of a `club` tournament; its creator must be a member.
    #[serde(default)]
    club: Option<String>,
    /// The level of the bots that fill tables (one the game lists); none: no bots.
    #[serde(default)]
    bots: Option<String>,
    /// Whether the creator enters too (the default).
    #[serde(default)]
    enter: Option<bool>,
    /// A Swiss without a clock: how many days a round may last before its unfinished games
    /// are adjudicated (`crate::tournament::deadline`; 7 by default).
    #[serde(default)]
    round_days: Option<u32>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    #[serde(default)]
    invite: Option<String>,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::bad_request(message)
}

/// `POST /api/tournaments`: an account creates a tournament.
pub async fn create(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(t): ApiJson<NewTournament>,
) -> ApiResult<(StatusCode, Json<view::TournamentView>)> {
    if identity.guest {
        return Err(ApiError::new(
            ApiErrorCode::AccountRequired,
            "creating a tournament is for accounts: sign in first",
        ));
    }
    let name = t.name.trim().to_string();
    if name.is_empty() || name.chars().count() > NAME_MAX || name.chars().any(char::is_control) {
        return Err(bad(format!(
            "a tournament's name is 1 to {NAME_MAX} characters"
        )));
    }
    let (format, rounds, duration_ms) = match (t.format.as_str(), t.rounds, t.duration_min) {
        ("swiss", Some(r), None) if (1..=ROUNDS_MAX).contains(&r) => (Format::Swiss, Some(r), None),
        ("arena", None, Some(m)) if (1..=ARENA_MAX_MIN).contains(&m) => {
            (Format::Arena, None, Some(i64::from(m) * 60_000))
        }
        _ => {
            return Err(bad(format!(
                "format: swiss with rounds (1 to {ROUNDS_MAX}), or arena with duration_min (1 to {ARENA_MAX_MIN})"
            )));
        }
    };
    let round_days = match t.round_days {
        None => crate::tournament::row::DEFAULT_ROUND_DAYS,
        Some(_) if format != Format::Swiss || t.clock.is_some() => {
            return Err(bad(
                "round_days: for a Swiss without a clock (a clock's time-outs end the other rounds)",
            ));
        }
        Some(d) if crate::tournament::row::ROUND_DAYS.contains(&d) => d,
        Some(d) => {
            let days = crate::tournament::row::ROUND_DAYS;
            return Err(bad(format!(
                "round_days: {} to {} days, not {d}",
                days.start(),
                days.end()
            )));
        }
    };
    if format == Format::Arena && t.bots.is_some() {
        return Err(bad(
            "bots: an Arena seats whoever is free, bots fill Swiss tables only",
        ));
    }
    pyramidion_tournament::TableFormat::new(t.seats, t.short_tables)
        .map_err(|e| bad(format!("seats: {e}")))?;
    let mut options = t.options.clone().unwrap_or_else(|| json!({}));
    let Some(map) = options.as_object_mut() else {
        return Err(bad("options: an object"));
    };
    map.remove("players");
    // Checked at every table size the format forms (short tables seat one fewer).
    let mut sizes = vec![t.seats];
    if t.short_tables && t.seats > 2 {
        sizes.push(t.seats - 1);
    }
    for size in sizes {
        let mut o = options.clone();
        o["players"] = size.into();
        let game = AnyGame::new(t.game, &o, 0).map_err(ApiError::setup)?;
        if game.seats() < 2 {
            return Err(ApiError::new(
                ApiErrorCode::SoloNotPaired,
                "a solo game is played alone: a tournament's tables seat two or more",
            ));
        }
    }
    if let Some(key) = &t.clock
        && !state.config.clocks.iter().any(|p| &p.key == key)
    {
        return Err(ApiError::new(
            ApiErrorCode::UnknownClock,
            format!("no clock profile '{key}' (see GET /api/clocks)"),
        ));
    }
    if t.rated && t.clock.is_none() {
        return Err(ApiError::new(
            ApiErrorCode::RatedNeedsClock,
            "a rated tournament needs a clock (see GET /api/clocks)",
        ));
    }
    if let Some(level) = &t.bots
        && t.game.descriptor().bot_level(level).is_none()
    {
        return Err(ApiError::new(
            ApiErrorCode::UnknownBotLevel,
            format!("unknown bot level '{level}'"),
        ));
    }
    let entry = match t.entry.as_deref().unwrap_or("open") {
        "open" => Entry::Open,
        "invite" => Entry::Invite,
        "club" => {
            let club = t
                .club
                .clone()
                .ok_or_else(|| bad("entry club: which club (club)"))?;
            if !crate::tournament::entry::club_member(&state, &club, &identity.user_id).await? {
                return Err(ApiError::new(
                    ApiErrorCode::ClubOnly,
                    "a club's tournament is made by one of its members",
                ));
            }
            Entry::Club(club)
        }
        other => return Err(bad(format!("entry: open, invite or club, not {other}"))),
    };
    let now = now_ms();
    let starts_at = match (t.starts_at, t.starts_in_s) {
        (Some(at), None) => at,
        (None, Some(s)) if s >= 0 => now + s * 1000,
        (None, None) => now + 5 * 60 * 1000,
        _ => return Err(bad("starts_at or starts_in_s (not negative), not both")),
    };
    let mut seed = [0u8; 8];
    getrandom::fill(&mut seed).map_err(ApiError::internal)?;
    let row = TournamentRow {
        id: random_hex(8),
        name,
        game: t.game,
        options: options.to_string(),
        format,
        seats: t.seats,
        short_tables: t.short_tables,
        clock: t.clock,
        rated: t.rated,
        starts_at,
        rounds,
        duration_ms,
        min_rating: t.min_rating,
        max_rating: t.max_rating,
        entry,
        invite: random_hex(12),
        bot_level: t.bots,
        created_by: identity.user_id.clone(),
        created_at: now,
        status: Status::Open,
        state: None,
        version: 0,
        seed: u64::from_le_bytes(seed) >> 1,
        finished_at: None,
        round_days,
        cancelled_because: None,
    };
    store::create(&state.store, &row).await?;
    if t.enter.unwrap_or(true) {
        check_rating(&state, &row, &identity.user_id).await?;
        store::join(&state.store, &row.id, &identity.user_id, now).await?;
    }
    tracing::info!(tournament = %row.id, game = %row.game, "tournament created");
    let view = read(&state, &row.id, Some(&identity.user_id)).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

async fn read(state: &AppState, id: &str, viewer: Option<&str>) -> ApiResult<view::TournamentView> {
    let row = found(state, id).await?;
    let entrants = store::entrants(&state.store, id).await?;
    let tables = store::tables(&state.store, id).await?;
    Ok(view::full(&state.store, &row, &entrants, &tables, viewer).await?)
}

async fn found(state: &AppState, id: &str) -> ApiResult<TournamentRow> {
    store::get(&state.store, id)
        .await?
        .ok_or_else(|| ApiError::not_found("no such tournament"))
}

/// `GET /api/tournaments`: the open and running tournaments (soonest first), then the latest
/// finished. Invite-only ones are listed to their creator only.
pub async fn list(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Json<Value>> {
    let viewer = Identity::from_headers(&state, &headers).await?;
    let viewer = viewer.as_ref().map(|v| v.user_id.as_str());
    let mut out = Vec::new();
    for row in store::list(&state.store, LIST).await? {
        // Invite tournaments are listed to their creator, a club's to its members.
        let listed = match (&row.entry, viewer) {
            (Entry::Open, _) => true,
            (_, Some(v)) if v == row.created_by => true,
            (Entry::Club(club), Some(v)) => {
                crate::tournament::entry::club_member(&state, club, v).await?
            }
            _ => false,
        };
        if !listed {
            continue;
        }
        let entrants = store::entrants(&state.store, &row.id).await?;
        let active = entrants.iter().filter(|e| !e.withdrawn).count();
        let mut summary =
            serde_json::to_value(view::Summary::of(&row, active)).map_err(ApiError::internal)?;
        summary["entered"] = viewer
            .is_some_and(|v| entrants.iter().any(|e| e.user == v && !e.withdrawn))
            .into();
        out.push(summary);
    }
    Ok(Json(json!({ "tournaments": out })))
}

/// `GET /api/tournaments/{id}`: the tournament, its standings, rounds, tables and podium.
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<view::TournamentView>> {
    let viewer = Identity::from_headers(&state, &headers).await?;
    Ok(Json(
        read(&state, &id, viewer.as_ref().map(|v| v.user_id.as_str())).await?,
    ))
}

/// The entrant's rating for the game must be within the tournament's range.
async fn check_rating(state: &AppState, row: &TournamentRow, user: &str) -> ApiResult<()> {
    if row.min_rating.is_none() && row.max_rating.is_none() {
        return Ok(());
    }
    let rating = crate::http::meet::rating_of(state, row.game, user).await?;
    let low = row.min_rating.is_some_and(|m| rating < m as f64);
    let high = row.max_rating.is_some_and(|m| rating > m as f64);
    if low || high {
        return Err(ApiError::new(
            ApiErrorCode::RatingOutOfRange,
            format!("your rating for this game ({rating:.0}) is outside this tournament's range"),
        ));
    }
    Ok(())
}

/// `POST /api/tournaments/{id}/join` `{"invite"?}`: enters (guests too), before the start
/// or late while rounds are left (a late entrant starts with no points).
pub async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
    ApiJson(body): ApiJson<JoinBody>,
) -> ApiResult<Json<view::TournamentView>> {
    let row = found(&state, &id).await?;
    let late = match crate::tournament::core_state::Core::of(&row) {
        Some(crate::tournament::core_state::Core::Swiss(s)) => {
            s.rounds.len() >= s.config.rounds as usize
        }
        _ => row
            .duration_ms
            .is_some_and(|d| now_ms() >= row.starts_at + d),
    };
    if matches!(row.status, Status::Finished | Status::Cancelled) || late {
        return Err(ApiError::new(
            ApiErrorCode::TournamentClosed,
            "this tournament takes no more entries",
        ));
    }
    let invite = body.invite;
    entry::may_enter(
        &state,
        &row.entry,
        &row.invite,
        invite.as_deref(),
        &identity.user_id,
    )
    .await?;
    check_rating(&state, &row, &identity.user_id).await?;
    store::join(&state.store, &id, &identity.user_id, now_ms()).await?;
    Ok(Json(read(&state, &id, Some(&identity.user_id)).await?))
}

/// `POST /api/tournaments/{id}/leave`: withdraws: not paired again; a game under way plays
/// on (the time-out policy ends it if they stop), and the standing earned is kept.
pub async fn leave(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
) -> ApiResult<Json<view::TournamentView>> {
    let row = found(&state, &id).await?;
    if matches!(row.status, Status::Finished | Status::Cancelled) {
        return Err(ApiError::new(
            ApiErrorCode::TournamentClosed,
            "this tournament is over",
        ));
    }
    if !store::withdraw(&state.store, &id, &identity.user_id).await? {
        return Err(ApiError::not_found("you have not entered this tournament"));
    }
    Ok(Json(read(&state, &id, Some(&identity.user_id)).await?))
}

/// `POST /api/tournaments/{id}/start`: its creator starts an open tournament now (the first
/// round is paired within a second) rather than at its start time.
pub async fn start(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
) -> ApiResult<Json<view::TournamentView>> {
    let row = found(&state, &id).await?;
    if row.created_by != identity.user_id {
        return Err(ApiError::new(
            ApiErrorCode::NotCreator,
            "only its creator starts a tournament early",
        ));
    }
    if row.status != Status::Open {
        return Err(ApiError::new(
            ApiErrorCode::TournamentClosed,
            "this tournament has started",
        ));
    }
    store::start_now(&state.store, &id, &identity.user_id, now_ms()).await?;
    Ok(Json(read(&state, &id, Some(&identity.user_id)).await?))
}
