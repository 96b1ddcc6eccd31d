//! Private notes per game (issue 46 item 10, as Board Game Arena and lichess keep them): a
//! player of a game writes what they want to remember beside its board — a plan, what an
//! opponent took — and nobody else ever reads it, not the other players, not spectators, not
//! the game's record or replay. One note per player and game; an empty text deletes it.
use crate::AppState;
use crate::db::store::Store;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::identity::Identity;
use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use sqlx::Row;

/// Longest note, in characters.
pub const MAX_NOTE_CHARS: usize = 2000;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Note {
    pub text: String,
}

impl Store {
    /// `user`'s note on `game` (empty when none).
    async fn note(&self, game: &str, user: &str) -> crate::db::error::Result<String> {
        let row = sqlx::query("SELECT text FROM game_notes WHERE game_id = $1 AND user_id = $2")
            .bind(game)
            .bind(user)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        Ok(match row {
            Some(r) => r.try_get("text")?,
            None => String::new(),
        })
    }

    /// Keeps `text` as `user`'s note on `game`, durably (through the writer) before the
    /// answer; an empty text deletes it.
    async fn set_note(
        &self,
        game: &str,
        user: &str,
        text: &str,
        at: i64,
    ) -> crate::db::error::Result<()> {
        let query = if text.is_empty() {
            sqlx::query("DELETE FROM game_notes WHERE game_id = $1 AND user_id = $2")
                .bind(game.to_string())
                .bind(user.to_string())
        } else {
            sqlx::query(
                "INSERT INTO game_notes (game_id, user_id, text, updated_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game_id, user_id) DO UPDATE SET text = $3, updated_at = $4",
            )
            .bind(game.to_string())
            .bind(user.to_string())
            .bind(text.to_string())
            .bind(at)
        };
        self.writer.execute(query).await
    }
}

/// The game `id` if `identity` holds a seat of it: only its players keep notes on it.
async fn players_game(state: &AppState, id: &str, identity: &Identity) -> ApiResult<()> {
    let known = crate::live::visibility::plausible_id(id) && state.store.game(id).await?.is_some();
    if !known {
        return Err(ApiError::new(
            ApiErrorCode::NotFound,
            "no game with that id",
        ));
    }
    let seated = state
        .store
        .seats(id)
        .await?
        .iter()
        .any(|s| matches!(s, crate::db::rows::SeatKind::Human(u) if *u == identity.user_id));
    if !seated {
        return Err(ApiError::new(
            ApiErrorCode::NotSeated,
            "only the players of a game keep notes on it",
        ));
    }
    Ok(())
}

/// `GET /api/games/{id}/note`: the asker's own note on a game they play or played.
pub async fn get_note(
    State(state): State<AppState>,
    identity: Identity,
    Path(id): Path<String>,
) -> ApiResult<Json<Note>> {
    players_game(&state, &id, &identity).await?;
    let text = state.store.note(&id, &identity.user_id).await?;
    Ok(Json(Note { text }))
}

/// `PUT /api/games/{id}/note` `{"text"}`: keeps the asker's note (trimmed at the end; empty
/// deletes it), stored before the answer.
pub async fn put_note(
    State(state): State<AppState>,
    identity: Identity,
    Path(id): Path<String>,
    Json(note): Json<Note>,
) -> ApiResult<Json<Note>> {
    players_game(&state, &id, &identity).await?;
    let text = note.text.trim_end().to_string();
    if text.chars().count() > MAX_NOTE_CHARS {
        return Err(ApiError::new(
            ApiErrorCode::NoteTooLong,
            format!("a note has at most {MAX_NOTE_CHARS} characters"),
        ));
    }
    state
        .store
        .set_note(&id, &identity.user_id, &text, crate::wall_clock::now_ms())
        .await?;
    Ok(Json(Note { text }))
}
