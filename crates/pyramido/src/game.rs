//! The game under its former path: its options, state and rules, re-exported.
pub use crate::holes::{free_cells, min_holes};
pub use crate::options::Options;
pub use crate::play::mark_options;
pub use crate::state::{
    Game, MAX_DOMINOES_PER_PLAYER, MAX_PLAYERS, PILE_CAPACITY, PILES, Player, QUARRY_SLOTS,
    STAGE_BLOCKS, Status, Step,
};
