//! Resign, abandon, claim, and "I'm back" (issue 27): what a player may do to a started game
//! besides moving. The room decides (it owns the game); this file holds what is asked of it
//! and the final ranking with resignations (the HTTP endpoints and the sweep that abandons
//! forgotten games against bots ask rooms from `crate::http::endings`).
//!
//! The final ranking is the server's, made in one place ([`final_ranks`]): the seats present
//! at the end by the rules, then the seats a stand-in bot played for an absent player, then
//! the resigned seats, the first to resign last. A game ends early when fewer than two seats,
//! or no person, are left in it; the seats left then share the first rank.
use crate::error::ApiError;
use pyramidion_core::Outcome;
use serde::{Deserialize, Serialize};

/// What a player asks of a started game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Leave the game ranked last; in a game of three or more a bot plays the seat on.
    Resign,
    /// End a game against bots only.
    Abandon,
    /// End a turn-based game for the seats whose player is away (a bot took their seat after
    /// too many time-outs): they rank last.
    Claim,
    /// Take back a seat a bot took after too many time-outs.
    Back,
    /// Take back the last step of one's own turn, played on the state `state_id` names
    /// (`crate::live::room`'s undo: the game's rules say which steps may be).
    Undo { state_id: u64 },
    /// The user is on vacation until `until` (ms since the epoch): the clock of a turn-based
    /// game pauses for their seats (`crate::live::vacation`).
    Vacation { until: i64 },
    /// The server only: a tournament round's deadline passed with the game unfinished
    /// (`crate::tournament::deadline`): it ends now, the seat to move ranked last.
    Adjudicate,
}

/// The room's answer: what happened, or why not (a stable code).
pub type Answer = Result<Done, ApiError>;

/// What a resignation, abandon, claim or "I'm back" did, as the HTTP answer says it (and as
/// it crosses a cluster link: `crate::live::link`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Done {
    /// Seats resigned: whether the game ended, and every resigned seat in order.
    Resigned { ended: bool, resigned: Vec<u8> },
    /// Seats taken back from the bot that played them.
    Back { seats: Vec<u8> },
    /// The last step taken back: the state the game is at now.
    Undone { state_id: u64 },
    /// The seats whose clock pauses for a vacation, and until when.
    Paused { paused: Vec<u8>, until: i64 },
}

/// The stored result of a game its rules ended: the final outcome ([`final_outcome`]) and,
/// when any seat resigned or was absent, those seats (resigned in order).
#[derive(Serialize)]
pub struct FinishedResult<'a> {
    #[serde(flatten)]
    pub outcome: &'a Outcome,
    #[serde(skip_serializing_if = "<[u8]>::is_empty")]
    pub resigned: &'a [u8],
    #[serde(skip_serializing_if = "<[u8]>::is_empty")]
    pub absent: &'a [u8],
}

/// The stored result (and a `state` message's `ending`) of a game that ended early: why
/// (`resigned`, `abandoned` or `claimed`), the final ranks and who resigned in order, and who
/// was absent. Its fields are in the order the stored results have always had (alphabetical);
/// `absent` is left out when empty, so that results stored before it read the same.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
pub struct EarlyResult {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<u8>,
    pub ending: String,
    pub ranks: Vec<u8>,
    pub resigned: Vec<u8>,
}

/// THE final ranking (0 first) of a game's `seats` seats: every ranking the server shows or
/// stores (the end screen's `state` message and view, the stored result that the history,
/// profiles and ratings read, the replay) comes from here and nowhere else, and the browser
/// draws it as it is. `engine` is the rules' ranking (`None` when the game ended early),
/// `resigned` the seats resigned in order, `absent` the seats a stand-in bot played when the
/// game ended (their player timed out too often and did not come back).
///
/// The rule (after Board Game Arena, where a player who leaves ranks last whatever the
/// score): the seats present at the end first, ranked by the rules among themselves (sharing
/// the first rank when the game ended early); then the absent seats, by the rules among
/// themselves, so that a bot standing in for someone who walked away never finishes above a
/// person who stayed; then the resigned seats, the first to resign last. Absent seats rank
/// above resigned ones so that a claim (which resigns the absent seats) lifts nobody: a seat
/// claimed against becomes the latest resigner, still below everyone it was below. In a solo
/// game a seat that resigned or was absent loses to the automa (rank 1).
pub fn final_ranks(engine: Option<&[u8]>, seats: usize, resigned: &[u8], absent: &[u8]) -> Vec<u8> {
    let absent: Vec<u8> = absent
        .iter()
        .copied()
        .filter(|s| !resigned.contains(s))
        .collect();
    if resigned.is_empty()
        && absent.is_empty()
        && let Some(r) = engine
    {
        return r.to_vec();
    }
    if seats == 1 {
        // A solo seat's rank says whether it beat the automa: gone, it did not.
        let gone = !resigned.is_empty() || !absent.is_empty();
        return vec![u8::from(gone)];
    }
    let present: Vec<usize> = (0..seats)
        .filter(|&s| !resigned.contains(&(s as u8)) && !absent.contains(&(s as u8)))
        .collect();
    let absent: Vec<usize> = absent.iter().map(|&s| s as usize).collect();
    // Seats of `group` strictly ahead of `s` by the rules (none when the game ended early).
    let ahead = |group: &[usize], s: usize| match engine {
        Some(r) => group.iter().filter(|&&t| r.get(t) < r.get(s)).count(),
        None => 0,
    };
    let mut ranks = vec![0u8; seats];
    for &s in &present {
        ranks[s] = ahead(&present, s) as u8;
    }
    for &s in &absent {
        if let Some(r) = ranks.get_mut(s) {
            *r = (present.len() + ahead(&absent, s)) as u8;
        }
    }
    let base = present.len() + absent.len();
    for (k, &s) in resigned.iter().enumerate() {
        if let Some(r) = ranks.get_mut(s as usize) {
            *r = (base + resigned.len() - 1 - k) as u8;
        }
    }
    ranks
}

/// The engine's outcome as the server ranks it ([`final_ranks`]): the resigned seats'
/// `decided_by` says `resigned`, the absent ones' `absent`, and each seat still in the game
/// is told apart from the seat now just above it on the rules' keys (the seat the engine had
/// above it may have left).
pub fn final_outcome(mut outcome: Outcome, resigned: &[u8], absent: &[u8]) -> Outcome {
    let seats = outcome.ranks.len();
    let ranks = final_ranks(Some(&outcome.ranks), seats, resigned, absent);
    if ranks == outcome.ranks && resigned.is_empty() && absent.is_empty() {
        return outcome;
    }
    if seats == 1 {
        outcome.ranks = ranks;
        outcome.decided_by =
            vec![gone_by(0, resigned, absent).or(outcome.decided_by.first().copied().flatten())];
        return outcome;
    }
    let mut order: Vec<usize> = (0..seats).collect();
    order.sort_by_key(|&s| (ranks[s], s));
    let mut decided_by = vec![None; seats];
    for pair in order.windows(2) {
        let (above, seat) = (pair[0], pair[1]);
        decided_by[seat] = Some(gone_by(seat, resigned, absent).unwrap_or_else(|| {
            outcome
                .keys
                .iter()
                .find(|k| k.values.get(above) != k.values.get(seat))
                .map_or(pyramidion_core::rules::SHARED, |k| k.name)
        }));
    }
    if let Some(&first) = order.first() {
        decided_by[first] = gone_by(first, resigned, absent);
    }
    outcome.ranks = ranks;
    outcome.decided_by = decided_by;
    outcome
}

/// Why `seat` ranks where it does when it left: `resigned` or `absent`.
fn gone_by(seat: usize, resigned: &[u8], absent: &[u8]) -> Option<&'static str> {
    if resigned.contains(&(seat as u8)) {
        Some("resigned")
    } else if absent.contains(&(seat as u8)) {
        Some("absent")
    } else {
        None
    }
}

/// The stored result of a game that ended early (no engine outcome): ranks, why, who
/// resigned in order and who was absent. Its `ranks` field is what ratings and histories read.
pub fn early_result(ending: &str, ranks: &[u8], resigned: &[u8], absent: &[u8]) -> EarlyResult {
    EarlyResult {
        absent: absent
            .iter()
            .copied()
            .filter(|s| !resigned.contains(s))
            .collect(),
        ending: ending.to_string(),
        ranks: ranks.to_vec(),
        resigned: resigned.to_vec(),
    }
}

// The readers of a stored result live with the storage (the ratings, below this layer,
// read them too); the history, profiles and replay take them from here as before.
pub use crate::db::stored_result::{stored_ranks, stored_seats};

/// The outcome of a finished game's last position replayed from its record, as the server
/// ranked the game: the rules' outcome with the resigned and absent seats its stored result
/// lists (the replay's end says what the end screen and the history said).
pub fn replayed_outcome(engine: Outcome, stored: &serde_json::Value) -> Outcome {
    final_outcome(
        engine,
        &stored_seats(stored, "resigned"),
        &stored_seats(stored, "absent"),
    )
}

/// A game's view with its `outcome` (the rules', in every game's view envelope) replaced by
/// the server's final one: a finished game's view says the same ranking as the `state`
/// message around it, whatever part of it a client reads. A view without an outcome (the
/// game runs, or a daily challenge shows the position before its end) is left as it is.
pub fn ranked_view(
    view: Box<serde_json::value::RawValue>,
    outcome: Option<&Outcome>,
) -> Box<serde_json::value::RawValue> {
    let Some(outcome) = outcome else { return view };
    let Ok(mut value) = serde_json::from_str::<serde_json::Value>(view.get()) else {
        return view;
    };
    if !rank_view(&mut value, outcome) {
        return view;
    }
    serde_json::value::to_raw_value(&value).unwrap_or(view)
}

/// [`ranked_view`] on a view already parsed (the replay's); whether it changed.
pub fn rank_view(view: &mut serde_json::Value, outcome: &Outcome) -> bool {
    match (view.get_mut("outcome"), serde_json::to_value(outcome)) {
        (Some(shown), Ok(ours)) if !shown.is_null() => {
            *shown = ours;
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests;
