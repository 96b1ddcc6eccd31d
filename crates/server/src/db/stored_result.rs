//! Reading a finished game's stored result (`games.result`): the one way the history, the
//! profiles, the daily board and the ratings read who won, so that they all read the ranking
//! `crate::live::endings::final_ranks` made. In the storage layer because the ratings, which
//! move in the transaction that ends a game, read it too.

/// The ranks of a stored result (0 first).
pub fn stored_ranks(result: &serde_json::Value) -> Option<Vec<u8>> {
    serde_json::from_value(result.get("ranks")?.clone()).ok()
}

/// The seats a stored result lists under `field` (`resigned`, `absent`): none when absent.
pub fn stored_seats(result: &serde_json::Value, field: &str) -> Vec<u8> {
    result
        .get(field)
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default()
}
