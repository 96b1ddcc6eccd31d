//! The puzzles shipped with the server (`crates/server/puzzles/<game>.jsonl`, made by
//! `pyramidion puzzles`: docs/puzzles.md gives the command), loaded into the store when it
//! starts, where absent. A file of a game this build does not register is skipped.
use super::store::NewPuzzle;
use crate::db::error::Result;
use crate::db::store::Store;
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "puzzles"]
#[include = "*.jsonl"]
struct SeedPuzzles;

/// The shipped puzzles of every registered game, parsed (a line that does not parse is a
/// build's bug: logged and skipped), their themes this build's.
pub fn shipped() -> Vec<NewPuzzle> {
    lines().into_iter().map(with_themes).collect()
}

/// The shipped puzzles as their lines say, themes and all.
fn lines() -> Vec<NewPuzzle> {
    let mut out = Vec::new();
    for path in SeedPuzzles::iter() {
        let Some(file) = SeedPuzzles::get(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&file.data);
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            match serde_json::from_str::<NewPuzzle>(line) {
                Ok(p) if p.game.parse::<pyramidion_games::GameKind>().is_ok() => out.push(p),
                Ok(_) => {}
                Err(e) => {
                    tracing::error!(file = %path, line = n + 1, error = %e, "a shipped puzzle does not parse")
                }
            }
        }
    }
    out
}

/// The puzzle with the themes the rules of this build name, not the line's: a line written
/// before its game named a theme (or a deeper one) gets it too. Replays the record: the
/// costly part of reading a line, done only for the puzzles to be stored.
fn with_themes(mut p: NewPuzzle) -> NewPuzzle {
    if let Ok(record) = serde_json::from_value(p.record.clone())
        && let Ok(themes) = pyramidion_games::analysis::themes_at(&record, &p.solutions)
    {
        p.themes = themes;
    }
    p
}

/// How many shipped puzzles one commit stores: the writer is shared with the games, which a
/// server serves while it starts, and a move waits for at most one such commit (a fresh debug
/// build took 1.6 s to store 1,219 puzzles in one commit, and a loaded CI machine longer: a
/// load test begun then played no move in 2.7 s).
const PUZZLES_A_COMMIT: usize = 64;

/// Stores the shipped puzzles the store does not hold yet (some at a time, and nothing when
/// it holds them all); how many were new. By id, not by count: a build whose files dropped
/// puzzles (a stricter miner re-checked them) may ship fewer than the store holds, and its
/// new ones must still be stored. A dropped one stays stored (tries and ratings refer to it).
pub async fn load(store: &Store, at: i64) -> Result<usize> {
    let stored: std::collections::HashSet<String> =
        store.shipped_puzzle_ids().await?.into_iter().collect();
    // Reading the lines and replaying the missing ones' records (their themes) is CPU work,
    // kept off the runtime's threads.
    let missing = tokio::task::spawn_blocking(move || {
        lines()
            .into_iter()
            .filter(|p| !stored.contains(&p.id()))
            .map(with_themes)
            .collect::<Vec<NewPuzzle>>()
    })
    .await
    .map_err(|e| {
        crate::db::error::StoreError::Corrupt(format!("the shipped puzzles cannot be read: {e}"))
    })?;
    let mut added = 0;
    let mut missing = missing.into_iter().peekable();
    while missing.peek().is_some() {
        let some: Vec<NewPuzzle> = missing.by_ref().take(PUZZLES_A_COMMIT).collect();
        added += store.insert_puzzles(some, at).await?;
    }
    Ok(added)
}
