//! A "careful" random player for tests: uniform, except that 19 placements in 20 go where
//! the rest of the stage can still be tiled (when some placement allows it), and it resurfaces
//! only one time in ten. Uniform random players almost always get stuck on stage 1 without cards (and
//! so are eliminated); careful ones reach stages 2–4, where the other rules live.
#![allow(dead_code)]
use pyramidion_core::{GameRng, Rules};
use pyramidion_pyramid::{CANVAS_SIZE, Pyramid};
use pyramidion_pyramido::data::dominoes;
use pyramidion_pyramido::{Game, Move, Phase, free_cells};

pub fn careful_move(game: &Game, rng: &mut GameRng, buf: &mut Vec<Move>) -> Move {
    policy_move(game, rng, buf, 20, 10)
}

/// Never sloppy, never resurfaces: never gets stuck (a tiling is always kept possible).
pub fn safe_move(game: &Game, rng: &mut GameRng, buf: &mut Vec<Move>) -> Move {
    policy_move(game, rng, buf, u32::MAX, u32::MAX)
}

/// Places sloppily (uniformly) one time in `sloppy`, resurfaces one time in `resurface`.
fn policy_move(
    game: &Game,
    rng: &mut GameRng,
    buf: &mut Vec<Move>,
    sloppy: u32,
    resurface: u32,
) -> Move {
    game.legal_moves(buf);
    assert!(!buf.is_empty());
    match game.phase() {
        Phase::Place if rng.below(sloppy) != 0 => {
            let pyramid = game.player(game.current()).pyramid();
            let blocks = dominoes()[game.held().unwrap() as usize].blocks;
            let good: Vec<Move> = buf
                .iter()
                .copied()
                .filter(|m| {
                    let Move::Place(p) = m else { unreachable!() };
                    let mut copy = pyramid.clone();
                    copy.place(p, blocks);
                    fillable(&copy)
                })
                .collect();
            let from = if good.is_empty() { &buf[..] } else { &good[..] };
            from[rng.below(from.len() as u32) as usize]
        }
        Phase::Resurface if rng.below(resurface) != 0 => Move::Pass,
        _ => buf[rng.below(buf.len() as u32) as usize],
    }
}

/// Whether dominoes can still fill the current stage (stage 1: in some frame that holds the
/// blocks placed so far).
pub fn fillable(pyramid: &Pyramid) -> bool {
    if pyramid.stage() > 0 || pyramid.canvas().frame().is_some() {
        return tileable(free_cells(pyramid));
    }
    let occupied = pyramid.canvas().occupied();
    let n = CANVAS_SIZE as u32;
    for (w, h) in [(5, 4), (4, 5)] {
        for y0 in 0..=n - h {
            for x0 in 0..=n - w {
                let mut window = 0u128;
                for y in y0..y0 + h {
                    for x in x0..x0 + w {
                        window |= 1 << (y * n + x);
                    }
                }
                if occupied & !window == 0 && tileable(window & !occupied) {
                    return true;
                }
            }
        }
    }
    false
}

/// Can dominoes tile these cells of a 9×9 grid exactly?
fn tileable(free: u128) -> bool {
    if free == 0 {
        return true;
    }
    let i = free.trailing_zeros();
    let rest = free & !(1 << i);
    let n = CANVAS_SIZE as u32;
    (i % n + 1 < n && rest >> (i + 1) & 1 == 1 && tileable(rest & !(1 << (i + 1))))
        || (i + n < n * n && rest >> (i + n) & 1 == 1 && tileable(rest & !(1 << (i + n))))
}
