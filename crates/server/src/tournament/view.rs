//! What the API (`GET /api/tournaments/{id}`) and the socket (`tournament` messages) show of
//! a tournament: its settings, entrants, standings with their tie-breaks, rounds and tables
//! (each a game id), and the podium. Bots that filled tables are marked; the podium is the
//! people's: bots stand in the standings (their points were played for) but never on it.
use super::core_state::{Core, player};
use super::is_bot;
use super::row::{Format, Status, TournamentRow};
use super::swiss_step::{Entrant, TableGame};
use crate::db::error::Result;
use crate::db::store::Store;
use crate::live::tournament_msg::{PlayerView, StandingView};
use serde::Serialize;
use std::collections::HashMap;

/// An Arena's page lists its latest tables only.
pub const ARENA_TABLES_SHOWN: usize = 100;

#[derive(Clone, Debug, Serialize)]
pub struct TableView {
    pub table: usize,
    pub game: Option<String>,
    pub players: Vec<PlayerView>,
    /// Each seat's place (0 first) once the game is over.
    pub places: Option<Vec<u8>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RoundView {
    pub round: u32,
    pub started_at: Option<i64>,
    pub ended_at: Option<i64>,
    /// While the round runs, when its unfinished games are adjudicated (a clockless Swiss:
    /// `crate::tournament::deadline`).
    pub deadline_at: Option<i64>,
    pub tables: Vec<TableView>,
    pub byes: Vec<PlayerView>,
}

/// A person on the podium: their place among the people (1 to 3; level people share one).
#[derive(Clone, Debug, Serialize)]
pub struct PodiumView {
    pub place: u32,
    #[serde(flatten)]
    pub player: PlayerView,
}

/// A tournament as listed.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub id: String,
    pub name: String,
    pub game: String,
    pub format: Format,
    pub seats: u8,
    pub short_tables: bool,
    pub clock: Option<String>,
    pub rated: bool,
    pub starts_at: i64,
    pub rounds: Option<u32>,
    pub duration_ms: Option<i64>,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    pub entry: &'static str,
    pub bots: Option<String>,
    pub created_by: String,
    pub status: Status,
    pub finished_at: Option<i64>,
    pub entrants: usize,
    /// The days a round may last (a clockless Swiss only: `super::deadline`).
    pub round_days: Option<u32>,
    /// Why it was cancelled when not for too few players: `club_deleted`.
    pub cancelled_because: Option<String>,
}

impl Summary {
    pub fn of(row: &TournamentRow, entrants: usize) -> Summary {
        Summary {
            id: row.id.clone(),
            name: row.name.clone(),
            game: row.game.key().to_string(),
            format: row.format,
            seats: row.seats,
            short_tables: row.short_tables,
            clock: row.clock.clone(),
            rated: row.rated,
            starts_at: row.starts_at,
            rounds: row.rounds,
            duration_ms: row.duration_ms,
            min_rating: row.min_rating,
            max_rating: row.max_rating,
            entry: row.entry.as_str(),
            bots: row.bot_level.clone(),
            created_by: row.created_by.clone(),
            status: row.status,
            finished_at: row.finished_at,
            entrants,
            round_days: super::deadline::has_round_deadline(row).then_some(row.round_days),
            cancelled_because: row.cancelled_because.clone(),
        }
    }
}

/// The whole tournament as its page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentView {
    #[serde(flatten)]
    pub summary: Summary,
    pub options: serde_json::Value,
    /// The invite link's token, to the creator only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    pub players: Vec<PlayerView>,
    /// Entrants who withdrew (before the start, or since).
    pub withdrawn: Vec<String>,
    pub standings: Vec<StandingView>,
    /// The rounds paired so far (an Arena: one list of its latest tables); `rounds` is the
    /// Swiss's count of rounds.
    pub paired: Vec<RoundView>,
    pub podium: Vec<PodiumView>,
}

/// Display names of the people among `ids` (bots are named by the page).
pub async fn names(store: &Store, ids: &[String]) -> Result<HashMap<String, PlayerView>> {
    let mut out = HashMap::new();
    for id in ids {
        if out.contains_key(id) {
            continue;
        }
        let view = if is_bot(id) {
            PlayerView {
                id: id.clone(),
                name: id.trim_start_matches('~').to_string(),
                bot: true,
            }
        } else {
            let user = store.user(id).await?;
            PlayerView {
                id: id.clone(),
                name: crate::identity::display_name(
                    id,
                    user.as_ref().and_then(|u| u.name.as_deref()),
                ),
                bot: false,
            }
        };
        out.insert(id.clone(), view);
    }
    Ok(out)
}

/// The people ranked 1st to 3rd among the people (bots left out), level people sharing a
/// place; only once the tournament is finished.
pub fn podium(standings: &[StandingView]) -> Vec<PodiumView> {
    let people: Vec<&StandingView> = standings.iter().filter(|s| !s.player.bot).collect();
    people
        .iter()
        .map(|s| PodiumView {
            place: 1 + people.iter().filter(|o| o.rank < s.rank).count() as u32,
            player: s.player.clone(),
        })
        .filter(|p| p.place <= 3)
        .collect()
}

/// Everything the page shows; `viewer` sees the invite if they created the tournament.
pub async fn full(
    store: &Store,
    row: &TournamentRow,
    entrants: &[Entrant],
    tables: &[TableGame],
    viewer: Option<&str>,
) -> Result<TournamentView> {
    let core = Core::of(row);
    let mut ids: Vec<String> = entrants.iter().map(|e| e.user.clone()).collect();
    if let Some(c) = &core {
        ids.extend(c.players());
    }
    let names = names(store, &ids).await?;
    let starts = super::store::round_starts(store, &row.id).await?;
    let games: HashMap<(u32, usize), &TableGame> =
        tables.iter().map(|t| ((t.round, t.table), t)).collect();
    let standings = core
        .as_ref()
        .map(|c| c.standings(&names))
        .unwrap_or_default();
    let table_view =
        |round: u32,
         i: usize,
         players: &[pyramidion_tournament::PlayerId],
         places: Option<&pyramidion_tournament::TableResult>| TableView {
            table: i,
            game: games.get(&(round, i)).map(|g| g.game.clone()),
            players: players.iter().map(|p| player(&names, &p.0)).collect(),
            places: places.map(|res| res.places.clone()),
        };
    let rounds = match &core {
        Some(Core::Swiss(s)) => s
            .rounds
            .iter()
            .map(|r| {
                let (started_at, ended_at) = starts
                    .iter()
                    .find(|(n, ..)| *n == r.pairing.round)
                    .map_or((None, None), |(_, s, e)| (Some(*s), *e));
                RoundView {
                    round: r.pairing.round,
                    started_at,
                    ended_at,
                    deadline_at: started_at
                        .filter(|_| ended_at.is_none())
                        .and_then(|at| super::deadline::round_deadline(row, at)),
                    tables: r
                        .pairing
                        .tables
                        .iter()
                        .enumerate()
                        .map(|(i, t)| table_view(r.pairing.round, i, t, r.results[i].as_ref()))
                        .collect(),
                    byes: r
                        .pairing
                        .byes
                        .iter()
                        .map(|p| player(&names, &p.0))
                        .collect(),
                }
            })
            .collect(),
        // An Arena's tables, the latest first, as one list (its "round" 0).
        Some(Core::Arena(a)) => vec![RoundView {
            round: 0,
            started_at: a.tables.first().map(|t| t.started_at as i64),
            ended_at: None,
            deadline_at: None,
            tables: a
                .tables
                .iter()
                .enumerate()
                .rev()
                .take(ARENA_TABLES_SHOWN)
                .map(|(i, t)| table_view(0, i, &t.players, t.result.as_ref()))
                .collect(),
            byes: Vec::new(),
        }],
        None => Vec::new(),
    };
    let podium = if row.status == Status::Finished {
        podium(&standings)
    } else {
        Vec::new()
    };
    let active: Vec<&Entrant> = entrants.iter().filter(|e| !e.withdrawn).collect();
    Ok(TournamentView {
        summary: Summary::of(row, active.len()),
        options: serde_json::from_str(&row.options).unwrap_or_default(),
        invite: (viewer == Some(row.created_by.as_str())).then(|| row.invite.clone()),
        players: active.iter().map(|e| player(&names, &e.user)).collect(),
        withdrawn: entrants
            .iter()
            .filter(|e| e.withdrawn)
            .map(|e| e.user.clone())
            .collect(),
        standings,
        paired: rounds,
        podium,
    })
}
