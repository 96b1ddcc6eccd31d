//! The server's miner: finished public games become puzzles in the background, as the
//! `pyramidion puzzles` command makes them from bot games.
//!
//! Only a game that is finished, listed (public), not a daily challenge still under its
//! embargo (its deal is secret until its day is over for everyone: it is left for a later
//! pass), and whose players did not opt out (`PUT /api/puzzles/opt-out`). Each game is
//! claimed once in `puzzle_mined` before it is mined, so that two instances of a cluster
//! never mine one game twice. The judge runs on the bot pool's analysis lane, a decision at a
//! time thought in slices (`bot_pool::Slicing`, as an analysis), within the operator's budget
//! (`serve --puzzle-budget`, playouts per game; 0: no mining): eight decisions judged twice
//! in one job held the pool's only searching thread of a 2-core server for seconds, and a
//! victim's `easy` bot waited 4.7 s a move behind it (issue 54, docs/performance.md).
use super::store::NewPuzzle;
use crate::AppState;
use crate::db::rows::SeatKind;
use crate::live::bot_pool::{BotPool, Ticket};
use crate::live::fair_queue::Lane;
use pyramidion_ai::puzzle::{Mined, MinedDecision, PuzzleConfig};
use pyramidion_core::record::Record;
use pyramidion_games::analysis::AnyMining;

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

/// The puzzles of a finished game's record, judged on the bot pool a decision at a time, each
/// in slices.
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
    mine_decisions(&state.bots, id, record, config).await
}

/// The puzzles of `record` (game `id`) at `config`, each decision thought on `bots` in
/// slices; what was found before the pool stopped, or before a move that does not replay.
async fn mine_decisions(
    bots: &BotPool,
    id: &str,
    record: &Record,
    config: PuzzleConfig,
) -> Vec<NewPuzzle> {
    let mut out = Vec::new();
    let shared = std::sync::Arc::new(record.clone());
    let ticket = Ticket {
        lane: Lane::Analysis,
        owner: "puzzles".into(),
        game: id.to_string(),
    };
    for ply in 0..record.moves.len() {
        let shared = shared.clone();
        // Replayed to its ply on the first slice (on a pool thread).
        let mut mining: Option<AnyMining> = None;
        let step = move || match &mut mining {
            None => match pyramidion_games::analysis::mining_at(&shared, config, ply) {
                Err(e) => Some(Err(e)),
                Ok(None) => Some(Ok(MinedDecision::Nothing)),
                Ok(Some(m)) => {
                    mining = Some(m);
                    None
                }
            },
            Some(m) => m.step(crate::analysis::PLAYOUTS_PER_LOOK).map(Ok),
        };
        match bots.run_sliced(ticket.clone(), step).await {
            Some(Ok(MinedDecision::Puzzle(m))) => {
                out.push(new_puzzle(id, record, Mined { ply, ..*m }));
            }
            Some(Ok(MinedDecision::Nothing | MinedDecision::Dropped)) => {}
            Some(Err(e)) => {
                tracing::warn!(game = %id, error = %e, "a game's record does not mine");
                return out;
            }
            None => return out,
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 54: with the one searching thread mining a game whose decisions take far more
    /// than a slice of CPU, another user's search bot is answered between the miner's
    /// slices, while a decision is being judged (eight decisions judged twice in one job
    /// made a victim's `easy` bot wait 4.7 s a move: docs/performance.md).
    #[tokio::test]
    async fn a_search_bot_is_answered_between_the_slices_of_the_miners_decision() {
        use crate::live::bot_pool::slicing_tests::{
            a_search_bot_is_answered_meanwhile, four_moves,
        };
        let pool = std::sync::Arc::new(BotPool::new(1));
        let (game, record) = four_moves();
        // Minutes of CPU a decision in a debug build.
        let config = PuzzleConfig {
            budget: 2_000_000,
            seed: 1,
        };
        let mining = {
            let pool = pool.clone();
            tokio::spawn(async move { mine_decisions(&pool, "mined", &record, config).await })
        };
        a_search_bot_is_answered_meanwhile(&pool, &game).await;
        assert!(!mining.is_finished(), "the miner still thinks");
        // Nobody waits for it any more: its next slice drops it.
        mining.abort();
        while pool.waiting(Lane::Analysis) > 0 {
            tokio::task::yield_now().await;
        }
    }
}
