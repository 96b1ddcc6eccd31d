//! What a game knows that helps the generic bots and tools, offered in its own crate
//! (`heuristic.rs`) so that the bots' crate names no game (after boardgame.io's
//! `ai.enumerate`). Every hook is optional: a game without them is played by a greedy bot
//! that picks uniformly and searched with uniform playouts. The games' harness
//! (`pyramidion-games`' test `hooks`) checks that every move a hook returns is legal: the
//! search plays them unchecked.
use crate::bench::BenchCase;
use crate::rules::Rules;
use crate::{GameRng, Outcome};

/// Bot knowledge and benchmarks (every game implements it, if only as `impl BotHooks for
/// Game {}`; [`Rules`] requires it).
pub trait BotHooks {
    /// The greedy bot's move for the seat to move (the best immediate gain), ties broken with
    /// `rng`; `None` when the game offers no greedy policy (the bot then picks uniformly).
    fn greedy_move(&self, rng: &mut GameRng) -> Option<<Self as Rules>::Move>
    where
        Self: Rules,
    {
        let _ = rng;
        None
    }

    /// The move of `candidates` (legal here, not empty) the greedy policy ranks first, ties
    /// broken with `rng`: the order in which the search widens a node. `None`: no opinion
    /// (the search then draws one).
    fn favourite_move(
        &self,
        candidates: &[<Self as Rules>::Move],
        rng: &mut GameRng,
    ) -> Option<<Self as Rules>::Move>
    where
        Self: Rules,
    {
        let _ = (candidates, rng);
        None
    }

    /// Where a playout that started at `root` may stop before the game's end, and the outcome
    /// it would then count, once `stages` stage ends have passed since `root` in a game whose
    /// stage ends score every player. `None` plays on (a finished game is exact; a cut is an
    /// estimate, so games with short enough playouts keep the default).
    fn playout_horizon(&self, root: &Self, stages: u8) -> Option<Outcome>
    where
        Self: Rules,
    {
        let _ = (root, stages);
        None
    }

    /// Game-specific micro-benchmarks for `pyramidion bench` (random games are measured for
    /// every game without this). They check the counts they are about to time.
    fn bench_cases() -> Vec<BenchCase>
    where
        Self: Rules,
    {
        Vec::new()
    }
}
