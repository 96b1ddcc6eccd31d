//! Puzzles from real games (issue 48 item 2, docs/puzzles.md): decisions the judge proves one
//! move (or a few equal ones) clearly best at, each shown as its deciding seat saw it, rated
//! by Glicko-2 as their solvers are. The shipped ones come from bot games
//! (`seed_data`), more from finished public games (`miner`).
pub mod api;
pub mod miner;
pub mod rating;
pub mod seed_data;
pub mod store;
