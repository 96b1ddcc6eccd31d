//! Every integration test of this crate, one module per feature, in one binary: one link
//! of the crate and its dependencies instead of one per file. They run over the registered
//! games (their list is the registry's, never written here): the analysis of their records,
//! bot levels and hooks, the search's legality, the shared view envelope, that no seat learns
//! what it may not see, and that no input makes one panic.

mod analysis;
mod bots;
mod envelope;
mod fuzz;
mod hooks;
mod leaks;
mod puzzles;
mod search;
mod tables;
