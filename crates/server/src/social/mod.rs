//! Playing together (issue 49 items 2–4): friends (follows, presence, challenges,
//! friends-only tables), clubs (members, roles, moderation, club-only tables), and what a
//! profile shows beyond its ratings (rating graphs, statistics per game, fair play, player
//! search). See docs/protocol.md, "Friends, clubs and profiles". This module holds what they
//! are and how they are stored; their HTTP handlers are `crate::http::{friends, clubs,
//! profile_stats}`, and a table's audience is checked by `crate::http::api`.
pub mod audience;
pub mod club_owner_store;
pub mod club_role;
pub mod club_store;
pub mod follow_store;
pub mod lookup;
pub mod player_stats;
