//! Every integration test of this crate, one module per feature, in one binary: one link
//! of the crate and its dependencies instead of one per file. The browser suite is the
//! module `browser` (feature `browser-tests`); `scripts/test` runs it in a lane of its own
//! (`cli browser::`) beside the rest (`cli --skip browser::`).

mod analyse_check;
#[cfg(feature = "browser-tests")]
mod browser;
#[cfg(feature = "postgres-tests")]
mod chaos;
mod cli;
#[cfg(feature = "postgres-tests")]
mod cluster;
#[cfg(feature = "postgres-tests")]
mod cluster_internal_gate;
#[cfg(feature = "postgres-tests")]
mod cluster_link_metrics;
#[cfg(feature = "postgres-tests")]
mod cluster_pairing;
#[cfg(feature = "postgres-tests")]
mod cluster_people;
#[cfg(feature = "postgres-tests")]
mod cluster_start;
#[cfg(feature = "postgres-tests")]
mod cluster_support;
#[cfg(feature = "postgres-tests")]
mod cluster_tournament;
mod crash;
mod export_replay;
#[cfg(feature = "postgres-tests")]
mod fault_proxy;
#[cfg(feature = "postgres-tests")]
mod faults;
mod golden;
mod loadtest;
#[cfg(feature = "postgres-tests")]
mod loadtest_cluster;
#[cfg(feature = "postgres-tests")]
mod rolling_restart;
mod storage;
