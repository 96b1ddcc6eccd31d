//! Resign, abandon, claim, and "I'm back" (issue 27): what a player may do to a started game
//! besides moving. The room decides (it owns the game); this file holds what is asked of it
//! and the final ranking with resignations (the HTTP endpoints and the sweep that abandons
//! forgotten games against bots ask rooms from `crate::http::endings`).
//!
//! The final ranking is the server's: the rules engine's ranking among the seats still in the
//! game, then the resigned seats, the first to resign last. A game ends early when fewer than
//! two seats, or no person, are left in it; the seats left then share the first rank.
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
}

/// The stored result of a game its rules ended: the engine's outcome (with the resigned seats
/// ranked last) and, when any seat resigned, those seats in order.
#[derive(Serialize)]
pub struct FinishedResult<'a> {
    #[serde(flatten)]
    pub outcome: &'a Outcome,
    #[serde(skip_serializing_if = "<[u8]>::is_empty")]
    pub resigned: &'a [u8],
}

/// The stored result (and a `state` message's `ending`) of a game that ended early: why
/// (`resigned`, `abandoned` or `claimed`), the final ranks and who resigned in order. Its
/// fields are in the order the stored results have always had (alphabetical).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EarlyResult {
    pub ending: String,
    pub ranks: Vec<u8>,
    pub resigned: Vec<u8>,
}

/// Ranks (0 first) of `seats` seats after the game, from the engine's ranks (`None` when the
/// game ended early) and the resignations in order.
pub fn final_ranks(engine: Option<&[u8]>, seats: usize, resigned: &[u8]) -> Vec<u8> {
    if resigned.is_empty()
        && let Some(r) = engine
    {
        return r.to_vec();
    }
    let active: Vec<usize> = (0..seats)
        .filter(|s| !resigned.contains(&(*s as u8)))
        .collect();
    let mut ranks = vec![0u8; seats];
    for &s in &active {
        ranks[s] = match engine {
            Some(r) => active.iter().filter(|&&t| r[t] < r[s]).count() as u8,
            None => 0,
        };
    }
    // A solo game's one seat resigning still loses (to the automa): rank 1.
    let base = active.len().max(1);
    for (k, &s) in resigned.iter().enumerate() {
        if let Some(r) = ranks.get_mut(s as usize) {
            *r = (base + resigned.len() - 1 - k) as u8;
        }
    }
    ranks
}

/// The engine's outcome with the resigned seats ranked last (said as `resigned` in
/// `decided_by`).
pub fn with_resignations(mut outcome: Outcome, resigned: &[u8]) -> Outcome {
    if resigned.is_empty() {
        return outcome;
    }
    outcome.ranks = final_ranks(Some(&outcome.ranks), outcome.ranks.len(), resigned);
    for &s in resigned {
        if let Some(d) = outcome.decided_by.get_mut(s as usize) {
            *d = Some("resigned");
        }
    }
    outcome
}

/// The stored result of a game that ended early (no engine outcome): ranks, why, and who
/// resigned in order. Its `ranks` field is what ratings and histories read.
pub fn early_result(ending: &str, ranks: &[u8], resigned: &[u8]) -> EarlyResult {
    EarlyResult {
        ending: ending.to_string(),
        ranks: ranks.to_vec(),
        resigned: resigned.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigners_rank_last_the_first_lowest() {
        // Engine: seat 2 first, 0 second, 1 third, 3 fourth; seats 2 then 0 resigned.
        assert_eq!(
            final_ranks(Some(&[1, 2, 0, 3]), 4, &[2, 0]),
            vec![2, 0, 3, 1]
        );
        // Ended early: the seat left is first.
        assert_eq!(final_ranks(None, 2, &[1]), vec![0, 1]);
        assert_eq!(final_ranks(None, 3, &[0, 2]), vec![2, 0, 1]);
        // Solo: resigning loses to the automa.
        assert_eq!(final_ranks(None, 1, &[0]), vec![1]);
        // No resignation: the engine's ranks as they are (a solo loss stays a loss).
        assert_eq!(final_ranks(Some(&[1]), 1, &[]), vec![1]);
        // Ties among the seats left stay ties.
        assert_eq!(final_ranks(Some(&[0, 0, 2]), 3, &[2]), vec![0, 0, 2]);
    }
}
