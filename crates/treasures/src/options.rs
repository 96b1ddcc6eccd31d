use pyramidion_core::SetupError;
use serde::{Deserialize, Serialize};

/// Solo modes against THE Legend.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
pub enum SoloMode {
    /// "Become A Legend".
    #[serde(rename = "a-legend")]
    ALegend,
    /// "Become THE Legend": at each stage start he draws a gem if he holds ≥ 7 Mythicals.
    #[serde(rename = "the-legend")]
    TheLegend,
}

impl std::str::FromStr for SoloMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "a-legend" => Ok(SoloMode::ALegend),
            "the-legend" => Ok(SoloMode::TheLegend),
            _ => Err(format!("unknown solo mode '{s}' (a-legend, the-legend)")),
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// 1–4; 1 requires a solo mode.
    pub players: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solo: Option<SoloMode>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            players: 2,
            solo: None,
        }
    }
}

impl Options {
    pub fn multiplayer(players: u8) -> Options {
        Options {
            players,
            solo: None,
        }
    }

    pub fn solo(mode: SoloMode) -> Options {
        Options {
            players: 1,
            solo: Some(mode),
        }
    }

    pub fn validate(&self) -> Result<(), SetupError> {
        match (self.players, self.solo) {
            (1, Some(_)) | (2..=4, None) => Ok(()),
            (1, None) => Err(SetupError::new(
                "solo_mode_required",
                "one player plays against THE Legend: choose solo mode a-legend or the-legend",
            )),
            (2..=4, Some(_)) => Err(SetupError::new(
                "solo_mode_needs_one_player",
                "solo modes are for exactly one player",
            )),
            (n, _) => Err(SetupError::new(
                "bad_player_count",
                format!("Forgotten Treasures is for 1 to 4 players, not {n}"),
            )),
        }
    }
}
