//! The game under its former path: its options, state, errors and rules, re-exported.
pub use crate::error::IllegalMove;
pub use crate::options::Options;
pub use crate::state::{Edifice, Game, MAX_PLAYERS, MIN_PLAYERS, Phase, ROUNDS};
