//! Why a move is refused: one variant, and one stable code, per kind of illegal move.
use crate::data::colour_name;
use crate::moves::Side;
use pyramidion_core::ErrorCode;
use pyramidion_pyramid::PlacementError;
use pyramidion_pyramid::placement::format_cell;

#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("this is not the moment for that move: expected {expected}")]
    WrongStep { expected: &'static str },
    #[error("quarry slot {} does not exist (slots 1–3)", *.0 as u32 + 1)]
    NoSuchSlot(u8),
    #[error("quarry slot {} is empty", *.0 as u32 + 1)]
    EmptySlot(u8),
    #[error("{0}")]
    Placement(PlacementError),
    #[error("block {} carries a jewel marker and cannot be resurfaced", .0.letter())]
    BlockMarked(Side),
    #[error("colour {0} does not exist")]
    UnknownColour(u8),
    #[error("quadrant {0} does not exist (nw, ne, sw, se)")]
    BadQuadrant(u8),
    #[error("your {} card is already used", colour_name(*.0))]
    CardUsed(u8),
    #[error("pile {} does not exist (piles 1–4)", *.0 as u32 + 1)]
    NoSuchPile(u8),
    #[error("pile {} is not next to the empty quarry slot", *.0 as u32 + 1)]
    PileNotAdjacent(u8),
    #[error("pile {} is empty", *.0 as u32 + 1)]
    EmptyPile(u8),
    #[error("the hole to cover now is {}", format_cell(.expected.0, .expected.1))]
    WrongHole { expected: (u8, u8) },
}

impl ErrorCode for IllegalMove {
    fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::WrongStep { .. } => "wrong_step",
            IllegalMove::NoSuchSlot(_) => "no_such_quarry_slot",
            IllegalMove::EmptySlot(_) => "empty_quarry_slot",
            IllegalMove::Placement(e) => e.code(),
            IllegalMove::BlockMarked(_) => "block_marked",
            IllegalMove::UnknownColour(_) => "unknown_colour",
            IllegalMove::BadQuadrant(_) => "bad_quadrant",
            IllegalMove::CardUsed(_) => "card_already_used",
            IllegalMove::NoSuchPile(_) => "no_such_pile",
            IllegalMove::PileNotAdjacent(_) => "pile_not_adjacent",
            IllegalMove::EmptyPile(_) => "empty_pile",
            IllegalMove::WrongHole { .. } => "wrong_hole",
        }
    }
}
