//! Pyramido in the browser: whole games by clicking (two and four players), stage 1 by
//! keyboard only, and no silent self-elimination.
mod eliminating;
mod keyboard;
mod whole_game;
