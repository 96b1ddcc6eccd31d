//! Every integration test of this crate, one module per feature, in one binary: one link
//! of the crate and its dependencies instead of one per file.

mod common;
mod golden;
mod rulebook;
mod rules;
mod simulate;
mod undo;
