//! Positions built directly (for the rulebook's worked examples and tools), not by play.
use crate::gems::Gems;
use crate::options::Options;
use crate::state::{Game, Phase, STAGES};
use pyramidion_core::SetupError;
use pyramidion_pyramid::Pyramid;

/// One player's part of a constructed position.
#[derive(Clone, Debug, Default)]
pub struct SeatSetup {
    pub pyramid: Pyramid,
    pub gems: Gems,
    /// Scores of the stages before the constructed one.
    pub stage_scores: [u16; STAGES as usize],
}

impl Game {
    /// A game at the end of stage index `stage` (0 = stage 1), every pyramid as given, seat
    /// `stage_first` about to activate areas. Components are not taken from the supply, so
    /// such a position is for scoring and tools, not for the conservation checks.
    pub fn constructed_stage_end(
        options: &Options,
        stage: u8,
        stage_first: u8,
        seats: Vec<SeatSetup>,
        legend_gems: Gems,
    ) -> Result<Game, SetupError> {
        let mut game = Game::setup(options, 0)?;
        if seats.len() != game.players.len()
            || stage >= STAGES
            || stage_first as usize >= seats.len()
        {
            return Err(SetupError::new(
                "bad_position",
                "seats, stage or first player out of range",
            ));
        }
        game.stage = stage;
        game.stage_first = stage_first;
        for (player, setup) in game.players.iter_mut().zip(seats) {
            player.pyramid = setup.pyramid;
            player.gems = setup.gems;
            player.stage_scores = setup.stage_scores;
            player.stage_complete = true;
        }
        if let Some(legend) = game.legend.as_mut() {
            legend.gems = legend_gems;
        }
        game.phase = Phase::Take;
        game.begin_stage_end();
        Ok(game)
    }
}
