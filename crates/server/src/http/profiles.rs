//! Public faces of players: a profile per account (ratings per game, best solo scores, recent
//! games) and a rating leaderboard per game.
use crate::AppState;
use crate::db::error::StoreError;
use crate::db::ratings::BOT_PREFIX;
use crate::db::rows::{UserRow, corrupt};
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use axum::Json;
use axum::extract::{Path, Query, State};
use pyramidion_ai::level::BotLevel;
use pyramidion_games::GameKind;
use serde::Serialize;
use serde_json::Value;
use sqlx::Row;
use std::collections::BTreeMap;

/// Games shown on a profile.
const RECENT_GAMES: usize = 20;
/// Players listed on a leaderboard.
const LEADERBOARD_SIZE: i64 = 100;

fn db(e: sqlx::Error) -> ApiError {
    ApiError::database(e)
}

pub(crate) use crate::social::lookup::user_by_id_or_name;

/// `?before=` (the `next` of the previous page) and `?limit=`: a page of recent games.
#[derive(serde::Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct GamesPage {
    #[serde(default)]
    pub before: Option<String>,
    #[serde(default)]
    pub limit: Option<usize>,
}

/// A player's public profile.
#[derive(Serialize)]
pub struct Profile {
    pub id: String,
    pub name: String,
    pub guest: bool,
    /// Per game played rated, by game key.
    pub ratings: Vec<GameRating>,
    /// Per solo mode (a one-seat game's options) played to the end.
    pub solo_bests: Vec<SoloBest>,
    /// A page of recent games, as history entries.
    pub recent: Vec<crate::http::history::HistoryEntry>,
    /// The `before` of the next page, when there may be more.
    pub next: Option<String>,
}

/// A player's rating for one game (rounded), and whether it is still provisional.
#[derive(Serialize)]
pub struct GameRating {
    pub game: GameKind,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
    pub provisional: bool,
}

/// A player's best score in one solo mode, with the games played and won there.
#[derive(Serialize)]
pub struct SoloBest {
    pub game: GameKind,
    pub options: Value,
    pub best: i64,
    pub games: usize,
    pub wins: usize,
}

/// A game's rating leaderboard.
#[derive(Serialize)]
pub struct RatingBoard {
    pub game: GameKind,
    pub players: Vec<BoardEntry>,
}

/// A rated player on a leaderboard: an account or a bot level, with its rating (rounded).
#[derive(Serialize)]
pub struct BoardEntry {
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
    #[serde(flatten)]
    pub who: RatedPlayer,
}

/// Who holds a rating: a bot level (`bot`) or an account (`user`, `name`).
#[derive(Serialize)]
#[serde(untagged)]
pub enum RatedPlayer {
    Bot { bot: BotLevel },
    Account { user: String, name: Option<String> },
}

/// `GET /api/users/{name or id}[?before=CURSOR&limit=N]`: the public profile, with one page
/// of recent games (unlisted ones only to their players).
pub async fn profile(
    State(state): State<AppState>,
    Path(key): Path<String>,
    Query(page): Query<GamesPage>,
    headers: axum::http::HeaderMap,
) -> ApiResult<Json<Profile>> {
    let id = user_by_id_or_name(&state, &key).await?;
    let UserRow { name, guest, .. } = state
        .store
        .user(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("no such player"))?;
    let ratings: Vec<GameRating> = sqlx::query(
        "SELECT game, rating, deviation, games FROM ratings WHERE player = $1 ORDER BY game",
    )
    .bind(&id)
    .fetch_all(&mut *state.store.read().await?)
    .await
    .map_err(db)?
    .iter()
    .map(|r| -> Result<GameRating, StoreError> {
        Ok(GameRating {
            game: r
                .try_get::<String, _>("game")?
                .parse()
                .map_err(|e| corrupt("a stored rating's game", e))?,
            rating: r.try_get::<f64, _>("rating")?.round(),
            deviation: r.try_get::<f64, _>("deviation")?.round(),
            games: r.try_get("games")?,
            provisional: r.try_get::<f64, _>("deviation")?
                > crate::db::ratings::PROVISIONAL_DEVIATION,
        })
    })
    .collect::<Result<_, _>>()?;
    let games = state.store.games_of_user(&id).await?;
    // Best score per solo mode (a one-seat game's options), with games played and won; in
    // the order of the game's key, then of the options' text.
    let mut solo: BTreeMap<(&'static str, String), SoloBest> = BTreeMap::new();
    let mut recent = Vec::new();
    // A daily game is nobody's, its score included, until its day is over for everyone.
    let embargoed = crate::live::daily_embargo::embargoed_games_of(&state.live, &id).await?;
    for row in &games {
        if embargoed.contains(&row.id) {
            continue;
        }
        let result: Option<Value> = row
            .result
            .as_deref()
            .and_then(|r| serde_json::from_str(r).ok());
        let options: Value = serde_json::from_str(&row.options).unwrap_or(Value::Null);
        // One seat: a solo game (every game's options carry `players`).
        let alone = options["players"] == 1;
        if let (true, crate::game_status::GameStatus::Finished, Some(result)) =
            (alone, row.status, &result)
        {
            let entry = solo
                .entry((row.kind.key(), options.to_string()))
                .or_insert_with(|| SoloBest {
                    game: row.kind,
                    options: options.clone(),
                    best: i64::MIN,
                    games: 0,
                    wins: 0,
                });
            if let Some(score) = result["scores"][0].as_i64() {
                entry.best = entry.best.max(score);
            }
            entry.games += 1;
            let ranks = crate::live::endings::stored_ranks(result).unwrap_or_default();
            entry.wins += usize::from(ranks.first() == Some(&0));
        }
    }
    let viewer = crate::identity::Identity::from_headers(&state, &headers).await?;
    let limit = page
        .limit
        .unwrap_or(RECENT_GAMES)
        .clamp(1, crate::live::visibility::MAX_PAGE);
    let before = crate::live::visibility::parse_cursor(page.before.as_deref())?;
    let rows = crate::live::visibility::public_games_page(
        &state.live,
        &id,
        viewer.as_ref().map(|v| v.user_id.as_str()),
        limit,
        before,
    )
    .await?;
    let next = crate::live::visibility::next_cursor(&rows, limit);
    for row in rows.iter().filter(|r| !embargoed.contains(&r.id)) {
        let seats = state.store.seats(&row.id).await?;
        recent.push(crate::http::history::entry(&state, row, &seats, &id, None).await?);
    }
    let solo_bests = solo.into_values().collect();
    Ok(Json(Profile {
        name: crate::identity::display_name(&id, name.as_deref()),
        id,
        guest,
        ratings,
        solo_bests,
        recent,
        next,
    }))
}

/// `GET /api/leaderboards/{game}`: the best-rated players of a game, accounts and bot levels
/// (guests are temporary identities and are not listed, nor are provisional ratings: see
/// `ratings`), highest rating first; ties by more games, then by id.
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(game): Path<String>,
) -> ApiResult<Json<RatingBoard>> {
    let kind: GameKind = game.parse().map_err(|e: pyramidion_games::UnknownGame| {
        ApiError::with_status(
            axum::http::StatusCode::NOT_FOUND,
            ApiErrorCode::UnknownGame,
            e.to_string(),
        )
    })?;
    let rows = sqlx::query(
        "SELECT ratings.player, ratings.rating, ratings.deviation, ratings.games, users.name
           FROM ratings LEFT JOIN users ON users.id = ratings.player
          WHERE ratings.game = $1 AND (ratings.player LIKE 'bot:%' OR users.guest = 0)
            AND ratings.deviation <= $3
          ORDER BY ratings.rating DESC, ratings.games DESC, ratings.player
          LIMIT $2",
    )
    .bind(kind.key())
    .bind(LEADERBOARD_SIZE)
    .bind(crate::db::ratings::PROVISIONAL_DEVIATION)
    .fetch_all(&mut *state.store.read().await?)
    .await
    .map_err(db)?;
    let mut players = Vec::with_capacity(rows.len());
    for r in &rows {
        let player: String = r.try_get("player").map_err(db)?;
        let who = match player.strip_prefix(BOT_PREFIX) {
            Some(level) => RatedPlayer::Bot {
                bot: level
                    .parse()
                    .map_err(|e| corrupt("a stored rating's bot level", e))?,
            },
            None => RatedPlayer::Account {
                name: r.try_get("name").map_err(db)?,
                user: player,
            },
        };
        players.push(BoardEntry {
            rating: r.try_get::<f64, _>("rating").map_err(db)?.round(),
            deviation: r.try_get::<f64, _>("deviation").map_err(db)?.round(),
            games: r.try_get("games").map_err(db)?,
            who,
        });
    }
    Ok(Json(RatingBoard {
        game: kind,
        players,
    }))
}
