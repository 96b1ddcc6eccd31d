//! Every integration test of this crate, one module per feature, in one binary: one link
//! of the crate and its dependencies instead of one per file. They run over the registered
//! games: the analysis of their records, bot levels, the shared view envelope, and that no
//! seat learns what it may not see, and that no input makes
//! one panic.

mod analysis;
mod bots;
mod envelope;
mod fuzz;
mod hooks;
mod leaks;
