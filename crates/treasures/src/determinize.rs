//! Hidden information: determinisation.
use crate::data::{self, DominoId};
use crate::state::Game;
use pyramidion_core::GameRng;

impl Game {
    /// Dominoes whose front nobody has seen: everything in the piles except face-up tops.
    pub fn hidden_dominoes(&self) -> impl Iterator<Item = DominoId> + '_ {
        self.piles.iter().flat_map(|p| {
            let hidden = if p.face_up {
                p.len().saturating_sub(1)
            } else {
                p.len()
            };
            p.dominoes[..hidden].iter().copied()
        })
    }

    /// A copy with the hidden pile contents shuffled (face-down tops keep their visible back)
    /// and a fresh RNG, so future gem draws are unknown too.
    pub fn resample_hidden(&self, rng: &mut GameRng) -> Game {
        let mut game = self.clone();
        let mut pool: Vec<DominoId> = self.hidden_dominoes().collect();
        // Sorted first, so that the sample depends on what is hidden, not on its true order.
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        // Face-down tops first: each needs a domino with the same back.
        for pile in game.piles.iter_mut() {
            if pile.face_up || pile.is_empty() {
                continue;
            }
            let back = data::get(pile.top().expect("non-empty")).back();
            let i = pool
                .iter()
                .position(|&id| data::get(id).back() == back)
                .expect("the real top is in the pool");
            let top = pool.swap_remove(i);
            let n = pile.len();
            pile.dominoes[n - 1] = top;
        }
        let mut rest = pool.into_iter();
        for pile in game.piles.iter_mut() {
            let n = pile.len();
            // Every position but the top (face up or already assigned) is unconstrained.
            for slot in pile.dominoes[..n.saturating_sub(1)].iter_mut() {
                *slot = rest.next().expect("pool matches hidden positions");
            }
        }
        game.rng = rng.fork();
        game
    }
}
