//! The HTTP side: one file per resource the API serves (tables and the lobby, accounts,
//! sessions, history, profiles, exports, replays, the daily challenge, rematches, "your move",
//! pairing and watching, the static pages), and what stands in front of every request (the
//! accept loop, the client's address, rate limits, quotas).
pub mod accounts;
pub mod api;
pub mod auth;
pub mod chat;
pub mod client_ip;
pub mod club_owner;
pub mod clubs;
pub mod coded_field;
pub mod daily;
pub mod endings;
pub mod export;
pub mod friends;
pub mod history;
pub mod internal_gate;
pub mod listen;
pub mod meet;
pub mod metrics_listener;
pub mod notes;
pub mod notify;
pub mod offline_games;
pub mod pairing_internal;
pub mod profile_stats;
pub mod profiles;
pub mod quotas;
pub mod rematch;
pub mod replay;
pub mod tournaments;
pub mod turns;
pub mod tutorials;
pub mod vacation;
pub mod watch_cache;
pub mod web;
pub mod ws;
pub mod ws_reader;
