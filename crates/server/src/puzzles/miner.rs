//! The server's miner: finished public games become puzzles in the background, as the
//! `pyramidion puzzles` command makes them from bot games.
//!
//! Only a game that is finished, listed (public), not a daily challenge still under its
//! embargo (its deal is secret until its day is over for everyone: it is left for a later
//! pass), and whose players did not opt out (`PUT /api/puzzles/opt-out`). Each game is
//! claimed once in `puzzle_mined` before it is mined, so that two instances of a cluster
//! never mine one game twice. The judge runs on the bot pool's analysis lane, a few decisions
//! a job, within the operator's budget (`serve --puzzle-budget`, playouts per game; 0: no
//! mining).
use super::store::NewPuzzle;
use crate::AppState;
use crate::db::rows::SeatKind;
use crate::live::bot_pool::Ticket;
use crate::live::fair_queue::Lane;
use pyramidion_ai::puzzle::{Mined, PuzzleConfig};
use pyramidion_core::record::Record;

/// Decisions judged per job on the bot pool (a job should not hold a thread long).
const PLIES_PER_JOB: usize = 8;
/// Games looked at per pass.
const GAMES_PER_PASS: i64 = 16;

/// Mines finished games for as long as the server runs, a pass every `wake_every`.
pub async fn run(state: AppState) {
    loop {
        match pass(&state).await {
            Ok(mined) if mined > 0 => tracing::info!(mined, "games mined for puzzles"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "the puzzle miner failed a pass"),
        }
        tokio::time::sleep(state.config.limits.wake_every).await;
    }
}

/// One pass over the games not mined yet; how many it mined.
pub async fn pass(state: &AppState) -> Result<usize, MineError> {
    let mut mined = 0;
    for id in state.store.games_to_mine(GAMES_PER_PASS).await? {
        // A daily challenge under embargo waits for its day to be over (not claimed).
        if crate::live::daily_embargo::under_embargo(&state.live, &id)
            .await
            .map_err(MineError::Api)?
            .is_some()
        {
            continue;
        }
        let now = crate::wall_clock::now_ms();
        if !state.store.claim_mining(&id, now).await? {
            continue;
        }
        let (row, seats) = crate::live::stored_game::load(&state.live, &id)
            .await
            .map_err(MineError::Api)?;
        let mut opted_out = false;
        for seat in &seats {
            if let SeatKind::Human(user) = seat
                && state.store.puzzle_opt_out(user).await?
            {
                opted_out = true;
            }
        }
        if opted_out {
            continue;
        }
        let record = crate::live::stored_game::stored_record(&state.live, &row)
            .await
            .map_err(MineError::Api)?;
        let found = mine_game(state, &id, &record).await;
        let count = found.len() as i64;
        state
            .store
            .insert_puzzles(found, crate::wall_clock::now_ms())
            .await?;
        state.store.set_mined(&id, count).await?;
        mined += 1;
    }
    Ok(mined)
}

/// The puzzles of a finished game's record, judged on the bot pool a few decisions a job.
async fn mine_game(state: &AppState, id: &str, record: &Record) -> Vec<NewPuzzle> {
    let Ok(decisions) = pyramidion_games::analysis::decision_count(record) else {
        return Vec::new();
    };
    let Ok(kind) = record.game.parse::<pyramidion_games::GameKind>() else {
        return Vec::new();
    };
    let judge = PuzzleConfig::judge(kind.descriptor(), record.seed);
    // The confirming run spends twice the first's: the budget covers both.
    let share = state.config.puzzle_game_budget / (3 * decisions.max(1) as u64);
    let config = PuzzleConfig {
        budget: judge
            .budget
            .min(share.min(u64::from(u32::MAX)) as u32)
            .max(1),
        ..judge
    };
    let mut out = Vec::new();
    let plies = record.moves.len();
    let mut from = 0;
    while from < plies {
        let to = (from + PLIES_PER_JOB).min(plies);
        let chunk = record.clone();
        let ticket = Ticket {
            lane: Lane::Analysis,
            owner: "puzzles".into(),
            game: id.to_string(),
        };
        let mined = state
            .bots
            .run(ticket, move || {
                let mut dropped = 0;
                pyramidion_games::analysis::mine_plies(&chunk, config, from..to, &mut dropped)
            })
            .await;
        match mined {
            Some(Ok(found)) => out.extend(found.into_iter().map(|m| new_puzzle(id, record, m))),
            Some(Err(e)) => {
                tracing::warn!(game = %id, error = %e, "a game's record does not mine");
                return out;
            }
            None => return out,
        }
        from = to;
    }
    out
}

/// The puzzle to store from a mined decision of `record` (a game's, `source`).
pub fn new_puzzle(source: &str, record: &Record, m: Mined) -> NewPuzzle {
    let prefix = Record {
        result: None,
        moves: record.moves[..m.ply].to_vec(),
        move_lines: Vec::new(),
        ..record.clone()
    };
    NewPuzzle {
        game: record.game.clone(),
        source: source.to_string(),
        record: serde_json::to_value(&prefix).unwrap_or_default(),
        ply: m.ply as u64,
        seat: m.seat,
        view: m.view,
        legal: m.legal,
        solutions: m.solutions,
        candidates: m.candidates,
        themes: m.themes,
    }
}

/// Why a pass stopped: the store failed, or a game could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum MineError {
    #[error(transparent)]
    Store(#[from] crate::db::error::StoreError),
    #[error("{0:?}")]
    Api(crate::error::ApiError),
}
