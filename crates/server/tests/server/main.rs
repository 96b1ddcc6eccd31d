//! Every integration test of this crate, one module per feature, in one binary: one link
//! of the crate and its dependencies instead of one per file.

mod accounts;
mod after_game;
mod api;
mod chat;
mod clocks;
mod club_owner;
mod common;
mod connections;
mod daily_embargo;
mod edges;
mod fair_shares;
mod faults;
mod health;
mod i18n;
mod lean;
mod limits;
mod mail_bounds;
mod mail_texts;
mod meet;
mod metrics;
mod migrations;
mod notes;
mod offline_games;
mod pairing_limits;
mod pairing_queue;
mod play;
#[cfg(feature = "postgres-tests")]
mod postgres;
mod puzzles;
mod reach;
mod rematch_and_analysis;
mod resign;
#[cfg(feature = "postgres-tests")]
mod room_builds;
mod social;
mod timeouts;
mod tournament_round_days;
mod tournaments;
mod tutorials;
mod undo;
mod vacation;
