//! Daily challenges: for every game mode a player can take on alone, one deal a UTC day, the
//! same for everyone, one attempt per account, with its own leaderboard.
//!
//! The modes come from the descriptors, naming no game: a game that can be played solo gives
//! one challenge per value of each option that applies to one player (its solo modes), and
//! a game that cannot gives one 2-seat challenge against the middle level of its bot ladder
//! (bots are seeded from the game's seed and the ply, so they answer the same moves alike).
//!
//! A challenge's seed is derived from the day, the game, its options and a secret the server
//! draws once and keeps: the same deal for everyone all day, yet nobody can compute the deal
//! (the cards' order) from the date. For the same reason a daily game's record and replay are
//! given only to its own player until its day is over.
use crate::AppState;
use crate::db::rows::{GameRow, SeatKind, corrupt};
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::http::api::table_of;
use crate::identity::Identity;
use crate::live::daily_embargo::{DAY_MS, day_is_public, now, public_at};
use crate::live::visibility::plausible_id;
use crate::secret::random_hex;
use crate::table_view::Table;
use crate::wall_clock::now_ms;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use blake2::{Blake2b512, Digest};
use pyramidion_core::descriptor::GameDescriptor;
use pyramidion_games::GameKind;
use serde::Serialize;
use serde_json::{Value, json};
use sqlx::Row;

/// One challenge of one day.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    /// Names the day, game and options (a hash: short, and safe in a URL).
    pub id: String,
    /// `YYYY-MM-DD`, UTC.
    pub day: String,
    pub game: GameKind,
    pub options: Value,
    /// The bot levels of the seats after the player's (none for a solo mode).
    pub bots: Vec<&'static str>,
}

/// How far back a challenge is named by its id alone, when nobody has played it.
const DAYS_KEPT: i64 = 366;

/// The challenge `id` names, among those of the `DAYS_KEPT` days up to the day of `now` (ms):
/// a past challenge nobody played still has a page that says which game and day it was.
pub fn find_challenge(id: &str, now: i64) -> Option<Challenge> {
    (0..DAYS_KEPT).find_map(|back| {
        challenges(&utc_day(now - back * DAY_MS))
            .into_iter()
            .find(|c| c.id == id)
    })
}

/// The UTC day of a time in ms since the epoch, as `YYYY-MM-DD` (the proleptic Gregorian
/// calendar, from the day count: Howard Hinnant's `civil_from_days`).
pub fn utc_day(ms: i64) -> String {
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The game modes of a descriptor that get a daily challenge: (options, bot levels).
fn modes(d: &GameDescriptor) -> Vec<(Value, Vec<&'static str>)> {
    if d.seats.min == 1 {
        let solo: Vec<_> = d
            .options
            .iter()
            .filter(|o| !o.players.is_empty() && o.applies_to(1))
            .collect();
        if solo.is_empty() {
            return vec![(json!({ "players": 1 }), Vec::new())];
        }
        let mut out = Vec::new();
        for option in &solo {
            for value in option.values {
                let mut options = json!({ "players": 1 });
                for other in &solo {
                    options[other.key] = json!(other.default);
                }
                options[option.key] = json!(value);
                out.push((options, Vec::new()));
            }
        }
        out
    } else {
        let middle = d.bot_levels[d.bot_levels.len() / 2].name;
        vec![(json!({ "players": 2 }), vec![middle])]
    }
}

fn hash(parts: &[&str]) -> [u8; 64] {
    let mut h = Blake2b512::new();
    for p in parts {
        // Length-prefixed: no two different lists hash the same text.
        h.update((p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    h.finalize().into()
}

/// Every challenge of `day`, in registry order.
pub fn challenges(day: &str) -> Vec<Challenge> {
    let mut out = Vec::new();
    for &game in GameKind::ALL {
        for (options, bots) in modes(game.descriptor()) {
            let digest = hash(&[day, game.key(), &options.to_string()]);
            let id: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
            out.push(Challenge {
                id,
                day: day.to_string(),
                game,
                options,
                bots,
            });
        }
    }
    out
}

/// The seed of a challenge's deal, from the server's secret.
pub fn seed(secret: &str, c: &Challenge) -> u64 {
    let digest = hash(&[secret, &c.day, c.game.key(), &c.options.to_string()]);
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes) >> 1 // stored as a signed 64-bit integer
}

/// The server's daily secret, drawn and stored on first use.
async fn secret(state: &AppState) -> ApiResult<String> {
    if let Some(s) = state.store.secret("daily").await? {
        return Ok(s);
    }
    state.store.add_secret("daily", &random_hex(32)).await?;
    state
        .store
        .secret("daily")
        .await?
        .ok_or_else(|| ApiError::internal("the daily secret was not stored"))
}

/// `GET /api/daily`'s answer: the day and its challenges.
#[derive(Serialize)]
pub struct Today {
    pub day: String,
    pub challenges: Vec<ChallengeEntry>,
}

/// A challenge of the day as clients see it, with the signed-in user's attempt.
#[derive(Serialize)]
pub struct ChallengeEntry {
    pub id: String,
    pub game: GameKind,
    pub options: Value,
    /// The names of the levels, as the game's descriptor gives them.
    pub bots: Vec<&'static str>,
    /// The game id of the signed-in user's attempt (null: none, or nobody signed in).
    pub played: Option<String>,
}

/// The table of an attempt just started, with the challenge it takes on.
#[derive(Serialize)]
pub struct AttemptTable {
    #[serde(flatten)]
    pub table: Table,
    pub challenge: String,
}

/// A challenge's leaderboard: the challenge named (each field null when it is unknown), its
/// ranked attempts, how many attempts have finished with a score, and until when the
/// attempts are hidden (null once public).
#[derive(Serialize)]
pub struct Leaderboard {
    pub challenge: String,
    pub day: Option<String>,
    pub game: Option<GameKind>,
    pub options: Option<Value>,
    pub entries: Vec<LeaderboardEntry>,
    /// The attempts finished with a score (not abandoned nor resigned), ranked or not:
    /// counted while the entries are hidden too (a count shows nobody's score).
    pub finished: usize,
    pub hidden_until: Option<i64>,
}

/// An attempt on a challenge's leaderboard.
#[derive(Serialize)]
pub struct LeaderboardEntry {
    pub user: String,
    pub name: String,
    pub game_id: Option<String>,
    /// The player's score, as the game's result gives it.
    pub score: Value,
    pub won: bool,
    pub finished_at: Option<i64>,
}

/// `GET /api/daily`: today's challenges, with the game id of the signed-in user's attempt.
pub async fn today(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Json<Today>> {
    let me = Identity::from_headers(&state, &headers).await?;
    let day = utc_day(now(&state.live));
    let mut list = Vec::new();
    for c in challenges(&day) {
        let played = match &me {
            Some(me) => state.store.daily_attempt(&c.id, &me.user_id).await?,
            None => None,
        };
        list.push(ChallengeEntry {
            id: c.id,
            game: c.game,
            options: c.options,
            bots: c.bots,
            played,
        });
    }
    Ok(Json(Today {
        day,
        challenges: list,
    }))
}

/// `POST /api/daily/{challenge}`: starts the signed-in account's one attempt at one of
/// today's challenges.
pub async fn start(
    State(state): State<AppState>,
    Path(id): Path<String>,
    identity: Identity,
) -> ApiResult<(StatusCode, Json<AttemptTable>)> {
    if identity.guest {
        return Err(ApiError::new(
            ApiErrorCode::AccountRequired,
            "the daily challenge is one attempt per account: sign in to take it",
        ));
    }
    let day = utc_day(now(&state.live));
    let challenge = challenges(&day)
        .into_iter()
        .find(|c| c.id == id)
        .ok_or_else(|| ApiError::new(ApiErrorCode::NoSuchChallenge, "no such challenge today"))?;
    crate::live::capacity::admit_game(&state.live)?;
    let mut seats = vec![SeatKind::Human(identity.user_id.clone())];
    for level in &challenge.bots {
        // A name of the game's descriptor, which lists the bots' ladder (a test of the
        // registry holds every game to it): never refused but by a build that broke that.
        seats.push(SeatKind::Bot(level.parse().map_err(ApiError::internal)?));
    }
    let row = GameRow {
        id: random_hex(8),
        kind: challenge.game,
        options: challenge.options.to_string(),
        seed: seed(&secret(&state).await?, &challenge),
        status: crate::game_status::GameStatus::Live,
        listed: false,
        invite: random_hex(12),
        clock: None,
        clock_state: None,
        to_move: None,
        created_by: identity.user_id.clone(),
        result: None,
        created_at: now_ms(),
        rated: false,
        finished_at: None,
    };
    if !state
        .store
        .create_daily_game(&row, &seats, &challenge.id, &day)
        .await?
    {
        return Err(ApiError::conflict(
            ApiErrorCode::DailyAlreadyPlayed,
            "you have already taken today's challenge",
        ));
    }
    state.rooms.get(&state.live, &row.id).await?;
    let table = table_of(&state, &row, &seats, Some(&identity.user_id)).await?;
    Ok((
        StatusCode::CREATED,
        Json(AttemptTable {
            table,
            challenge: challenge.id,
        }),
    ))
}

/// `GET /api/daily/{challenge}/leaderboard`: the attempts that finished in time, best first:
/// winners first, then by score, then who finished earlier; today's challenge is named (day,
/// game, options) even while nobody has finished it. Until the day is over for everyone
/// (`public_at`) the entries are hidden: `entries` is empty, `hidden_until` says when, and
/// `finished` how many attempts have finished so far.
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> ApiResult<Json<Leaderboard>> {
    if !plausible_id(&id) {
        return Err(ApiError::not_found("no such challenge"));
    }
    let rows = sqlx::query(
        "SELECT daily_attempts.day, daily_attempts.user_id, users.name, games.id, games.kind,
                games.options, games.result, games.finished_at
           FROM daily_attempts JOIN games ON games.id = daily_attempts.game_id
           JOIN users ON users.id = daily_attempts.user_id
          WHERE daily_attempts.challenge = $1 AND games.status = 'finished'",
    )
    .bind(&id)
    .fetch_all(&mut *state.store.read().await?)
    .await
    .map_err(ApiError::database)?;
    let mut entries = Vec::with_capacity(rows.len());
    // A challenge is described even while nobody has finished it (its page says which game
    // and day it is): from its id for the last year, else by its finished attempts.
    let (mut day, mut game, mut options) = match find_challenge(&id, now(&state.live)) {
        Some(c) => (Some(c.day), Some(c.game), Some(c.options)),
        None => (None, None, None),
    };
    let mut hidden_until = None;
    let mut finished = 0;
    for r in &rows {
        let get = |c: &str| {
            r.try_get::<Option<String>, _>(c)
                .map_err(ApiError::internal)
        };
        day = get("day")?;
        game = get("kind")?
            .map(|key| key.parse())
            .transpose()
            .map_err(|e| corrupt("a stored game kind", e))?;
        options = get("options")?.and_then(|o| serde_json::from_str::<Value>(&o).ok());
        let result: Value = get("result")?
            .and_then(|o| serde_json::from_str(&o).ok())
            .unwrap_or(Value::Null);
        // An attempt abandoned (or resigned) has no score: it is not on the board.
        if result.get("ending").is_some() {
            continue;
        }
        finished += 1;
        let user: String = get("user_id")?.unwrap_or_default();
        let finished_at = r
            .try_get::<Option<i64>, _>("finished_at")
            .map_err(ApiError::internal)?;
        let public = public_at(&state.live, day.as_deref().unwrap_or_default());
        if now(&state.live) < public {
            hidden_until = Some(public);
            continue;
        }
        // Finished after the day was over for everyone: its player may have seen the others.
        if finished_at.is_none_or(|at| at > public) {
            continue;
        }
        entries.push(LeaderboardEntry {
            name: crate::identity::display_name(&user, get("name")?.as_deref()),
            user,
            game_id: get("id")?,
            score: result["scores"][0].clone(),
            won: crate::live::endings::stored_ranks(&result).is_some_and(|r| r.first() == Some(&0)),
            finished_at,
        });
    }
    entries.sort_by_key(|e| {
        (
            !e.won,
            -e.score.as_i64().unwrap_or(i64::MIN + 1),
            e.finished_at.unwrap_or(i64::MAX),
        )
    });
    // Today's challenge nobody has finished is hidden as long as its day.
    if let Some(d) = &day
        && hidden_until.is_none()
        && !day_is_public(&state.live, d)
    {
        hidden_until = Some(public_at(&state.live, d));
    }
    Ok(Json(Leaderboard {
        challenge: id,
        day,
        game,
        options,
        entries,
        finished,
        hidden_until,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::daily_embargo::day_end_ms;

    #[test]
    fn a_day_ends_at_the_next_midnight_utc() {
        for ms in [0, 951_782_400_000, 1_795_478_399_999, 1_795_478_400_000] {
            let end = day_end_ms(&utc_day(ms)).unwrap();
            assert!(end > ms && end - ms <= DAY_MS, "{ms}");
            assert_eq!(utc_day(end - 1), utc_day(ms));
            assert_ne!(utc_day(end), utc_day(ms));
        }
        assert_eq!(day_end_ms("2026-11-24"), Some(1_795_478_400_000 + DAY_MS));
        assert_eq!(day_end_ms("nonsense"), None);
        assert_eq!(day_end_ms("2026-13-01"), None);
    }

    #[test]
    fn days_are_utc_dates() {
        assert_eq!(utc_day(0), "1970-01-01");
        assert_eq!(utc_day(951_782_400_000), "2000-02-29");
        assert_eq!(utc_day(1_795_478_399_999), "2026-11-23");
        assert_eq!(utc_day(1_795_478_400_000), "2026-11-24");
    }

    /// A challenge is found by its id for a year, whoever played it.
    #[test]
    fn past_challenges_are_found_by_id() {
        let now = 1_795_478_400_000; // 2026-11-24
        let ten_days_ago = &challenges("2026-11-14")[1];
        assert_eq!(
            find_challenge(&ten_days_ago.id, now).as_ref(),
            Some(ten_days_ago)
        );
        assert_eq!(
            find_challenge(&challenges("2026-11-24")[0].id, now)
                .unwrap()
                .day,
            "2026-11-24"
        );
        // Tomorrow's is not known yet, nor one older than a year, nor a made-up id.
        assert_eq!(find_challenge(&challenges("2026-11-25")[0].id, now), None);
        assert_eq!(find_challenge(&challenges("2025-11-01")[0].id, now), None);
        assert_eq!(find_challenge("no-such-challenge", now), None);
    }

    /// Every game has a challenge; ids and seeds depend on the day and differ between modes.
    #[test]
    fn challenges_are_per_day_and_mode() {
        let today = challenges("2026-11-23");
        for &game in GameKind::ALL {
            assert!(today.iter().any(|c| c.game == game), "{game}");
        }
        let mut ids: Vec<&str> = today.iter().map(|c| c.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), today.len());
        let tomorrow = challenges("2026-11-24");
        assert_ne!(today[0].id, tomorrow[0].id);
        assert_eq!(challenges("2026-11-23"), today);
        assert_ne!(seed("s", &today[0]), seed("s", &tomorrow[0]));
        assert_ne!(seed("s", &today[0]), seed("t", &today[0]));
        for c in &today {
            let kind = c.game;
            pyramidion_games::AnyGame::new(kind, &c.options, seed("s", c))
                .unwrap_or_else(|e| panic!("{kind} {}: {e}", c.options));
        }
    }
}
