//! End-to-end tests of the browser client in real headless Chromium, against the real
//! `pyramidion serve` binary: everything is done by clicking in the page, as a player would.
//! Screenshots (1280 px and 375 px wide) are saved in `target/browser-artifacts/`.
//!
//! `support` is what every test shares; each game has its own module (`forgotten_treasures`,
//! `pyramido`, `pyramids`), and every other module is one feature of the site.
mod absence;
mod after_game;
mod analysis_board;
mod follow;
mod forgotten_treasures;
mod generic;
mod live_play;
mod offline;
mod people;
mod people3;
mod people_shots;
mod polish;
mod previews;
mod puzzles;
mod puzzles_offline;
mod pyramido;
mod pyramids;
mod reach;
mod shell;
mod social;
mod support;
mod tournament;
mod tutorial;
mod undo;
mod vacation;
mod webdriver;
