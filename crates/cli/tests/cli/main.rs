//! Every integration test of this crate, one module per feature, in one binary: one link
//! of the crate and its dependencies instead of one per file.

mod analyse_check;
#[cfg(feature = "postgres-tests")]
mod chaos;
mod cli;
#[cfg(feature = "postgres-tests")]
mod cluster;
#[cfg(feature = "postgres-tests")]
mod cluster_pairing;
#[cfg(feature = "postgres-tests")]
mod cluster_support;
mod crash;
mod export_replay;
mod golden;
mod loadtest;
mod storage;
