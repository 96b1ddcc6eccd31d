//! Why a tournament refuses an input. Each kind has its own stable [`ErrorCode::code`], so the
//! server can translate it and the browser can test it without parsing English.
use crate::PlayerId;
use pyramidion_core::ErrorCode;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("player {0} is already in the tournament")]
    DuplicatePlayer(PlayerId),
    #[error("player {0} is not in the tournament")]
    UnknownPlayer(PlayerId),
    #[error("tables seat 2 to 5 players, not {0}")]
    TableSizeOutOfRange(u8),
    #[error("{players} players cannot fill a table")]
    TooFewPlayers { players: usize },
    #[error("a Swiss tournament plays at least one round")]
    NoRounds,
    #[error("every round has been played")]
    TournamentOver,
    #[error("round {0} still has tables without a result")]
    RoundInProgress(u32),
    #[error("round {0} has not been paired")]
    NoSuchRound(u32),
    #[error("there is no table {0}")]
    NoSuchTable(usize),
    #[error("table {0} already has its result")]
    ResultAlreadyRecorded(usize),
    #[error("a table's result needs one place and one score per seat, and places that rank it")]
    BadPlacements,
    #[error("the arena is closed")]
    ArenaClosed,
}

impl ErrorCode for TournamentError {
    fn code(&self) -> &'static str {
        match self {
            TournamentError::DuplicatePlayer(_) => "duplicate_player",
            TournamentError::UnknownPlayer(_) => "unknown_player",
            TournamentError::TableSizeOutOfRange(_) => "table_size_out_of_range",
            TournamentError::TooFewPlayers { .. } => "too_few_players",
            TournamentError::NoRounds => "no_rounds",
            TournamentError::TournamentOver => "tournament_over",
            TournamentError::RoundInProgress(_) => "round_in_progress",
            TournamentError::NoSuchRound(_) => "no_such_round",
            TournamentError::NoSuchTable(_) => "no_such_table",
            TournamentError::ResultAlreadyRecorded(_) => "result_already_recorded",
            TournamentError::BadPlacements => "bad_placements",
            TournamentError::ArenaClosed => "arena_closed",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_snake_case() {
        let id = PlayerId::new("p");
        let all = [
            TournamentError::DuplicatePlayer(id.clone()),
            TournamentError::UnknownPlayer(id),
            TournamentError::TableSizeOutOfRange(6),
            TournamentError::TooFewPlayers { players: 1 },
            TournamentError::NoRounds,
            TournamentError::TournamentOver,
            TournamentError::RoundInProgress(0),
            TournamentError::NoSuchRound(0),
            TournamentError::NoSuchTable(0),
            TournamentError::ResultAlreadyRecorded(0),
            TournamentError::BadPlacements,
            TournamentError::ArenaClosed,
        ];
        let codes: std::collections::BTreeSet<&str> = all.iter().map(ErrorCode::code).collect();
        assert_eq!(codes.len(), all.len());
        for code in codes {
            assert!(
                code.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{code}"
            );
        }
    }
}
