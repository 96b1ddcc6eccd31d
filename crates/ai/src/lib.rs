//! Bots. Every bot sees the game only through the rules trait and its own seeded RNG, so a
//! bot game is as reproducible as any other record.
#![forbid(unsafe_code)]

pub mod analysis;
pub mod arena;
pub mod greedy;
pub mod judge;
pub mod level;
pub mod puzzle;
pub mod random;
pub mod search;
pub mod seed;
pub mod spec;

pub use greedy::Greedy;
pub use random::RandomBot;
pub use search::{Search, SearchConfig};

use pyramidion_core::Rules;

/// Something that picks a move for the seat to move.
pub trait Bot<G: Rules> {
    /// A legal move of `game.to_move()`. Only called when a seat is to move.
    fn choose(&mut self, game: &G) -> G::Move;
}
