//! Tournaments in the server (issue 49 item 1): the pure pairing core
//! (`pyramidion-tournament`) stored, driven and published. A tournament is a row (its
//! settings and the core's state as JSON), its entrants, its rounds and their tables, each
//! table a normal game linked to its round (replay, analysis, rating).
//!
//! - [`row`]: the settings and the stored row; [`entry`]: who may enter.
//! - [`store`]: reading and writing them; every step of a tournament (a round paired, results
//!   recorded) commits its state, its round and its games in ONE transaction, fenced by the
//!   tournament's lease, before anyone is told (like a move: persist before publish).
//! - [`swiss_step`], [`arena_step`]: the next step of a Swiss or an Arena, from what is
//!   stored (pure); [`core_state`]: the core's state of either.
//! - [`deadline`]: a clockless Swiss round's deadline, and its games adjudicated at it.
//! - [`director`]: the task that runs the tournaments this instance holds the lease of.
//! - [`view`]: what the API and the socket show of one.
//!
//! Named after no game: a tournament's game is a key read through the registry.
pub mod arena_step;
pub mod core_state;
pub mod deadline;
pub mod director;
pub mod entry;
pub mod row;
pub mod store;
pub mod swiss_step;
pub mod view;

/// The lease row of tournament `id` in `game_leases` (no game id starts with `~`): the one
/// instance that runs it, taken over like a game's when that instance dies
/// (`crate::cluster::Cluster::take`).
pub fn lease_of(id: &str) -> String {
    format!("~tournament:{id}")
}

/// The player id of the `n`-th bot that fills tables (no user id starts with `~`).
pub fn bot_id(n: usize) -> String {
    format!("~bot{n}")
}

/// Whether a player id of a tournament is a bot that fills tables.
pub fn is_bot(id: &str) -> bool {
    id.starts_with("~bot")
}
