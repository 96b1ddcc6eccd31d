//! The options of a Pyramids game: the player count (2 to 5), nothing else.
pub type Options = pyramidion_core::PlayerCount;
