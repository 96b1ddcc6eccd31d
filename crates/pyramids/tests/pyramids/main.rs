//! Every integration test of this crate, one module per feature, in one binary: one link
//! of the crate and its dependencies instead of one per file.

mod flow;
mod golden;
mod illegal;
mod scoring;
mod simulate;
mod undo;
mod views;
