//! Pyramids (IELLO, 2017): the complete rules engine.
//!
//! Pure and deterministic: no clock, no I/O, no thread RNG. All randomness (the deck shuffle,
//! the God tile set aside in round 1 of a 2-player game) comes from the [`GameRng`] owned by
//! the state and seeded by [`Rules::new`]; a game is `(options, seed, moves)`.
//!
//! - [`data`]: the 105 construction cards, read once from `data/cards.csv` (the project's
//!   reconstruction, see [`data::generate_csv`]).
//! - [`necropolis`]: Pyramid geometry, Obelisk, Tomb and scoring.
//! - [`moves`]: [`Move`] and its text grammar (`god 3`, `pair 2`, `pyramid 1 b2`, `obelisk 1`,
//!   `tomb 2`, `done`, `discard 1`).
//! - [`state`]: [`Game`] and its phases; `play` has the round flow and the [`Rules`]
//!   implementation.
//! - [`view`]: what a seat may see.
//!
//! RULES.md (repository root, section "Pyramids") states the rules as implemented and every interpretation.
//!
//! [`GameRng`]: pyramidion_core::GameRng
//! [`Rules`]: pyramidion_core::Rules
//! [`Rules::new`]: pyramidion_core::Rules::new
#![forbid(unsafe_code)]

pub mod data;
pub mod descriptor;
mod determinize;
mod error;
mod heuristic;
pub mod moves;
pub mod necropolis;
mod options;
mod play;
mod sampler;
#[cfg(feature = "testkit")]
mod sim;
pub mod state;
mod themes;
pub mod tutorial;
mod undo;
pub mod view;

pub use data::{CardId, Colour, Glyph};
pub use error::IllegalMove;
pub use moves::{God, Move, MoveForm};
pub use necropolis::{Necropolis, Place, Score};
pub use options::Options;
pub use state::{Edifice, Game, Phase, ROUNDS};
pub use view::View;
