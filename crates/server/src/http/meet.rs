//! Meeting people (issue 27, item 5): quick pairing ("Play a person now") and the list of live
//! public games to watch. Neither names a game: a setting is a game key, a player count and a
//! clock profile key, checked against the descriptors and the server's clocks.
use crate::AppState;
use crate::db::error::{SeatRefused, StoreError};
use crate::db::fence::Fence;
use crate::db::pairing_queue::{self as queue, Setting, Waiting};
use crate::db::rows::{GameRow, SeatKind, StoredGame};
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::http::api::ApiJson;
use crate::identity::Identity;
use crate::live::protocol::ServerMsg;
use crate::secret::random_hex;
use crate::wall_clock::now_ms;
use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use pyramidion_games::{AnyGame, GameKind};
use serde::Deserialize;
use serde_json::{Value, json};
use sqlx::Row;

/// How long a request to be paired waits before it is forgotten (ask again to keep waiting).
pub const PAIRING_WAIT_MS: i64 = 10 * 60 * 1000;
/// A waiting player with no open connection is gone for good — no longer waiting — once
/// they asked this long ago (an ask made without a socket, or a page reconnecting through
/// the proxy after its instance died, is not dropped at once).
pub const PAIRING_ABSENT_MS: i64 = 30 * 1000;
/// Live games the Watch page lists at most.
pub const WATCH_LIST: usize = 50;

#[derive(Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct PairingAsk {
    /// An unknown game is `unknown_game` (forwarded to the queue's holder as its key).
    #[serde(deserialize_with = "crate::http::coded_field::coded")]
    game: GameKind,
    players: u8,
    #[serde(default)]
    clock: Option<String>,
    /// A rated ask is seated only with rated asks, a casual one only with casual ones: the
    /// table is what each of its players asked for.
    #[serde(default)]
    rated: bool,
    /// Only players whose rating (for this game) is within this many points of mine, and
    /// whose own range takes me.
    #[serde(default)]
    range: Option<u32>,
}

/// What a pairing request is answered (`status` says which).
#[derive(serde::Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum PairingAnswer {
    /// Queued (`202`): who waits for the same setting, as this player sees them.
    Waiting {
        #[serde(flatten)]
        tally: Tally,
    },
    /// A table was made (`201`): the table as the lobby lists it.
    Seated {
        table: Box<crate::table_view::Table>,
    },
    /// No longer waiting.
    Cancelled,
}

/// Who waits for a waiting player's setting, as that player sees them: the server never
/// changes what a player asked for (rated or casual, the rating range), so a player who waits
/// is told who could sit with them and who waits apart, and why.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// The players who could sit at one table with this one (the same setting, the same
    /// choice of rated or casual, each within the other's range), this player included.
    pub waiting: usize,
    /// The players waiting for the same setting within range but for the other kind of game
    /// (casual when this one asked for rated, rated when casual): asking for that kind instead
    /// would meet them.
    pub other_kind: usize,
    /// The players waiting for the same setting (rated or casual) whose rating is outside
    /// this player's range, or whose range leaves this player out.
    pub out_of_range: usize,
}

/// How many wait for one setting and one kind of game (rated or casual).
#[derive(serde::Serialize)]
pub struct WaitingCount {
    game: GameKind,
    players: u8,
    clock: Option<String>,
    rated: bool,
    waiting: usize,
}

/// `GET /api/pairing`'s answer.
#[derive(serde::Serialize)]
pub struct WaitingCounts {
    waiting: Vec<WaitingCount>,
}

fn within(a: &Waiting, b: &Waiting) -> bool {
    let gap = (a.rating - b.rating).abs();
    a.range.is_none_or(|r| gap <= r as f64) && b.range.is_none_or(|r| gap <= r as f64)
}

/// Whether `a` and `b` may sit at one table: the same setting, both rated or both casual
/// (a rated ask is never seated at a casual table, nor the other way round), and each within
/// the other's rating range.
pub fn compatible(a: &Waiting, b: &Waiting) -> bool {
    a.setting == b.setting && a.rated == b.rated && within(a, b)
}

/// Who in `queue` waits for `me`'s setting, as `me` sees them (`me` counts once, whether or
/// not `queue` holds its row).
pub fn tally(queue: &[Waiting], me: &Waiting) -> Tally {
    let mut t = Tally {
        waiting: 1,
        ..Tally::default()
    };
    for w in queue {
        if w.user == me.user || w.setting != me.setting {
            continue;
        }
        if !within(me, w) {
            t.out_of_range += 1;
        } else if w.rated == me.rated {
            t.waiting += 1;
        } else {
            t.other_kind += 1;
        }
    }
    t
}

/// Checks a setting against its game's rules and the clocks; returns the game's options.
fn check(state: &AppState, s: &Setting) -> ApiResult<Value> {
    let options = json!({ "players": s.players });
    let game = AnyGame::new(s.game, &options, 0).map_err(ApiError::setup)?;
    if game.seats() < 2 {
        return Err(ApiError::new(
            ApiErrorCode::SoloNotPaired,
            "a solo game is played alone: pairing is for two players or more",
        ));
    }
    if let Some(key) = &s.clock
        && !state.config.clocks.iter().any(|p| &p.key == key)
    {
        return Err(ApiError::new(
            ApiErrorCode::UnknownClock,
            format!("no clock profile '{key}' (see GET /api/clocks)"),
        ));
    }
    Ok(options)
}

pub(crate) async fn rating_of(state: &AppState, game: GameKind, user: &str) -> ApiResult<f64> {
    let row = sqlx::query("SELECT rating FROM ratings WHERE game = $1 AND player = $2")
        .bind(game.key())
        .bind(user)
        .fetch_optional(&mut *state.store.read().await?)
        .await
        .map_err(crate::db::error::StoreError::from)?;
    Ok(match row {
        Some(r) => r
            .try_get("rating")
            .map_err(crate::db::error::StoreError::from)?,
        None => 1500.0,
    })
}

/// How many wait for each setting and kind of game (rated or casual: they never meet).
fn counts(queue: &[Waiting]) -> Vec<WaitingCount> {
    let mut out: Vec<(Setting, bool, usize)> = Vec::new();
    for w in queue {
        match out
            .iter_mut()
            .find(|(s, rated, _)| *s == w.setting && *rated == w.rated)
        {
            Some((_, _, n)) => *n += 1,
            None => out.push((w.setting.clone(), w.rated, 1)),
        }
    }
    out.into_iter()
        .map(|(s, rated, n)| WaitingCount {
            game: s.game,
            players: s.players,
            clock: s.clock,
            rated,
            waiting: n,
        })
        .collect()
}

/// Tells everyone waiting for `setting` who waits now, as each of them sees it.
fn tell_waiting(state: &AppState, queue: &[Waiting], setting: &Setting) {
    for w in queue.iter().filter(|w| w.setting == *setting) {
        let t = tally(queue, w);
        state.hub.to_user(
            &w.user,
            &ServerMsg::Pairing {
                waiting: t.waiting,
                other_kind: t.other_kind,
                out_of_range: t.out_of_range,
                table: None,
            },
        );
    }
}

/// Whether `user` is on the site: connected here, or (several instances) on an instance
/// alive lately.
async fn present(state: &AppState, user: &str) -> ApiResult<bool> {
    if state.hub.connected(user) {
        return Ok(true);
    }
    match state.cluster.as_ref() {
        Some(cluster) => {
            Ok(crate::cluster::pairing::present_lately(cluster, user, PAIRING_ABSENT_MS).await?)
        }
        None => Ok(false),
    }
}

/// The queue as it stands, without the players who waited too long or are gone for good
/// (their rows are removed) and without `except` (who is asking again).
async fn current(state: &AppState, except: Option<&str>) -> ApiResult<Vec<Waiting>> {
    let now = now_ms();
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    for w in queue::load(&state.store).await? {
        if Some(w.user.as_str()) == except {
            continue;
        }
        let stale = now - w.since >= PAIRING_WAIT_MS
            || (now - w.since >= PAIRING_ABSENT_MS && !present(state, &w.user).await?);
        if stale {
            dropped.push(w.user);
        } else {
            kept.push(w);
        }
    }
    queue::remove(&state.store, dropped).await?;
    Ok(kept)
}

/// `POST /api/pairing`: seats me with the players waiting for the same setting, or makes me
/// wait for them.
pub async fn ask(
    State(state): State<AppState>,
    identity: Identity,
    ApiJson(a): ApiJson<PairingAsk>,
) -> Response {
    let body = serde_json::to_value(&a).ok();
    match crate::cluster::pairing::elsewhere(&state, "POST", Some(&identity), body).await {
        Err(answer) => answer,
        Ok(fence) => ask_here(&state, &identity, a, fence).await.into_response(),
    }
}

/// [`ask`] on the instance that holds the queue; `fence` is its hold of the queue's lease
/// (none on one instance).
pub async fn ask_here(
    state: &AppState,
    identity: &Identity,
    a: PairingAsk,
    fence: Option<Fence>,
) -> ApiResult<(StatusCode, Json<PairingAnswer>)> {
    let state = state.clone();
    let setting = Setting {
        game: a.game,
        players: a.players,
        clock: a.clock.clone(),
    };
    let options = check(&state, &setting)?;
    // As a rated table, a rated game needs a clock: without one the player who is losing
    // could stall it for ever.
    if a.rated && setting.clock.is_none() {
        return Err(ApiError::new(
            ApiErrorCode::RatedNeedsClock,
            "rated pairing needs a clock (see GET /api/clocks)",
        ));
    }
    // Asked before anyone is paired: a refused game would have cost the others their wait.
    crate::live::capacity::admit_game(&state.live)?;
    let rating = rating_of(&state, setting.game, &identity.user_id).await?;
    let me = Waiting {
        user: identity.user_id.clone(),
        setting: setting.clone(),
        rated: a.rated,
        range: a.range,
        rating,
        since: now_ms(),
    };
    // Seats change under the lobby lock (as joining does).
    let _guard = state.lobby_lock.lock().await;
    // A pairing makes a table, as creating one does: the asker needs room for one more
    // table (it counts for whoever waited longest) and one more seat.
    crate::http::quotas::may_create_table(&state, identity).await?;
    crate::http::quotas::may_take_seats(&state, &identity.user_id, 1).await?;
    // A group whose player left meanwhile is formed again from the queue as it is then.
    for _ in 0..3 {
        let waiting = current(&state, Some(&me.user)).await?;
        let mut group = vec![me.clone()];
        for w in &waiting {
            if group.len() == setting.players as usize {
                break;
            }
            if group.iter().all(|g| compatible(g, w)) && has_a_seat_left(&state, &w.user).await? {
                group.push(w.clone());
            }
        }
        if group.len() < setting.players as usize {
            // Durable before it is acknowledged: a new holder of the queue finds it.
            queue::add(&state.store, &me).await?;
            let tally = tally(&waiting, &me);
            let mut queue = waiting;
            queue.push(me);
            tell_waiting(&state, &queue, &setting);
            return Ok((StatusCode::ACCEPTED, Json(PairingAnswer::Waiting { tally })));
        }
        let (row, seats, seated) = new_table(&state, &group, &options)?;
        // The rows of the seated leave the queue in the transaction that creates the game.
        match queue::seat(
            &state.store,
            &group[1..],
            &me.user,
            &row,
            &seats,
            fence.clone(),
        )
        .await
        {
            Err(StoreError::SeatRefused(SeatRefused::Gone)) => continue,
            Err(StoreError::SeatRefused(SeatRefused::Moved)) => {
                return Err(moving());
            }
            Err(e) => return Err(e.into()),
            Ok(()) => {}
        }
        state.rooms.get(&state.live, &row.id).await?;
        let table =
            crate::http::api::table_of(&state, &row, &seats, Some(&identity.user_id)).await?;
        for w in &seated {
            state.hub.to_user(
                &w.user,
                &ServerMsg::Pairing {
                    waiting: 0,
                    other_kind: 0,
                    out_of_range: 0,
                    table: Some(row.id.clone()),
                },
            );
        }
        // The players are seated (committed): a failure to count the others only costs them
        // this push, not the seated their answer.
        if let Ok(left) = current(&state, None).await {
            tell_waiting(&state, &left, &setting);
        }
        tracing::info!(game = %row.id, kind = %row.kind, "players paired");
        return Ok((
            StatusCode::CREATED,
            Json(PairingAnswer::Seated {
                table: Box::new(table),
            }),
        ));
    }
    Err(moving())
}

/// Whether a waiting player may still take one more seat (they may have sat down elsewhere
/// since they asked): one who may not is passed over, and waits on.
async fn has_a_seat_left(state: &AppState, user: &str) -> ApiResult<bool> {
    let held = state.store.seats_held_by(user).await?;
    Ok(held < state.config.limits.seats_per_user as i64)
}

fn moving() -> ApiError {
    ApiError::new(
        ApiErrorCode::Unavailable,
        "quick pairing is moving to another server: try again in a few seconds",
    )
}

/// The new game of `group` (the asker first, then the players who waited, longest first),
/// its seats, and its players in seat order: the ones who waited longest sit first, the last
/// to come sits last.
fn new_table(
    state: &AppState,
    group: &[Waiting],
    options: &Value,
) -> ApiResult<(GameRow, Vec<SeatKind>, Vec<Waiting>)> {
    let setting = &group[0].setting;
    let mut seated: Vec<Waiting> = group[1..].to_vec();
    seated.push(group[0].clone());
    let seats: Vec<SeatKind> = seated
        .iter()
        .map(|w| SeatKind::Human(w.user.clone()))
        .collect();
    let mut seed = [0u8; 8];
    getrandom::fill(&mut seed).map_err(ApiError::internal)?;
    let clock = setting
        .clock
        .as_ref()
        .and_then(|k| state.config.clocks.iter().find(|p| &p.key == k).cloned());
    let row = GameRow {
        id: random_hex(8),
        kind: setting.game,
        options: options.to_string(),
        seed: u64::from_le_bytes(seed) >> 1,
        status: crate::game_status::GameStatus::Live,
        listed: true,
        invite: random_hex(12),
        clock,
        clock_state: None,
        to_move: None,
        created_by: seated[0].user.clone(),
        result: None,
        created_at: now_ms(),
        rated: seated.iter().all(|w| w.rated),
        finished_at: None,
    };
    Ok((row, seats, seated))
}

/// `DELETE /api/pairing`: stop waiting.
pub async fn cancel(State(state): State<AppState>, identity: Identity) -> Response {
    match crate::cluster::pairing::elsewhere(&state, "DELETE", Some(&identity), None).await {
        Err(answer) => answer,
        Ok(_) => cancel_here(&state, &identity).await.into_response(),
    }
}

/// [`cancel`] on the instance that holds the queue.
pub async fn cancel_here(state: &AppState, identity: &Identity) -> ApiResult<Json<PairingAnswer>> {
    let _guard = state.lobby_lock.lock().await;
    let gone: Vec<Setting> = queue::load(&state.store)
        .await?
        .into_iter()
        .filter(|w| w.user == identity.user_id)
        .map(|w| w.setting)
        .collect();
    queue::remove(&state.store, vec![identity.user_id.clone()]).await?;
    let left = current(state, None).await?;
    for s in &gone {
        tell_waiting(state, &left, s);
    }
    Ok(Json(PairingAnswer::Cancelled))
}

/// `GET /api/pairing`: how many wait for each setting.
pub async fn waiting(State(state): State<AppState>) -> Response {
    match crate::cluster::pairing::elsewhere(&state, "GET", None, None).await {
        Err(answer) => answer,
        Ok(_) => waiting_here(&state).await.into_response(),
    }
}

/// [`waiting`] on the instance that holds the queue.
pub async fn waiting_here(state: &AppState) -> ApiResult<Json<WaitingCounts>> {
    Ok(Json(WaitingCounts {
        waiting: counts(&current(state, None).await?),
    }))
}

/// A seat on the Watch page: the table's seat with its player's rating for the game (a
/// bot level's too); an open or kept seat has none (the field is absent).
#[derive(serde::Serialize)]
pub struct RatedSeat {
    #[serde(flatten)]
    seat: crate::table_view::TableSeat,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<f64>,
}

/// A live game on the Watch page: its table as the lobby lists it (with rated seats), how far
/// it is, and the mean rating of its seats that `?sort=rated` orders by.
#[derive(serde::Serialize)]
pub struct WatchedGame {
    #[serde(flatten)]
    table: crate::table_view::Table<RatedSeat>,
    /// Moves played.
    plies: i64,
    /// The stage being played, when the game's room is in memory; null otherwise.
    stage: Option<u8>,
    /// What the game calls its stages (the descriptor's `stage_name`).
    stage_name: Option<&'static str>,
    to_move: Option<u8>,
    /// The mean of the seats' ratings (an unrated seat counting 0).
    mean_rating: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WatchQuery {
    /// `newest` (default) or `rated` (highest-rated players first).
    #[serde(default)]
    sort: Option<String>,
}

/// A live game's row with its moves counted.
#[derive(sqlx::FromRow)]
struct WatchRow {
    #[sqlx(flatten)]
    game: StoredGame,
    plies: i64,
}

/// `GET /api/watch`: live public games, each with its players (names, ratings) and how far it
/// is (moves played, the seat to move).
pub async fn watch(
    State(state): State<AppState>,
    Query(q): Query<WatchQuery>,
) -> ApiResult<Response> {
    let by_rating = match q.sort.as_deref() {
        None | Some("newest") => false,
        Some("rated") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "sort is `newest` or `rated`, not `{other}`"
            )));
        }
    };
    // The same for every reader: built at most once per `FRESH_FOR` (`watch_cache`).
    let body = state
        .watch_cache
        .get_or_build(
            usize::from(by_rating),
            crate::http::watch_cache::FRESH_FOR,
            || async {
                let list = watch_list(&state, by_rating).await?;
                let json = serde_json::to_vec(&list).map_err(|e| {
                    ApiError::new(
                        ApiErrorCode::Internal,
                        format!("cannot write the list: {e}"),
                    )
                })?;
                Ok::<_, ApiError>(axum::body::Bytes::from(json))
            },
        )
        .await?;
    Ok((
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response())
}

/// The Watch list as built from the database and the rooms (see [`watch`]).
async fn watch_list(
    state: &AppState,
    by_rating: bool,
) -> ApiResult<crate::table_view::GameList<WatchedGame>> {
    let rows = sqlx::query_as::<_, WatchRow>(
        "SELECT g.*, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) AS plies
           FROM games g WHERE g.status = 'live' AND g.listed = 1
         ORDER BY g.created_at DESC LIMIT $1",
    )
    .bind(WATCH_LIST as i64)
    .fetch_all(&mut *state.store.read().await?)
    .await
    .map_err(crate::db::error::StoreError::from)?;
    let mut games = Vec::with_capacity(rows.len());
    for WatchRow { game, plies } in rows {
        let row = GameRow::try_from(game)?;
        let seats = state.store.seats(&row.id).await?;
        let table = crate::http::api::table_of(state, &row, &seats, None).await?;
        let mut ratings = Vec::with_capacity(seats.len());
        let mut sum = 0.0;
        for seat in &seats {
            let rating = match crate::db::ratings::player_of(seat) {
                Some(player) => Some(rating_of(state, row.kind, &player).await?.round()),
                None => None,
            };
            sum += rating.unwrap_or(0.0);
            ratings.push(rating);
        }
        let mut ratings = ratings.into_iter();
        let table = table.map_seats(|seat| RatedSeat {
            seat,
            rating: ratings.next().flatten(),
        });
        // The stage, from the game's room when it is in memory (it is while anyone plays or
        // follows it); null otherwise.
        let mut stage = None;
        if let Some(room) = state.rooms.running(&row.id) {
            let (reply, answer) = tokio::sync::oneshot::channel();
            if room
                .tx
                .send(crate::live::room_cmd::RoomCmd::Progress(reply))
                .await
                .is_ok()
                && let Ok((now, _)) = answer.await
            {
                stage = Some(now);
            }
        }
        games.push(WatchedGame {
            table,
            plies,
            stage,
            stage_name: Some(row.kind.descriptor().stage_name),
            to_move: row.to_move,
            mean_rating: (sum / seats.len().max(1) as f64).round(),
        });
    }
    if by_rating {
        games.sort_by(|a, b| b.mean_rating.total_cmp(&a.mean_rating));
    }
    // Each game as the lobby lists its table, with its players' ratings, how far it is and
    // the mean rating it is sorted by.
    Ok(crate::table_view::GameList { games })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A Watch entry is the lobby's table, each seat with its rating (none on an open seat),
    /// and the game's progress: the shape docs/protocol.md gives and the Watch page reads.
    #[test]
    fn a_watched_game_is_its_table_with_rated_seats_and_its_progress() {
        let mut ratings = [Some(1500.0), Some(1400.0), None].into_iter();
        let game = WatchedGame {
            table: crate::table_view::sample_table().map_seats(|seat| RatedSeat {
                seat,
                rating: ratings.next().flatten(),
            }),
            plies: 3,
            stage: None,
            stage_name: Some("stage"),
            to_move: Some(1),
            mean_rating: 967.0,
        };
        assert_eq!(
            serde_json::to_value(&game).unwrap(),
            json!({
                "id": "t1", "game": GameKind::ALL[0].key(), "options": {"players": 3}, "status": "live",
                "listed": true, "rated": true, "clock": null, "created_at": 7, "result": null,
                "seats": [
                    {"type": "human", "user": "u1", "name": "Ann", "me": false, "rating": 1500.0},
                    {"type": "bot", "level": "easy", "rating": 1400.0},
                    {"type": "open"},
                ],
                "plies": 3, "stage": null, "stage_name": "stage", "to_move": 1,
                "mean_rating": 967.0,
            })
        );
    }
}
