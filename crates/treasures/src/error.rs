use pyramidion_core::ErrorCode;
use pyramidion_pyramid::PlacementError;

/// Why a move is refused. The state is unchanged whenever one is returned.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("this kind of move is not expected now (expected: {expected})")]
    WrongPhase { expected: &'static str },
    #[error("there is no space or pile with that number")]
    NoSuchSpace,
    #[error("that space has no face-up domino")]
    SpaceFaceDown,
    #[error("that gem is not in the space's gem area")]
    GemNotAvailable,
    #[error("the space's gem area has gems: choose one")]
    GemRequired,
    #[error("that pile cannot be flipped (empty or already face up)")]
    PileNotFlippable,
    #[error("{0}")]
    Placement(PlacementError),
    #[error("there is no activatable area there")]
    UnknownArea,
    #[error("that area is already activated this stage")]
    AreaAlreadyActivated,
    #[error("not enough gems for that payment")]
    InsufficientGems,
    #[error("that gem is not in your inventory")]
    GemNotInInventory,
}

impl ErrorCode for IllegalMove {
    fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::WrongPhase { .. } => "wrong_phase",
            IllegalMove::NoSuchSpace => "no_such_space",
            IllegalMove::SpaceFaceDown => "space_face_down",
            IllegalMove::GemNotAvailable => "gem_not_available",
            IllegalMove::GemRequired => "gem_required",
            IllegalMove::PileNotFlippable => "pile_not_flippable",
            IllegalMove::Placement(p) => p.code(),
            IllegalMove::UnknownArea => "unknown_area",
            IllegalMove::AreaAlreadyActivated => "area_already_activated",
            IllegalMove::InsufficientGems => "insufficient_gems",
            IllegalMove::GemNotInInventory => "gem_not_in_inventory",
        }
    }
}
