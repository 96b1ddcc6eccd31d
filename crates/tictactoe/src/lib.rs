//! Tic-tac-toe, the smallest complete game of the platform. It exists to prove that a game is
//! its crate: registered with one line (behind the `tic-tac-toe` feature of
//! `pyramidion-games`), it is simulated by the shared harness, served, played by the bots and
//! drawn by the browser's generic table without a line of game code outside this crate.
//! Pure: no clock, no I/O; the seed only decides who moves first.
#![forbid(unsafe_code)]

pub mod descriptor;
pub mod error;
mod heuristic;
pub mod moves;
mod play;
mod sampler;
#[cfg(feature = "testkit")]
mod sim;
pub mod state;
mod tutorial;
pub mod view;

pub use error::IllegalMove;
pub use moves::{Move, MoveForm};
pub use state::{Game, Mark};
pub use view::View;

/// The options: the player count, always 2.
pub type Options = pyramidion_core::PlayerCount;
