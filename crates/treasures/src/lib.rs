//! Pyramido: Forgotten Treasures — the complete rules, THE Legend automa included.
//!
//! Pure and deterministic: all randomness comes from the state's [`pyramidion_core::GameRng`].
//! Read RULES.md at the repository root for the rules as implemented.
#![forbid(unsafe_code)]

pub mod allocation;
mod bench;
mod constructed;
pub mod data;
pub mod descriptor;
mod determinize;
pub mod error;
pub mod gems;
mod heuristic;
mod legend;
pub mod moves;
pub mod options;
mod pick;
mod play;
mod sampler;
pub mod scoring;
#[cfg(feature = "testkit")]
mod sim;
pub mod state;
mod themes;
pub mod tutorial;
mod undo;
pub mod view;

pub use constructed::SeatSetup;
pub use error::IllegalMove;
pub use gems::{Gem, Gems};
pub use legend::{LegendPick, legend_pick, legend_stage_points};
pub use moves::{Move, MoveForm, Payment};
pub use options::{Options, SoloMode};
pub use state::{Game, Phase};
pub use view::View;
