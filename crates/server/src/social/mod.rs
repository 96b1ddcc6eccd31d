//! Playing together (issue 49 items 2–4): friends (follows, presence, challenges,
//! friends-only tables), clubs (members, roles, moderation, club-only tables), and what a
//! profile shows beyond its ratings (rating graphs, statistics per game, fair play, player
//! search). See docs/protocol.md, "Friends, clubs and profiles".
pub mod audience;
pub mod club_role;
pub mod club_store;
pub mod clubs;
pub mod follow_store;
pub mod friends;
pub mod player_stats;
pub mod profile_stats;
