//! Pyramido (2023): the rules engine.
//!
//! Pure and deterministic: no clock, no I/O, no thread RNG; the only chance event is the setup
//! shuffle, drawn from the seed with [`pyramidion_core::GameRng`]. Geometry (stage-1 canvas,
//! upper stage grids, top view, areas) comes from `pyramidion_pyramid`, shared with
//! Pyramido: Forgotten Treasures. The rules as implemented, with each interpretation, are in
//! RULES.md at the repository root (section "Pyramido (2023)").
#![forbid(unsafe_code)]

pub mod data;
pub mod descriptor;
mod determinize;
pub mod error;
mod heuristic;
mod holes;
pub mod moves;
mod options;
mod placement_scores;
mod play;
mod sampler;
pub mod scoring;
#[cfg(feature = "testkit")]
pub mod sim;
pub mod state;
mod themes;
mod tutorial;
mod undo;
pub mod view;

pub use error::IllegalMove;
pub use holes::{free_cells, min_holes, min_holes_after, placement_dooms};
pub use moves::{Move, MoveForm, Side};
pub use options::Options;
pub use placement_scores::{AfterPlacement, PlacementScores};
pub use play::mark_options;
pub use scoring::{MarkedArea, StageScore, next_first_player, score_stage, stage_total};
pub use state::{Game, Phase, Player, Status};
pub use view::View;
