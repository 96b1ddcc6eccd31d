//! Who plays: the server's own identifier of a registered player or guest, kept opaque here.
use serde::{Deserialize, Serialize};
use std::fmt;

/// A player's identifier. Ordered, so that every map and every tie in this crate is walked in
/// one order whatever the input order (pairings replay bit for bit).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(pub String);

impl PlayerId {
    pub fn new(id: impl Into<String>) -> Self {
        PlayerId(id.into())
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
