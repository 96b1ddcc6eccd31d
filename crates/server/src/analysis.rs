//! "Analyse": a finished game's analysis (`pyramidion_ai::analysis`, what `pyramidion analyse`
//! prints) queued on the bot pool and stored, for the replay to show each move's points lost.
//!
//! The work is cut into decisions, one after the other, each thought in slices of bounded CPU
//! time as the search bots' moves are (`bot_pool`), so that an analysis never holds a pool
//! thread for long. The budget
//! per decision is the judge's (4 × the game's `max`), or the operator's budget per game
//! (`serve --analysis-budget`) shared among its decisions where that is less.
//!
//! A game's players may always ask for its analysis; any other signed-in player may ask for
//! the analysis of a finished public (listed) game, up to `serve --analysis-quota` a day (a
//! counter in memory: a restart forgets it, which costs at most one more day's quota).
//!
//! Analyses wait in the pool's lowest lane (`fair_queue`): a chunk runs after the bot moves
//! that wait, but at least once every `fair_queue::ANALYSIS_SHARE` bot jobs, so that busy bot
//! tables do not starve it. While queued, the API says where it is ([`Progress`]: waiting
//! with so many ahead, or running with its plies done, and an estimate). A user has at most `Limits::analyses_per_user` analyses queued or running
//! (`429 too_many_analyses`) and the server `Limits::max_analyses` (`503
//! analysis_queue_full`). An analysis a restart cut short starts again when the server starts,
//! within those bounds and at most [`MAX_ATTEMPTS`] times in all; else it is marked `failed`
//! (its player may ask again).
use crate::AppState;
use crate::analysis_status::AnalysisStatus;
use crate::db::rows::SeatKind;
use crate::error::{ApiError, ApiResult};
use crate::error_code::ApiErrorCode;
use crate::identity::Identity;
use crate::live::bot_pool::{BotPool, Ticket};
use crate::live::fair_queue::Lane;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use pyramidion_ai::analysis::{Analysis, AnalysisConfig};
use pyramidion_core::record::Record;
use pyramidion_games::GameKind;
use pyramidion_games::analysis::{AnyJudging, decision_count, judging_at};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Playouts (search iterations or futures) of an analysis between two looks at its slice's
/// CPU time: as the search bots' iterations (`bot_pool`), a few milliseconds at most.
pub(crate) const PLAYOUTS_PER_LOOK: u32 = 8;

/// Analyses asked today by players of games they did not play in: (user, UTC day) → count.
fn asked_today() -> &'static Mutex<std::collections::HashMap<String, (i64, u32)>> {
    static ASKED: OnceLock<Mutex<std::collections::HashMap<String, (i64, u32)>>> = OnceLock::new();
    ASKED.get_or_init(Mutex::default)
}

/// Counts one analysis asked by `user` on `day`; `false` (and nothing counted) when the
/// day's `quota` is spent.
fn take_quota(user: &str, day: i64, quota: u32) -> bool {
    let mut asked = asked_today().lock().unwrap_or_else(|p| p.into_inner());
    let entry = asked.entry(user.to_string()).or_insert((day, 0));
    if entry.0 != day {
        *entry = (day, 0);
    }
    if entry.1 >= quota {
        return false;
    }
    entry.1 += 1;
    true
}

/// Starts of one analysis (the first and those after restarts) before it is given up.
pub const MAX_ATTEMPTS: i64 = 3;

/// Games whose analysis is queued or runs in this process, with the user who asked and how
/// far each is (a `queued` row whose game is not here was cut short by a restart:
/// [`resume_queued`] starts it again when the server starts), and how long the last ones
/// took, for estimates.
#[derive(Default)]
pub struct Queue {
    running: Mutex<Analyses>,
}

/// Analyses recent enough to estimate from.
const RECENT: usize = 20;

#[derive(Default)]
struct Analyses {
    games: HashMap<String, Entry>,
    /// The order number of the next analysis asked.
    next: u64,
    /// The last [`RECENT`] analyses done here: (seconds from their first chunk to their
    /// end, plies).
    recent: std::collections::VecDeque<(f64, usize)>,
}

/// An analysis queued or running in this process.
struct Entry {
    owner: String,
    /// The asker's client address (its `address_key`), when asked over HTTP.
    address: Option<std::net::IpAddr>,
    /// Its order of asking: analyses asked earlier are ahead of it.
    asked: u64,
    /// When its first chunk started on the bot pool; `None` while it waits.
    started: Option<Instant>,
    /// Plies analysed, out of `plies` (0 until its record is read).
    done: usize,
    plies: usize,
}

/// Whether an analysis waits for its first turn on the bot pool or has had it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueState {
    Queued,
    Running,
}

/// Where an analysis queued in this process is (the API's `progress`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Progress {
    pub state: QueueState,
    /// Analyses asked before it in this process and not done yet (they share the analysis
    /// lane with it; the first chunk of each is served before its own).
    pub ahead: usize,
    /// Plies analysed so far, out of `plies`.
    pub done_plies: usize,
    pub plies: usize,
    /// Seconds until it is done, estimated from the analyses done here lately (their time per
    /// ply, from their first chunk to their end, times the plies left of this one and of
    /// those ahead while it waits); `None` until one was done since the server started.
    pub estimate_s: Option<u64>,
}

/// Why an analysis was not queued.
enum Refused {
    /// It is queued or running already.
    Already,
    PerUser(usize),
    /// The asker's client address has so many queued or running (guests made from one
    /// address are one asker here).
    PerAddress(usize),
    Full(usize),
}

impl Queue {
    fn lock(&self) -> std::sync::MutexGuard<'_, Analyses> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes a place for `game`'s analysis asked by `owner`, within the limits.
    fn admit(
        &self,
        game: &str,
        owner: &str,
        address: Option<std::net::IpAddr>,
        limits: &crate::Limits,
    ) -> Result<(), Refused> {
        let mut analyses = self.lock();
        if analyses.games.contains_key(game) {
            return Err(Refused::Already);
        }
        if analyses.games.values().filter(|e| e.owner == owner).count() >= limits.analyses_per_user
        {
            return Err(Refused::PerUser(limits.analyses_per_user));
        }
        let address = address.map(crate::rate_limits::address_key);
        if address.is_some()
            && analyses
                .games
                .values()
                .filter(|e| e.address == address)
                .count()
                >= limits.analyses_per_address
        {
            return Err(Refused::PerAddress(limits.analyses_per_address));
        }
        if analyses.games.len() >= limits.max_analyses {
            return Err(Refused::Full(limits.max_analyses));
        }
        let asked = analyses.next;
        analyses.next += 1;
        analyses.games.insert(
            game.to_string(),
            Entry {
                owner: owner.to_string(),
                address,
                asked,
                started: None,
                done: 0,
                plies: 0,
            },
        );
        Ok(())
    }

    fn done(&self, game: &str) {
        self.lock().games.remove(game);
    }

    /// `game`'s analysis has `plies` plies to analyse.
    fn set_plies(&self, game: &str, plies: usize) {
        if let Some(e) = self.lock().games.get_mut(game) {
            e.plies = plies;
        }
    }

    /// A chunk of `game`'s analysis starts on the pool: from the first, it runs.
    fn chunk_started(&self, game: &str) {
        if let Some(e) = self.lock().games.get_mut(game) {
            e.started.get_or_insert_with(Instant::now);
        }
    }

    /// `done` plies of `game`'s analysis are analysed.
    fn advanced(&self, game: &str, done: usize) {
        if let Some(e) = self.lock().games.get_mut(game) {
            e.done = done;
        }
    }

    /// `game`'s analysis is done (and stored): its time counts for the estimates.
    fn finished(&self, game: &str) {
        let mut analyses = self.lock();
        if let Some(e) = analyses.games.remove(game)
            && let Some(started) = e.started
            && e.plies > 0
        {
            analyses
                .recent
                .push_back((started.elapsed().as_secs_f64(), e.plies));
            while analyses.recent.len() > RECENT {
                analyses.recent.pop_front();
            }
        }
    }

    /// Where `game`'s analysis is, if it is queued or running in this process.
    pub fn progress(&self, game: &str) -> Option<Progress> {
        let analyses = self.lock();
        let me = analyses.games.get(game)?;
        let ahead: Vec<&Entry> = analyses
            .games
            .values()
            .filter(|e| e.asked < me.asked)
            .collect();
        let state = if me.started.is_some() {
            QueueState::Running
        } else {
            QueueState::Queued
        };
        let (secs, plies) = analyses
            .recent
            .iter()
            .fold((0.0, 0), |(s, p), (secs, plies)| (s + secs, p + plies));
        let left = |e: &Entry| e.plies.saturating_sub(e.done);
        let plies_left = match state {
            QueueState::Running => left(me),
            QueueState::Queued => left(me) + ahead.iter().map(|e| left(e)).sum::<usize>(),
        };
        let estimate_s =
            (plies > 0).then(|| (secs / plies as f64 * plies_left as f64).ceil() as u64);
        Some(Progress {
            state,
            ahead: ahead.len(),
            done_plies: me.done,
            plies: me.plies,
            estimate_s,
        })
    }

    /// Whether `game`'s analysis is queued or running in this process.
    pub fn running(&self, game: &str) -> bool {
        self.lock().games.contains_key(game)
    }

    /// Analyses queued or running.
    pub fn len(&self) -> usize {
        self.lock().games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Refused {
    fn into_error(self) -> Option<ApiError> {
        match self {
            Refused::Already => None,
            Refused::PerUser(n) => Some(ApiError::new(
                ApiErrorCode::TooManyAnalyses,
                format!("you have {n} analyses queued: wait until one is done"),
            )),
            Refused::PerAddress(n) => Some(ApiError::new(
                ApiErrorCode::TooManyAnalysesHere,
                format!("{n} analyses are queued from your address: wait until one is done"),
            )),
            Refused::Full(n) => Some(ApiError::new(
                ApiErrorCode::AnalysisQueueFull,
                format!("the server has {n} analyses queued: try again later"),
            )),
        }
    }
}

/// A game's analysis as the API gives it: its `status` (`none` when nobody asked for one,
/// `queued`, `done`, `failed`), while queued in this process where it is (`progress`:
/// waiting with the analyses ahead of it, or running with its plies done, and an estimate),
/// and once done, the analysis (the stored JSON, as it is).
#[derive(serde::Serialize)]
pub struct AnalysisAnswer {
    pub status: AnalysisStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
    pub analysis: Option<Value>,
}

impl AnalysisAnswer {
    fn queued(state: &AppState, game_id: &str) -> AnalysisAnswer {
        AnalysisAnswer {
            status: AnalysisStatus::Queued,
            progress: state.analyses.progress(game_id),
            analysis: None,
        }
    }
}

/// The stored analysis of a game; status `none` when nobody asked for one.
pub(crate) async fn stored(state: &AppState, game_id: &str) -> ApiResult<AnalysisAnswer> {
    Ok(match state.store.analysis(game_id).await? {
        None => AnalysisAnswer {
            status: AnalysisStatus::None,
            progress: None,
            analysis: None,
        },
        Some((status, result)) => AnalysisAnswer {
            status,
            // Another instance's (or one a restart cut short, until resumed): none here.
            progress: (status == AnalysisStatus::Queued)
                .then(|| state.analyses.progress(game_id))
                .flatten(),
            analysis: result.and_then(|r| serde_json::from_str::<Value>(&r).ok()),
        },
    })
}

/// `GET /api/games/{id}/analysis` (a daily game's only to its player until its day is over,
/// as its replay).
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<AnalysisAnswer>> {
    crate::live::stored_game::load(&state.live, &id).await?;
    let viewer = Identity::from_headers(&state, &headers).await?;
    crate::live::daily_embargo::embargo(
        &state.live,
        &id,
        viewer.as_ref().map(|v| v.user_id.as_str()),
    )
    .await?;
    crate::live::daily_embargo::sealed(&state.live, &id).await?;
    Ok(Json(stored(&state, &id).await?))
}

/// `POST /api/games/{id}/analysis`: queues the analysis of a finished game, asked by one of
/// its players, or by any signed-in player when the game is public (within their daily
/// quota); answers the stored one if it is done.
pub async fn request(
    State(state): State<AppState>,
    Path(id): Path<String>,
    crate::rate_limits::ClientIp(ip): crate::rate_limits::ClientIp,
    identity: Identity,
) -> ApiResult<(StatusCode, Json<AnalysisAnswer>)> {
    let (row, seats) = crate::live::stored_game::load(&state.live, &id).await?;
    let seated = seats
        .iter()
        .any(|s| matches!(s, SeatKind::Human(u) if *u == identity.user_id));
    if !seated && (!row.listed || identity.guest) {
        return Err(ApiError::conflict(
            ApiErrorCode::NotSeated,
            "only the game's players, or any signed-in player for a public game, can ask for its analysis",
        ));
    }
    if row.status != crate::game_status::GameStatus::Finished {
        return Err(ApiError::conflict(
            ApiErrorCode::NotFinished,
            "a game is analysed once it is over",
        ));
    }
    crate::live::daily_embargo::embargo(&state.live, &id, Some(identity.user_id.as_str())).await?;
    // An analysis weighs every hidden card: a daily game's waits for its day to be over.
    crate::live::daily_embargo::sealed(&state.live, &id).await?;
    let current = stored(&state, &id).await?;
    if let AnalysisStatus::Done | AnalysisStatus::Queued = current.status {
        let code = if current.status == AnalysisStatus::Done {
            StatusCode::OK
        } else {
            StatusCode::ACCEPTED
        };
        // Already asked: nothing to count; it runs, or the server's start resumes it.
        return Ok((code, Json(current)));
    }
    let day = crate::wall_clock::now_ms().div_euclid(86_400_000);
    if !seated && !take_quota(&identity.user_id, day, state.config.analysis_daily_quota) {
        return Err(ApiError::new(
            ApiErrorCode::AnalysisQuota,
            format!(
                "at most {} analyses a day of games you did not play in",
                state.config.analysis_daily_quota
            ),
        ));
    }
    if !start(&state, &row, &identity.user_id, Some(ip), false).await? {
        return Ok((StatusCode::ACCEPTED, Json(current)));
    }
    Ok((
        StatusCode::ACCEPTED,
        Json(AnalysisAnswer::queued(&state, &id)),
    ))
}

/// Why the analyses a restart cut short cannot be looked over (each one that cannot be
/// started again is marked `failed` and is not an error here).
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error(transparent)]
    Store(#[from] crate::db::error::StoreError),
    /// Among several instances: which one runs an analysis.
    #[error(transparent)]
    Cluster(#[from] crate::cluster::error::ClusterError),
}

/// Starts again every analysis a restart cut short (called once the server is up), within
/// the limits and at most [`MAX_ATTEMPTS`] starts in all; any other is marked `failed`, so
/// nobody waits on it forever and a restart loop does not run it forever.
pub async fn resume_queued(state: &AppState) -> Result<usize, ResumeError> {
    let mut resumed = 0;
    for (id, owner, attempts) in state.store.queued_analyses().await? {
        // Among several instances: only those whose runner is gone (or never was).
        if let Some(cluster) = &state.cluster
            && (state.analyses.running(&id) || !cluster.claim_analysis(&id).await?)
        {
            continue;
        }
        let started = if attempts >= MAX_ATTEMPTS {
            Err(ApiError::internal(format!(
                "started {attempts} times already"
            )))
        } else {
            match crate::live::stored_game::load(&state.live, &id).await {
                Ok((row, _)) => start(state, &row, &owner, None, true).await,
                Err(e) => Err(e),
            }
        };
        match started {
            Ok(true) => resumed += 1,
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(game = %id, error = ?e, "cannot resume an analysis");
                state
                    .store
                    .set_analysis(&id, AnalysisStatus::Failed, None)
                    .await?;
            }
        }
    }
    Ok(resumed)
}

/// Marks the game's analysis `queued` and runs it on the bot pool; `false` if it already
/// runs in this process; an error when the limits refuse it.
async fn start(
    state: &AppState,
    row: &crate::db::rows::GameRow,
    owner: &str,
    address: Option<std::net::IpAddr>,
    resumed: bool,
) -> ApiResult<bool> {
    let id = row.id.clone();
    if let Err(refused) = state
        .analyses
        .admit(&id, owner, address, &state.config.limits)
    {
        return match refused.into_error() {
            None => Ok(false),
            Some(e) => Err(e),
        };
    }
    // Among several instances one runs an analysis: a restart (or the sweep for dead
    // instances' work) resumes it only if its runner is gone; a new one is claimed once queued.
    let claim = async || match &state.cluster {
        Some(cluster) => cluster
            .claim_analysis(&id)
            .await
            .map_err(|e| ApiError::internal(format!("{e:#}"))),
        None => Ok(true),
    };
    if resumed && !claim().await.inspect_err(|_| state.analyses.done(&id))? {
        state.analyses.done(&id);
        return Ok(false);
    }
    let prepared = async {
        let record = crate::live::stored_game::stored_record(&state.live, row).await?;
        let kind: GameKind = row.kind;
        let decisions = decision_count(&record).map_err(ApiError::internal)?;
        let config = AnalysisConfig::judge(kind.descriptor(), row.seed)
            .within(state.config.analysis_game_budget, decisions);
        state.store.queue_analysis(&id, owner, resumed).await?;
        state.analyses.set_plies(&id, record.moves.len());
        ApiResult::Ok((record, kind, config))
    };
    let (record, kind, config) = match prepared.await {
        Ok(prepared) => prepared,
        Err(e) => {
            state.analyses.done(&id);
            return Err(e);
        }
    };
    if !resumed && !claim().await.inspect_err(|_| state.analyses.done(&id))? {
        state.analyses.done(&id);
        return Ok(false);
    }
    tracing::info!(game = %id, resumed, "analysis started");
    let state = state.clone();
    let ticket = Ticket {
        lane: Lane::Analysis,
        owner: owner.to_string(),
        game: id.clone(),
    };
    tokio::spawn(async move {
        let analysed = analyse(&state.bots, &state.analyses, ticket, record, kind, config).await;
        let (status, result) = match analysed {
            Ok(analysis) => (AnalysisStatus::Done, serde_json::to_string(&analysis).ok()),
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "analysis failed");
                (AnalysisStatus::Failed, None)
            }
        };
        if let Err(e) = state.store.set_analysis(&id, status, result).await {
            tracing::error!(game = %id, error = %e, "cannot store an analysis");
        }
        if status == AnalysisStatus::Done {
            state.analyses.finished(&id);
        } else {
            state.analyses.done(&id);
        }
    });
    Ok(true)
}

/// Why an analysis could not be made.
#[derive(Debug, thiserror::Error)]
enum AnalysisFailed {
    /// The bot pool dropped the job (it panicked or the server is stopping; the log says).
    #[error("the analysis stopped (see the log)")]
    Stopped,
    /// The record does not replay.
    #[error(transparent)]
    Record(#[from] pyramidion_ai::analysis::AnalysisError),
}

/// The whole analysis, one decision after the other, each thought on the pool in slices
/// (`bot_pool::Slicing`): a decision is the judge's 4 × a `max` move, and a thread held for
/// all of it made a quick bot wait seconds (issue 54).
async fn analyse(
    bots: &BotPool,
    queue: &std::sync::Arc<Queue>,
    ticket: Ticket,
    record: Record,
    kind: GameKind,
    config: AnalysisConfig,
) -> Result<Analysis, AnalysisFailed> {
    let record = std::sync::Arc::new(record);
    let mut decisions = Vec::new();
    let mut seats = 0;
    for ply in 0..record.moves.len() {
        let shared = record.clone();
        let (mine, game) = (queue.clone(), ticket.game.clone());
        // Replayed to its ply on the first slice (on a pool thread, not a room's).
        let mut judging: Option<(AnyJudging, u8)> = None;
        let step = move || match &mut judging {
            None => {
                mine.chunk_started(&game);
                match judging_at(&shared, config, ply) {
                    Err(e) => Some(Err(e)),
                    Ok((None, n)) => Some(Ok((None, n))),
                    Ok((Some(j), n)) => {
                        judging = Some((j, n));
                        None
                    }
                }
            }
            Some((j, n)) => j.step(PLAYOUTS_PER_LOOK).map(|d| Ok((Some(d), *n))),
        };
        let (decision, n) = bots
            .run_sliced(ticket.clone(), step)
            .await
            .ok_or(AnalysisFailed::Stopped)??;
        decisions.extend(decision);
        seats = n;
        queue.advanced(&ticket.game, ply + 1);
    }
    Ok(Analysis::from_decisions(
        &record,
        config,
        kind.descriptor(),
        seats,
        decisions,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 54: with one searching thread busy with an analysis whose decisions take far
    /// more than a slice of CPU, another user's search bot is answered between its slices,
    /// while a decision is being judged.
    #[tokio::test]
    async fn a_search_bot_is_answered_between_the_slices_of_an_analysis_decision() {
        use crate::live::bot_pool::slicing_tests::{
            a_search_bot_is_answered_meanwhile, four_moves,
        };
        let pool = std::sync::Arc::new(BotPool::new(1));
        let queue = std::sync::Arc::new(Queue::default());
        let (game, record) = four_moves();
        let kind: GameKind = record.game.parse().unwrap();
        // Minutes of CPU a decision in a debug build.
        let config = AnalysisConfig {
            budget: 2_000_000,
            ..AnalysisConfig::judge(kind.descriptor(), 1)
        };
        assert!(
            queue
                .admit("analysed", "analyst", None, &crate::Limits::default())
                .is_ok()
        );
        let ticket = Ticket {
            lane: Lane::Analysis,
            owner: "analyst".into(),
            game: "analysed".into(),
        };
        let analysis = {
            let (pool, queue) = (pool.clone(), queue.clone());
            tokio::spawn(async move { analyse(&pool, &queue, ticket, record, kind, config).await })
        };
        a_search_bot_is_answered_meanwhile(&pool, &game).await;
        assert!(!analysis.is_finished(), "the analysis still thinks");
        let done = queue.progress("analysed").map(|p| p.done_plies);
        assert!(
            done.is_some_and(|d| d < 4),
            "a decision is being judged: {done:?}"
        );
        // Nobody waits for it any more: its next slice drops it.
        analysis.abort();
        while pool.waiting(Lane::Analysis) > 0 {
            tokio::task::yield_now().await;
        }
    }

    #[test]
    fn the_daily_quota_counts_per_user_and_day() {
        assert!(take_quota("quota-a", 10, 2));
        assert!(take_quota("quota-a", 10, 2));
        assert!(!take_quota("quota-a", 10, 2));
        assert!(take_quota("quota-b", 10, 2), "another user's own quota");
        assert!(take_quota("quota-a", 11, 2), "a new day");
    }

    /// Queued with the analyses asked before it ahead, then running with its plies done;
    /// an estimate only once an analysis was done here, from its time per ply.
    #[test]
    fn the_queue_says_who_is_ahead_then_how_far_it_is_with_an_estimate() {
        let q = Queue::default();
        let limits = crate::Limits::default();
        for (game, owner) in [("g1", "a"), ("g2", "b"), ("g3", "c")] {
            assert!(q.admit(game, owner, None, &limits).is_ok());
            q.set_plies(game, 40);
        }
        let p = q.progress("g3").unwrap();
        assert_eq!(
            (p.state, p.ahead, p.estimate_s),
            (QueueState::Queued, 2, None)
        );
        q.chunk_started("g1");
        q.advanced("g1", 8);
        let p = q.progress("g1").unwrap();
        assert_eq!(
            (p.state, p.ahead, p.done_plies, p.plies),
            (QueueState::Running, 0, 8, 40)
        );
        // g1 is done: 40 plies in (about) no time; g2 then has a finite estimate.
        q.finished("g1");
        assert!(q.progress("g1").is_none());
        let p = q.progress("g3").unwrap();
        assert_eq!((p.ahead, p.estimate_s.is_some()), (1, true));
        {
            let mut a = q.lock();
            a.recent.clear();
            a.recent.push_back((40.0, 40));
        }
        // One second a ply: g3 waits for g2's 40 plies and its own 40.
        assert_eq!(q.progress("g3").unwrap().estimate_s, Some(80));
        q.chunk_started("g3");
        q.advanced("g3", 30);
        assert_eq!(q.progress("g3").unwrap().estimate_s, Some(10));
        q.done("g2");
        assert_eq!(q.progress("g3").unwrap().ahead, 0);
    }
}
