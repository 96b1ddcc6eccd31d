//! `GET /api/users/{key}/stats`: what makes a profile worth visiting (issue 49 item 4) beside
//! `crate::http::profiles`: the rating graph's points per game (from `rating_changes`, which
//! keeps every rated game's rating before and after), statistics per game and the
//! fair-play record (`crate::social::player_stats`), and the player's friends count and whether the
//! viewer follows them. Also the player search (`GET /api/users?q=`).
use crate::AppState;
use crate::db::error::Result;
use crate::db::store::Store;
use crate::error::ApiResult;
use crate::identity::Identity;
use crate::social::player_stats::{Played, Stats, compute};
use axum::Json;
use axum::extract::{Path, Query, State};
use serde::{Deserialize, Serialize};
use sqlx::Row;

/// Players a search lists.
const FOUND: i64 = 20;

/// A point of a rating graph: the rating (rounded) after a rated game that ended at `at`.
#[derive(Serialize)]
pub struct RatingPoint {
    pub at: i64,
    pub rating: f64,
    pub game_id: String,
}

/// A game's rating graph: the rating before the first rated game, then after each.
#[derive(Serialize)]
pub struct RatingHistory {
    pub game: String,
    pub start: f64,
    pub points: Vec<RatingPoint>,
}

#[derive(Serialize)]
pub struct ProfileStats {
    pub user: String,
    #[serde(flatten)]
    pub stats: Stats,
    pub rating_history: Vec<RatingHistory>,
    /// Accounts that follow the player.
    pub followers: i64,
    /// Whether the viewer follows the player.
    pub followed: bool,
    /// Whether the player is on the site now: told to those who follow them (and to the
    /// player), as their friends list tells it; null to anyone else.
    pub online: Option<bool>,
}

impl Store {
    /// `user`'s finished games, each with the first seat they held.
    pub async fn finished_games_of(&self, user: &str) -> Result<Vec<(String, Played)>> {
        let rows = sqlx::query(
            "SELECT g.id, g.kind, g.options, g.result, MIN(s.seat) AS seat
               FROM games g JOIN seats s ON s.game_id = g.id
              WHERE s.user_id = $1 AND s.kind = 'human' AND g.status = 'finished'
                AND g.result IS NOT NULL
              GROUP BY g.id, g.kind, g.options, g.result",
        )
        .bind(user)
        .fetch_all(&mut *self.read().await?)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let options: String = r.try_get("options")?;
            let result: String = r.try_get("result")?;
            out.push((
                r.try_get("id")?,
                Played {
                    game: r.try_get("kind")?,
                    options: serde_json::from_str(&options)?,
                    result: serde_json::from_str(&result)?,
                    seat: r.try_get::<i64, _>("seat")? as usize,
                },
            ));
        }
        Ok(out)
    }

    /// `player`'s rating changes, game by game, oldest first: (game key, game id, ended at,
    /// before, after).
    pub async fn rating_changes_of(&self, player: &str) -> Result<Vec<RatingRow>> {
        let rows = sqlx::query(
            "SELECT g.kind, rc.game_id, COALESCE(g.finished_at, g.created_at) AS at,
                    rc.rating_before, rc.rating_after, rc.seat
               FROM rating_changes rc JOIN games g ON g.id = rc.game_id
              WHERE rc.player = $1
              ORDER BY at, rc.game_id, rc.seat",
        )
        .bind(player)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingRow {
                    game: r.try_get("kind")?,
                    game_id: r.try_get("game_id")?,
                    at: r.try_get("at")?,
                    before: r.try_get("rating_before")?,
                    after: r.try_get("rating_after")?,
                })
            })
            .collect()
    }
}

/// One rated game of a player.
pub struct RatingRow {
    pub game: String,
    pub game_id: String,
    pub at: i64,
    pub before: f64,
    pub after: f64,
}

/// Rating graphs per game from a player's rating changes (oldest first); a player holding
/// several seats of one game has one point for it.
pub fn histories(rows: Vec<RatingRow>) -> Vec<RatingHistory> {
    let mut out: Vec<RatingHistory> = Vec::new();
    for r in rows {
        let i = match out.iter().position(|h| h.game == r.game) {
            Some(i) => i,
            None => {
                out.push(RatingHistory {
                    game: r.game.clone(),
                    start: r.before.round(),
                    points: Vec::new(),
                });
                out.len() - 1
            }
        };
        let points = &mut out[i].points;
        if points.last().is_some_and(|p| p.game_id == r.game_id) {
            continue;
        }
        points.push(RatingPoint {
            at: r.at,
            rating: r.after.round(),
            game_id: r.game_id,
        });
    }
    out.sort_by(|a, b| a.game.cmp(&b.game));
    out
}

/// `GET /api/users/{key}/stats`.
pub async fn stats(
    State(state): State<AppState>,
    Path(key): Path<String>,
    headers: axum::http::HeaderMap,
) -> ApiResult<Json<ProfileStats>> {
    let id = crate::social::lookup::user_by_id_or_name(&state, &key).await?;
    // A daily game is nobody's, its score included, until its day is over for everyone.
    let embargoed = crate::live::daily_embargo::embargoed_games_of(&state.live, &id).await?;
    let played: Vec<Played> = state
        .store
        .finished_games_of(&id)
        .await?
        .into_iter()
        .filter(|(game, _)| !embargoed.contains(game))
        .map(|(_, p)| p)
        .collect();
    let viewer = Identity::from_headers(&state, &headers).await?;
    let followed = match &viewer {
        Some(v) => state.store.follows(&v.user_id, &id).await?,
        None => false,
    };
    let own = viewer.as_ref().is_some_and(|v| v.user_id == id);
    let online = if followed || own {
        Some(crate::http::friends::on_site(&state, &id).await)
    } else {
        None
    };
    Ok(Json(ProfileStats {
        stats: compute(&played),
        rating_history: histories(state.store.rating_changes_of(&id).await?),
        followers: state.store.followers_count(&id).await?,
        followed,
        online,
        user: id,
    }))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Search {
    #[serde(default)]
    q: String,
}

#[derive(Serialize)]
pub struct Found {
    pub user: String,
    pub name: String,
}

#[derive(Serialize)]
pub struct SearchAnswer {
    pub players: Vec<Found>,
}

/// `GET /api/users?q=PREFIX`: accounts whose name (or a look-alike) starts with the prefix
/// (at least one character), at most 20, by name.
pub async fn search(
    State(state): State<AppState>,
    Query(search): Query<Search>,
) -> ApiResult<Json<SearchAnswer>> {
    let q = search.q.trim();
    // PostgreSQL cannot hold a NUL character, and no name has one.
    if q.is_empty() || q.contains('\0') {
        return Ok(Json(SearchAnswer { players: vec![] }));
    }
    let players = state
        .store
        .search_accounts(q, FOUND)
        .await?
        .into_iter()
        .map(|(user, name)| Found { user, name })
        .collect();
    Ok(Json(SearchAnswer { players }))
}
