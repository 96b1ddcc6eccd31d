//! Why a move is refused.
use pyramidion_core::ErrorCode;

/// Why a move is refused. Each kind has its own stable [`ErrorCode::code`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("the game is over")]
    GameOver,
    #[error("cell {0} is already marked")]
    CellTaken(crate::Move),
}

impl ErrorCode for IllegalMove {
    fn code(&self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game_over",
            IllegalMove::CellTaken(_) => "cell_taken",
        }
    }
}
