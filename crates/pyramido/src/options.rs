//! The options of a Pyramido game: the player count (2 to 4), nothing else.
pub type Options = pyramidion_core::PlayerCount;
