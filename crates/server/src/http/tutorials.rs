//! Interactive tutorials (issue 48 item 1): each game's lessons, served and judged here
//! without naming a game (the lessons are the game crates' data, read through the registry).
//! A step is shown as its learner sees it (the game's view for that seat: nothing hidden
//! leaks) with its legal moves; the moves that solve it are told only once it is solved. A
//! tried move is answered with the game's error code or the points it misses, both from the
//! engine. Solved steps are kept per user (guest or account) so a tutorial resumes; nothing
//! is kept in memory, so any instance of a cluster answers.
use crate::AppState;
use crate::db::store::Store;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::identity::Identity;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use pyramidion_core::ToMove;
use pyramidion_games::tutorial::{self, Outline, Tried};
use pyramidion_games::{GameKind, MoveInfo};
use serde::{Deserialize, Serialize};
use sqlx::Row;

/// `GET /api/tutorials`: the games that have a tutorial, with their size.
#[derive(Serialize, ts_rs::TS)]
pub struct TutorialList {
    pub tutorials: Vec<TutorialSummary>,
}

#[derive(Serialize, ts_rs::TS)]
pub struct TutorialSummary {
    pub game: &'static str,
    pub lessons: usize,
    pub steps: usize,
}

/// `GET /api/tutorials/{game}`: the outline and every step's position.
#[derive(Serialize, ts_rs::TS)]
pub struct TutorialPage {
    #[serde(flatten)]
    #[ts(flatten)]
    pub outline: Outline,
    /// Per lesson, per step: the position as the learner sees it.
    pub positions: Vec<Vec<StepState>>,
}

/// A step's position for its learner: what a live table's state gives a seat to move.
#[derive(Serialize, ts_rs::TS)]
pub struct StepState {
    pub seat: u8,
    pub seats: u8,
    pub to_move: Option<u8>,
    /// The game's view (`import('../wire/<game key>').View`).
    #[ts(type = "unknown")]
    pub view: serde_json::Value,
    /// The learner's legal moves (the rules' list, not the step's answer).
    pub legal: Vec<MoveInfo>,
}

/// `POST …/try`'s body.
#[derive(Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    #[serde(rename = "move")]
    pub text: String,
}

/// `POST …/try`'s answer: `ok`, the verdict and its figures, and the step that follows.
#[derive(Serialize, ts_rs::TS)]
pub struct TryAnswer {
    pub ok: bool,
    #[serde(flatten)]
    #[ts(flatten)]
    pub tried: Tried,
    /// The next step (`lesson`, `step`) once this one is solved; `null` after the last.
    pub next: Option<StepRef>,
}

#[derive(Clone, Serialize, Deserialize, PartialEq, Eq, Debug, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct StepRef {
    pub lesson: String,
    pub step: String,
}

/// `GET`/`PUT /api/tutorials/{game}/progress`: the steps the user solved.
#[derive(Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    pub solved: Vec<StepRef>,
}

/// Most moves' text a try may carry.
const MAX_MOVE_CHARS: usize = 200;

fn kind_of(game: &str) -> ApiResult<(GameKind, Outline)> {
    let kind: GameKind = game.parse().map_err(|e: pyramidion_games::UnknownGame| {
        ApiError::with_status(
            axum::http::StatusCode::NOT_FOUND,
            ApiErrorCode::UnknownGame,
            e.to_string(),
        )
    })?;
    let outline = tutorial::outline_of(kind)
        .ok_or_else(|| ApiError::not_found("this game has no tutorial"))?;
    Ok((kind, outline))
}

fn step_keys(outline: &Outline) -> Vec<StepRef> {
    outline
        .lessons
        .iter()
        .flat_map(|l| {
            l.steps.iter().map(|s| StepRef {
                lesson: l.key.to_string(),
                step: s.key.to_string(),
            })
        })
        .collect()
}

pub async fn list() -> Json<TutorialList> {
    let tutorials = tutorial::games_with_tutorials()
        .into_iter()
        .filter_map(tutorial::outline_of)
        .map(|o| TutorialSummary {
            game: o.game,
            lessons: o.lessons.len(),
            steps: o.lessons.iter().map(|l| l.steps.len()).sum(),
        })
        .collect();
    Json(TutorialList { tutorials })
}

fn step_state(kind: GameKind, lesson: &str, step: &str) -> ApiResult<StepState> {
    let p = tutorial::position(kind, lesson, step).map_err(ApiError::internal)?;
    let mine = p.game.to_move() == ToMove::Seat(p.seat);
    Ok(StepState {
        seat: p.seat.0,
        seats: p.game.seats(),
        to_move: match p.game.to_move() {
            ToMove::Seat(s) => Some(s.0),
            ToMove::Over => None,
        },
        view: p.game.view(Some(p.seat)),
        legal: if mine {
            p.game.legal_moves()
        } else {
            Vec::new()
        },
    })
}

pub async fn get(Path(game): Path<String>) -> ApiResult<Json<TutorialPage>> {
    let (kind, outline) = kind_of(&game)?;
    let positions = outline
        .lessons
        .iter()
        .map(|l| {
            l.steps
                .iter()
                .map(|s| step_state(kind, l.key, s.key))
                .collect::<ApiResult<Vec<_>>>()
        })
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(Json(TutorialPage { outline, positions }))
}

pub async fn try_move(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((game, lesson, step)): Path<(String, String, String)>,
    Json(attempt): Json<Attempt>,
) -> ApiResult<Json<TryAnswer>> {
    let (kind, outline) = kind_of(&game)?;
    if attempt.text.chars().count() > MAX_MOVE_CHARS {
        return Err(ApiError::bad_request("a move is a short text"));
    }
    let tried = tutorial::try_move(kind, &lesson, &step, &attempt.text).map_err(|e| {
        if e.code == "not_found" {
            ApiError::not_found(e.message)
        } else {
            ApiError::internal(e)
        }
    })?;
    let ok = tried.accepted.is_some();
    let keys = step_keys(&outline);
    let here = StepRef {
        lesson: lesson.clone(),
        step: step.clone(),
    };
    let next = if ok {
        keys.iter()
            .position(|k| *k == here)
            .and_then(|i| keys.get(i + 1))
            .cloned()
    } else {
        None
    };
    if ok && let Some(me) = Identity::from_headers(&state, &headers).await? {
        state
            .store
            .solve_step(
                outline.game,
                &me.user_id,
                &here,
                crate::wall_clock::now_ms(),
            )
            .await?;
    }
    Ok(Json(TryAnswer { ok, tried, next }))
}

pub async fn get_progress(
    State(state): State<AppState>,
    identity: Identity,
    Path(game): Path<String>,
) -> ApiResult<Json<Progress>> {
    let (_, outline) = kind_of(&game)?;
    let solved = state.store.solved(outline.game, &identity.user_id).await?;
    // In the tutorial's order; steps a later version removed are left out.
    let solved = step_keys(&outline)
        .into_iter()
        .filter(|k| solved.contains(k))
        .collect();
    Ok(Json(Progress { solved }))
}

/// `PUT …/progress` `{"solved": [...]}`: replaces the user's progress (e.g. `[]` to start
/// again); every step named must be one of the tutorial's.
pub async fn put_progress(
    State(state): State<AppState>,
    identity: Identity,
    Path(game): Path<String>,
    Json(progress): Json<Progress>,
) -> ApiResult<Json<Progress>> {
    let (_, outline) = kind_of(&game)?;
    let keys = step_keys(&outline);
    if let Some(k) = progress.solved.iter().find(|k| !keys.contains(k)) {
        return Err(ApiError::bad_request(format!(
            "no step {}/{} in this tutorial",
            k.lesson, k.step
        )));
    }
    state
        .store
        .set_solved(
            outline.game,
            &identity.user_id,
            &progress.solved,
            crate::wall_clock::now_ms(),
        )
        .await?;
    Ok(Json(progress))
}

/// Keeps one solved step (once).
const SOLVE_STEP: &str = "INSERT INTO tutorial_progress (user_id, game, lesson, step, solved_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, game, lesson, step) DO NOTHING";

impl Store {
    /// The steps of `game`'s tutorial that `user` solved.
    async fn solved(&self, game: &str, user: &str) -> crate::db::error::Result<Vec<StepRef>> {
        let rows = sqlx::query(
            "SELECT lesson, step FROM tutorial_progress WHERE user_id = $1 AND game = $2",
        )
        .bind(user)
        .bind(game)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(StepRef {
                    lesson: r.try_get("lesson")?,
                    step: r.try_get("step")?,
                })
            })
            .collect()
    }

    /// Keeps that `user` solved `step`, durably (through the writer) before the answer.
    async fn solve_step(
        &self,
        game: &str,
        user: &str,
        step: &StepRef,
        at: i64,
    ) -> crate::db::error::Result<()> {
        let query = sqlx::query(SOLVE_STEP)
            .bind(user.to_string())
            .bind(game.to_string())
            .bind(step.lesson.clone())
            .bind(step.step.clone())
            .bind(at);
        self.writer.execute(query).await
    }

    /// Replaces `user`'s progress in `game`'s tutorial with `solved`, in one job of the
    /// writer (one savepoint, one commit): another instance reading meanwhile sees the old
    /// progress or the new one, never the cleared list half refilled.
    async fn set_solved(
        &self,
        game: &str,
        user: &str,
        solved: &[StepRef],
        at: i64,
    ) -> crate::db::error::Result<()> {
        let (game, user, solved) = (game.to_string(), user.to_string(), solved.to_vec());
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    sqlx::query("DELETE FROM tutorial_progress WHERE user_id = $1 AND game = $2")
                        .bind(user.clone())
                        .bind(game.clone())
                        .execute(&mut *c)
                        .await?;
                    for step in &solved {
                        sqlx::query(SOLVE_STEP)
                            .bind(user.clone())
                            .bind(game.clone())
                            .bind(step.lesson.clone())
                            .bind(step.step.clone())
                            .bind(at)
                            .execute(&mut *c)
                            .await?;
                    }
                    Ok(())
                })
            })
            .await
    }
}
