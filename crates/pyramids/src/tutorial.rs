//! This game's tutorial (issue 48), read through the registry.
use crate::Game;
use pyramidion_core::tutorial::Tutorials;

impl Tutorials for Game {}
