//! Every integration test of this crate, one module per feature, in one binary: one link
//! of the crate and its dependencies instead of one per file. Both run over every
//! registered game: the shared view envelope, and that no seat learns what it may not see.

mod envelope;
mod leaks;
