//! The puzzles' HTTP surface: the next puzzle for a player (near their puzzle rating, one
//! they have not tried), a puzzle by id, the day's puzzle of a game, a try (solved or failed,
//! the explanation, both ratings moved on a first try), a player's history, and the opt-out
//! from puzzles made of one's games.
//!
//! What leaves here is the position as the deciding seat saw it (its view and its legal
//! moves), never the record the puzzle was cut from (it holds the deal's seed), and the
//! solutions only once the asker has tried.
use super::rating;
use super::store::{AttemptRow, AttemptWrite, PuzzleRow};
use crate::AppState;
use crate::error::{ApiError, ApiResult};
use crate::identity::Identity;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use pyramidion_games::GameKind;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use skillratings::glicko2::Glicko2Rating;

/// A rating as the page shows it.
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Self {
        Rating {
            rating: r.rating.round(),
            deviation: r.deviation.round(),
        }
    }
}

/// A puzzle as the solver sees it.
#[derive(Serialize)]
pub struct PuzzleView {
    pub id: String,
    pub game: String,
    /// The deciding seat (whose view this is) and the game's options' seat count.
    pub seat: u8,
    pub seats: u8,
    /// Where the position stands in its game, for its heading: the turn (numbered by rounds,
    /// as the move log numbers them) and what the game calls its stages (the view says which
    /// one): "Stage 2 of 3, turn 12", never a move count.
    pub turn: u32,
    pub stage_name: &'static str,
    pub view: Value,
    pub legal: Value,
    pub themes: Vec<String>,
    /// The puzzle's own rating, and how many first tries it had.
    pub rating: Rating,
    pub attempts: i64,
    /// The asker's first try, and then the explanation (only once tried).
    pub tried: Option<AttemptRow>,
    pub explanation: Option<Explanation>,
}

/// What a puzzle's solution was: the accepted moves and every candidate's expected points
/// (final lead over the best other seat).
#[derive(Serialize, Clone)]
pub struct Explanation {
    pub solutions: Vec<String>,
    pub candidates: Value,
}

fn explanation(p: &PuzzleRow) -> Explanation {
    Explanation {
        solutions: p.solutions.clone(),
        candidates: serde_json::from_str(&p.candidates).unwrap_or(Value::Null),
    }
}

fn game_key(key: &str) -> ApiResult<GameKind> {
    key.parse::<GameKind>()
        .map_err(|_| ApiError::not_found("no game with that key"))
}

async fn view_of(state: &AppState, p: PuzzleRow, user: Option<&str>) -> ApiResult<PuzzleView> {
    let position: Value = serde_json::from_str(&p.position).map_err(ApiError::internal)?;
    let record: Value = serde_json::from_str(&p.record).map_err(ApiError::internal)?;
    let seats = record["options"]["players"].as_u64().unwrap_or(2) as u8;
    let turn = serde_json::from_value::<pyramidion_core::record::Record>(record)
        .ok()
        .and_then(|r| pyramidion_games::analysis::turn_at(&r).ok())
        .unwrap_or(1);
    let stage_name = p
        .game
        .parse::<GameKind>()
        .map_or("stage", |k| k.descriptor().stage_name);
    let tried = match user {
        Some(u) => state.store.puzzle_attempt(u, &p.id).await?,
        None => None,
    };
    Ok(PuzzleView {
        explanation: tried.as_ref().map(|_| explanation(&p)),
        id: p.id,
        game: p.game,
        seat: p.seat,
        seats,
        turn,
        stage_name,
        view: position["view"].clone(),
        legal: position["legal"].clone(),
        themes: p.themes,
        rating: p.rating.into(),
        attempts: p.attempts,
        tried,
    })
}

/// `GET /api/puzzles/{game}/next`'s answer: the puzzle (none when the player tried them all)
/// and the player's puzzle rating in that game.
#[derive(Serialize)]
pub struct Next {
    pub puzzle: Option<PuzzleView>,
    pub rating: Rating,
}

/// How long a puzzle page waits for this instance to store its shipped puzzles (a fraction
/// of a second in a release build).
const STORING_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// Stores the shipped puzzles on this instance's first puzzle page, and makes the others
/// asked meanwhile wait for them: a game's next puzzle chosen before would be one of a part
/// of them, or none ("you have tried every puzzle"), its daily puzzle another than the rest of
/// the day's, and a shipped puzzle's link would say it does not exist.
async fn shipped_stored(state: &AppState) -> ApiResult<()> {
    match tokio::time::timeout(STORING_WAIT, state.shipped_puzzles_stored()).await {
        Ok(stored) => Ok(stored?),
        Err(_) => Err(ApiError::unavailable(
            "this instance is still storing its puzzles",
        )),
    }
}

/// `GET /api/puzzles/{game}/next`: the untried puzzle nearest the player's puzzle rating.
pub async fn next(
    State(state): State<AppState>,
    identity: Identity,
    Path(key): Path<String>,
) -> ApiResult<Json<Next>> {
    let kind = game_key(&key)?;
    shipped_stored(&state).await?;
    let game = kind.descriptor().key;
    let mine = state.store.puzzle_rating(&identity.user_id, game).await?;
    let found = state
        .store
        .next_puzzle(game, &identity.user_id, mine.rating)
        .await?;
    let puzzle = match found {
        Some(p) => Some(view_of(&state, p, Some(&identity.user_id)).await?),
        None => None,
    };
    Ok(Json(Next {
        puzzle,
        rating: mine.into(),
    }))
}

/// `GET /api/puzzles/{id}`: one puzzle (with its explanation once the asker tried it).
pub async fn get(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<PuzzleView>> {
    let me = Identity::from_headers(&state, &headers).await?;
    let p = found(&state, &id).await?;
    Ok(Json(
        view_of(&state, p, me.as_ref().map(|m| m.user_id.as_str())).await?,
    ))
}

async fn found(state: &AppState, id: &str) -> ApiResult<PuzzleRow> {
    // A shipped puzzle's link opened while this instance stores them is no unknown puzzle.
    shipped_stored(state).await?;
    let plausible = id.len() <= 64 && id.chars().all(|c| c.is_ascii_hexdigit());
    let row = if plausible {
        state.store.puzzle(id).await?
    } else {
        None
    };
    row.ok_or_else(|| ApiError::not_found("no puzzle with that id"))
}

/// `GET /api/puzzles/{game}/daily`: the day's puzzle of a game (the same for everyone all
/// day, UTC), with the asker's try if any; `null` while the game has none.
pub async fn daily(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(key): Path<String>,
) -> ApiResult<Json<Option<PuzzleView>>> {
    let kind = game_key(&key)?;
    let game = kind.descriptor().key;
    shipped_stored(&state).await?;
    let count = state.store.puzzle_count(game).await?;
    if count == 0 {
        return Ok(Json(None));
    }
    let day = crate::http::daily::utc_day(crate::live::daily_embargo::now(&state.live));
    let index = rating::day_index(&day, game, count);
    let Some(p) = state.store.puzzle_at(game, index).await? else {
        return Ok(Json(None));
    };
    let me = Identity::from_headers(&state, &headers).await?;
    Ok(Json(Some(
        view_of(&state, p, me.as_ref().map(|m| m.user_id.as_str())).await?,
    )))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Try {
    #[serde(rename = "move")]
    pub mv: String,
}

/// `POST /api/puzzles/{id}/attempt`'s answer.
#[derive(Serialize)]
pub struct Tried {
    pub solved: bool,
    /// Whether this try moved the ratings: only a player's first try of a puzzle does.
    pub rated: bool,
    #[serde(rename = "move")]
    pub mv: String,
    pub explanation: Explanation,
    /// The player's puzzle rating in the game before and after, and the puzzle's.
    pub rating_before: Rating,
    pub rating_after: Rating,
    pub puzzle_before: Rating,
    pub puzzle_after: Rating,
}

/// `POST /api/puzzles/{id}/attempt` `{"move"}`: solved (the move is one of the accepted ones)
/// or failed, the explanation, and on the player's first try of it both ratings moved
/// (Glicko-2: the player won or lost a game against the puzzle). A move that is not legal in
/// the puzzle's position is refused (`bad_request`) and counts for nothing.
pub async fn attempt(
    State(state): State<AppState>,
    identity: Identity,
    Path(id): Path<String>,
    Json(t): Json<Try>,
) -> ApiResult<Json<Tried>> {
    let p = found(&state, &id).await?;
    let position: Value = serde_json::from_str(&p.position).map_err(ApiError::internal)?;
    let legal = position["legal"].as_array().cloned().unwrap_or_default();
    if !legal
        .iter()
        .any(|m| m["text"].as_str() == Some(t.mv.as_str()))
    {
        return Err(ApiError::bad_request(
            "that move is not one of the position's legal moves",
        ));
    }
    let solved = p.solutions.contains(&t.mv);
    let before = state
        .store
        .puzzle_rating(&identity.user_id, &p.game)
        .await?;
    let already = state.store.puzzle_attempt(&identity.user_id, &p.id).await?;
    let (player_after, puzzle_after) = rating::after_try(before, p.rating, solved);
    let rated = already.is_none()
        && state
            .store
            .record_puzzle_attempt(AttemptWrite {
                user: identity.user_id.clone(),
                puzzle: p.id.clone(),
                game: p.game.clone(),
                solved,
                mv: t.mv.clone(),
                player_before: before,
                player_after,
                puzzle_after,
                at: crate::wall_clock::now_ms(),
            })
            .await?;
    let (rating_after, puzzle_now) = if rated {
        (player_after, puzzle_after)
    } else {
        (before, p.rating)
    };
    Ok(Json(Tried {
        solved,
        rated,
        mv: t.mv,
        explanation: explanation(&p),
        rating_before: before.into(),
        rating_after: rating_after.into(),
        puzzle_before: p.rating.into(),
        puzzle_after: puzzle_now.into(),
    }))
}

/// `GET /api/puzzles/{game}/history`'s answer.
#[derive(Serialize)]
pub struct History {
    pub rating: Rating,
    pub attempts: Vec<AttemptRow>,
}

/// `GET /api/puzzles/{game}/history`: the player's puzzle rating and their last 50 first
/// tries, newest first.
pub async fn history(
    State(state): State<AppState>,
    identity: Identity,
    Path(key): Path<String>,
) -> ApiResult<Json<History>> {
    let game = game_key(&key)?.descriptor().key;
    let rating = state.store.puzzle_rating(&identity.user_id, game).await?;
    let attempts = state
        .store
        .puzzle_history(&identity.user_id, game, 50)
        .await?;
    Ok(Json(History {
        rating: rating.into(),
        attempts,
    }))
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptOut {
    pub opt_out: bool,
}

/// `GET /api/puzzles/opt-out`: whether the asker's games are kept out of the server's miner.
pub async fn get_opt_out(
    State(state): State<AppState>,
    identity: Identity,
) -> ApiResult<Json<OptOut>> {
    let opt_out = state.store.puzzle_opt_out(&identity.user_id).await?;
    Ok(Json(OptOut { opt_out }))
}

/// `PUT /api/puzzles/opt-out` `{"opt_out"}`: keeps the asker's finished games out of the
/// miner from now on (puzzles already made stay: they show no player).
pub async fn put_opt_out(
    State(state): State<AppState>,
    identity: Identity,
    Json(o): Json<OptOut>,
) -> ApiResult<Json<OptOut>> {
    state
        .store
        .set_puzzle_opt_out(&identity.user_id, o.opt_out)
        .await?;
    Ok(Json(o))
}
