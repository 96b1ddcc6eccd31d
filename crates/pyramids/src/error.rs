//! Why a move is refused.
use crate::moves::God;
use crate::necropolis::Place;
use crate::state::{Edifice, Phase};
use pyramidion_core::ErrorCode;

/// Why a move is refused. Each kind has its own stable [`ErrorCode::code`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("a '{keyword}' move does not fit the current phase ({phase:?})")]
    WrongPhase { phase: Phase, keyword: &'static str },
    #[error("{0:?} is not used at a table of this size")]
    GodNotInGame(God),
    #[error("{0:?} is set aside this round")]
    GodSetAside(God),
    #[error("{0:?} is already taken this round")]
    GodTaken(God),
    #[error("there is no pair {0} in the quarry")]
    NoSuchPair(u8),
    #[error("pair {0} is already taken")]
    PairTaken(u8),
    #[error("there is no card {0} in your hand")]
    NoSuchCard(u8),
    #[error("{0} is not an open place of your Pyramid")]
    PlaceNotOpen(Place),
    #[error("place your Pyramid card first")]
    PyramidFirst,
    #[error("your God tile does not let you build your {0}")]
    EdificeNotAllowed(Edifice),
    #[error("you already placed a card in your {0} this turn")]
    EdificeAlreadyBuilt(Edifice),
}

impl ErrorCode for IllegalMove {
    fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::WrongPhase { .. } => "wrong_phase",
            IllegalMove::GodNotInGame(_) => "god_not_in_game",
            IllegalMove::GodSetAside(_) => "god_set_aside",
            IllegalMove::GodTaken(_) => "god_taken",
            IllegalMove::NoSuchPair(_) => "no_such_pair",
            IllegalMove::PairTaken(_) => "pair_taken",
            IllegalMove::NoSuchCard(_) => "no_such_card",
            IllegalMove::PlaceNotOpen(_) => "place_not_open",
            IllegalMove::PyramidFirst => "pyramid_first",
            IllegalMove::EdificeNotAllowed(_) => "edifice_not_allowed",
            IllegalMove::EdificeAlreadyBuilt(_) => "edifice_already_built",
        }
    }
}
