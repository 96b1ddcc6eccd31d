//! The greedy policy: win now, else block the opponent's line, else the centre, else a corner,
//! else any cell; ties broken with the caller's RNG.
use crate::state::{Game, LINES};
use crate::{Mark, Move};
use pyramidion_core::GameRng;

/// Whether marking `cell` with `mark` completes a line.
fn completes(game: &Game, cell: usize, mark: Mark) -> bool {
    LINES.iter().filter(|l| l.contains(&cell)).any(|l| {
        l.iter()
            .all(|&c| c == cell || game.board()[c] == Some(mark))
    })
}

/// How greedy ranks marking `cell`: higher first.
fn value(game: &Game, cell: usize) -> u8 {
    let me = game.mark_to_move();
    let other = if me == Mark::X { Mark::O } else { Mark::X };
    if completes(game, cell, me) {
        4
    } else if completes(game, cell, other) {
        3
    } else if cell == 4 {
        2
    } else if matches!(cell, 0 | 2 | 6 | 8) {
        1
    } else {
        0
    }
}

/// A puzzle's themes for marking `cell`: it completes a line (`win`), or the line the other
/// mark would complete next (`block`).
pub(crate) fn themes(game: &Game, cell: usize) -> Vec<&'static str> {
    match value(game, cell) {
        4 => vec!["win"],
        3 => vec!["block"],
        _ => Vec::new(),
    }
}

/// The best of `candidates` (legal moves); `None` when there are none.
pub(crate) fn favourite(game: &Game, candidates: &[Move], rng: &mut GameRng) -> Option<Move> {
    let best = candidates.iter().map(|m| value(game, m.cell())).max()?;
    let top: Vec<Move> = candidates
        .iter()
        .copied()
        .filter(|m| value(game, m.cell()) == best)
        .collect();
    Some(top[rng.below(top.len() as u32) as usize])
}
