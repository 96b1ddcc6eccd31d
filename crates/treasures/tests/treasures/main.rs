//! Every integration test of this crate, one module per feature, in one binary: one link
//! of the crate and its dependencies instead of one per file.

mod components;
mod golden;
mod moves;
mod rulebook;
mod simulation;
mod stage_end_view;
mod undo;
