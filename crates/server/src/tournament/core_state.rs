//! A tournament's state in the pure core, whichever its format: the `Swiss` or the `Arena`
//! stored as JSON in its row (`tournaments.state`, read by its `format`).
use super::row::{Format, TournamentRow};
use crate::live::tournament_msg::{PlayerView, StandingView};
use pyramidion_tournament::{Arena, Standing, Swiss};
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub enum Core {
    Swiss(Swiss),
    Arena(Arena),
}

impl Core {
    /// The row's stored state, once started (a state that does not read is none: the row
    /// says `corrupt` nowhere else, and a page still shows the settings).
    pub fn of(row: &TournamentRow) -> Option<Core> {
        let state = row.state.as_deref()?;
        match row.format {
            Format::Swiss => serde_json::from_str(state).ok().map(Core::Swiss),
            Format::Arena => serde_json::from_str(state).ok().map(Core::Arena),
        }
    }

    pub fn to_json(&self) -> serde_json::Result<String> {
        match self {
            Core::Swiss(s) => serde_json::to_string(s),
            Core::Arena(a) => serde_json::to_string(a),
        }
    }

    /// Every player id the core knows (bots included).
    pub fn players(&self) -> Vec<String> {
        match self {
            Core::Swiss(s) => s.players.iter().map(|p| p.id.0.clone()).collect(),
            Core::Arena(a) => a.players.iter().map(|p| p.id.0.clone()).collect(),
        }
    }

    /// The standings as shown (ranks from 1).
    pub fn standings(&self, names: &HashMap<String, PlayerView>) -> Vec<StandingView> {
        match self {
            Core::Swiss(s) => standings(s, names),
            Core::Arena(a) => a
                .standings()
                .iter()
                .map(|s| StandingView {
                    player: player(names, &s.id.0),
                    rank: s.rank + 1,
                    points: s.points,
                    opponents: 0.0,
                    score: 0,
                    wins: s.wins,
                    games: s.games,
                    byes: 0,
                    withdrawn: false,
                    on_fire: s.on_fire,
                })
                .collect(),
        }
    }
}

/// A player as shown: their name when known, else their id.
pub fn player(names: &HashMap<String, PlayerView>, id: &str) -> PlayerView {
    names.get(id).cloned().unwrap_or_else(|| PlayerView {
        id: id.to_string(),
        name: id.to_string(),
        bot: super::is_bot(id),
    })
}

/// A Swiss's standings as shown (ranks from 1).
fn standings(swiss: &Swiss, names: &HashMap<String, PlayerView>) -> Vec<StandingView> {
    swiss
        .standings()
        .iter()
        .map(|s: &Standing| StandingView {
            player: player(names, &s.id.0),
            rank: s.rank + 1,
            points: s.points,
            opponents: s.opponents as f64 / 12.0,
            score: s.score,
            wins: s.wins,
            games: s.games,
            byes: s.byes,
            withdrawn: s.withdrawn,
            on_fire: false,
        })
        .collect()
}
