//! The `tournament` message (`ServerMsg::Tournament`) and the standings it carries, as the
//! tournament page reads them (and `GET /api/tournaments/{id}` gives them). Here, beside the
//! other messages, so that the protocol names no tournament module: the tournaments send it.
use serde::Serialize;

/// One player as shown: id, display name, whether a bot.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct PlayerView {
    pub id: String,
    pub name: String,
    pub bot: bool,
}

/// One line of the standings (`crate::tournament` tie-breaks: points, opponents, score, wins).
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct StandingView {
    #[serde(flatten)]
    #[ts(flatten)]
    pub player: PlayerView,
    /// 1 for the leaders; level players share a rank.
    pub rank: u32,
    pub points: u32,
    /// The opponents' mean points summed over games (a decimal, from the core's twelfths).
    pub opponents: f64,
    pub score: i64,
    pub wins: u32,
    pub games: u32,
    pub byes: u32,
    pub withdrawn: bool,
    /// Arena: the player's last two games were sole wins, so the next counts double.
    pub on_fire: bool,
}

/// A `tournament` message: what changed, and the standings as they are now.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct TournamentMsg {
    pub tournament: String,
    /// `round_started` (Swiss), `seated` (Arena: the recipient's new table), `standings` (a
    /// result moved them) or `finished`.
    pub event: &'static str,
    /// `running`, `finished` or `cancelled`.
    pub status: &'static str,
    /// The round just started (from 0).
    pub round: Option<u32>,
    /// The recipient's game in the round just started.
    pub game: Option<String>,
    pub standings: Vec<StandingView>,
}
