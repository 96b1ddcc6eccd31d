//! Clocks per turn. A turn is everything a seat plays until another seat is to move (in some
//! games a turn is several moves: take, flip, place; one clock). Two kinds of profile:
//! - real time: each seat has a time bank, and gains a bonus when its turn ends;
//! - turn-based: each turn has a fixed time (e.g. 24 h); what is left is not kept.
//!
//! Time is wall-clock milliseconds, so a clock reads the same across a server restart: the
//! banks and the start of the running turn are stored with every move (see `store`).
//!
//! When a turn's time runs out a bot plays that turn for the seat (announced to everyone), and
//! the seat's next turn has a fresh minimum of time (real time: [`Clock::fresh_minimum`];
//! turn-based: the full turn, as always), so that each time-out costs one turn; after
//! [`TIMEOUTS_TO_BOT`] time-outs the seat is played by a bot until its player takes it back
//! ("I'm back", [`Clock::take_back`]) or the game ends.
use crate::time_control::{ClockProfile, ClockState};
use serde::Serialize;

/// Time-outs after which a seat is played by a bot until the end of the game.
pub const TIMEOUTS_TO_BOT: u32 = 3;

/// The least a real-time seat has for its next turn after a time-out (unless its profile's
/// whole bank is less).
pub const FRESH_MINIMUM_MS: i64 = 30_000;

/// A running clock: its profile and its state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub profile: ClockProfile,
    pub state: ClockState,
}

/// What a `state` message says of the clock (see docs/protocol.md).
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    pub profile: ClockProfile,
    /// Per seat, its time left as of this message: the running seat's counts down.
    pub remaining_ms: Vec<i64>,
    pub running: Option<u8>,
    pub timeouts: Vec<u32>,
    /// Time-outs after which a seat is played by a bot.
    pub bot_after: u32,
}

impl Clock {
    /// A new clock: every bank full, `running`'s turn starting `now`.
    pub fn start(profile: ClockProfile, seats: usize, running: Option<u8>, now: i64) -> Clock {
        let state = ClockState {
            banks_ms: vec![profile.bank_ms; seats],
            running,
            turn_started_ms: now,
            timeouts: vec![0; seats],
            covered: false,
            ran_out: Vec::new(),
        };
        Clock { profile, state }
    }

    /// The time `seat` has for its turn, counted from the start of the turn.
    fn allotted(&self, seat: u8) -> i64 {
        if self.profile.turn_based() {
            self.profile.turn_ms
        } else {
            self.state.banks_ms.get(seat as usize).copied().unwrap_or(0)
        }
    }

    /// Time left to `seat` at `now`: it only decreases while its turn runs.
    pub fn remaining(&self, seat: u8, now: i64) -> i64 {
        let allotted = self.allotted(seat);
        if self.state.running == Some(seat) {
            (allotted - (now - self.state.turn_started_ms).max(0)).max(0)
        } else {
            allotted
        }
    }

    /// When the running turn's time runs out (ms since the epoch).
    pub fn deadline(&self) -> Option<i64> {
        self.state
            .running
            .map(|s| self.state.turn_started_ms + self.allotted(s))
    }

    /// Whether `seat` has timed out often enough to be played by a bot.
    pub fn bot_plays(&self, seat: u8) -> bool {
        self.state
            .timeouts
            .get(seat as usize)
            .is_some_and(|&n| n >= TIMEOUTS_TO_BOT)
    }

    /// Whether the others may claim the game against `seat` (end it with `seat` ranked last):
    /// a bot plays it for good after [`TIMEOUTS_TO_BOT`] time-outs, or, in real time, its last
    /// turn ran out and its player has not played a turn since. Real time does not wait for
    /// three missed turns, as lichess offers "claim victory" as soon as a player is gone: there a
    /// time-out is a whole bank spent, minutes of everyone's attention; turn-based games keep
    /// the three, a missed day being no sign that a player left.
    pub fn claimable(&self, seat: u8) -> bool {
        self.bot_plays(seat) || (!self.profile.turn_based() && self.state.ran_out.contains(&seat))
    }

    /// What a real-time seat's bank is after a turn that ran out: a quarter of the profile's
    /// bank or [`FRESH_MINIMUM_MS`], whichever is more (never more than the whole bank), so
    /// that the next turn can be played rather than timed out at once.
    pub fn fresh_minimum(&self) -> i64 {
        (self.profile.bank_ms / 4)
            .max(FRESH_MINIMUM_MS)
            .min(self.profile.bank_ms)
    }

    /// `seat`'s player takes back the seat a bot took (at `now`): its time-outs count from
    /// none again, and its running turn starts afresh with at least the fresh minimum.
    pub fn take_back(&mut self, seat: u8, now: i64) {
        if let Some(n) = self.state.timeouts.get_mut(seat as usize) {
            *n = 0;
        }
        self.state.ran_out.retain(|&s| s != seat);
        let fresh = self.fresh_minimum();
        if let Some(bank) = self.state.banks_ms.get_mut(seat as usize) {
            *bank = (*bank).max(fresh);
        }
        if self.state.running == Some(seat) {
            self.state.turn_started_ms = now;
            self.state.covered = false;
        }
    }

    /// After a move played at `now`, `next` is to move. The clock only changes when the seat
    /// to move changes: the turn that ends pays its time (and gains the bonus), the next one
    /// starts now. A turn that ran out (`timed_out`) leaves the fresh minimum (plus the bonus).
    pub fn after_move(&mut self, next: Option<u8>, now: i64, timed_out: bool) {
        if next == self.state.running {
            return;
        }
        // A turn played to its end by its seat: that seat is no longer gone.
        if let Some(seat) = self.state.running
            && !timed_out
        {
            self.state.ran_out.retain(|&s| s != seat);
        }
        if let Some(seat) = self.state.running
            && !self.profile.turn_based()
        {
            let left = if timed_out {
                self.fresh_minimum()
            } else {
                self.remaining(seat, now)
            };
            if let Some(bank) = self.state.banks_ms.get_mut(seat as usize) {
                *bank = left + self.profile.bonus_ms;
            }
        }
        self.state.running = next;
        self.state.turn_started_ms = now;
        self.state.covered = false;
    }

    /// Counts a time-out of `seat`, whose running turn a bot now plays.
    pub fn count_timeout(&mut self, seat: u8) {
        if let Some(n) = self.state.timeouts.get_mut(seat as usize) {
            *n += 1;
        }
        if !self.state.ran_out.contains(&seat) {
            self.state.ran_out.push(seat);
        }
        self.state.covered = true;
    }

    pub fn view(&self, now: i64) -> ClockView {
        let seats = self.state.banks_ms.len();
        ClockView {
            profile: self.profile.clone(),
            remaining_ms: (0..seats).map(|s| self.remaining(s as u8, now)).collect(),
            running: self.state.running,
            timeouts: self.state.timeouts.clone(),
            bot_after: TIMEOUTS_TO_BOT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::parse_profiles;

    fn real_time() -> ClockProfile {
        parse_profiles("fast=60+5").unwrap().remove(0)
    }

    #[test]
    fn a_real_time_bank_pays_the_turn_and_gains_the_bonus_when_the_seat_changes() {
        let mut c = Clock::start(real_time(), 2, Some(0), 1_000);
        assert_eq!(c.remaining(0, 11_000), 50_000);
        assert_eq!(
            c.remaining(1, 11_000),
            60_000,
            "a waiting seat's clock stands"
        );
        // A second move of the same turn: nothing is paid yet, the clock keeps running.
        c.after_move(Some(0), 11_000, false);
        assert_eq!(c.remaining(0, 21_000), 40_000);
        c.after_move(Some(1), 21_000, false);
        assert_eq!(c.state.banks_ms, vec![45_000, 60_000]);
        assert_eq!(c.remaining(0, 30_000), 45_000);
        assert_eq!(c.remaining(1, 30_000), 51_000);
        assert_eq!(c.deadline(), Some(81_000));
    }

    #[test]
    fn a_turn_that_ran_out_leaves_a_fresh_minimum_for_the_next() {
        let mut c = Clock::start(real_time(), 2, Some(0), 0);
        assert_eq!(c.remaining(0, 70_000), 0, "never below zero");
        c.count_timeout(0);
        assert!(c.state.covered);
        c.after_move(Some(1), 70_000, true);
        assert!(!c.state.covered, "the next turn is the next seat's own");
        // 60 s bank: a quarter is 15 s, less than 30 s; 30 s plus the 5 s bonus.
        assert_eq!(c.state.banks_ms[0], 35_000);
        let big = parse_profiles("long=1800+0").unwrap().remove(0);
        assert_eq!(Clock::start(big, 2, None, 0).fresh_minimum(), 450_000);
        let small = parse_profiles("small=10+0").unwrap().remove(0);
        assert_eq!(Clock::start(small, 2, None, 0).fresh_minimum(), 10_000);
        assert_eq!(c.state.timeouts, vec![1, 0]);
        assert!(!c.bot_plays(0));
        c.count_timeout(0);
        c.count_timeout(0);
        assert!(c.bot_plays(0));
        // Taken back while seat 0 is to move with an empty bank: a fresh turn.
        c.after_move(Some(0), 80_000, false);
        c.state.banks_ms[0] = 0;
        c.take_back(0, 90_000);
        assert!(!c.bot_plays(0));
        assert_eq!(c.state.timeouts, vec![0, 0]);
        assert_eq!(c.remaining(0, 90_000), 30_000);
        assert_eq!(c.deadline(), Some(120_000));
    }

    #[test]
    fn a_real_time_seat_is_claimable_from_its_first_time_out_until_it_plays_a_turn() {
        let mut c = Clock::start(real_time(), 2, Some(0), 0);
        assert!(!c.claimable(0) && !c.claimable(1));
        c.count_timeout(0);
        c.after_move(Some(1), 70_000, true);
        assert!(c.claimable(0), "gone after one time-out");
        assert!(!c.claimable(1));
        // Its next turn is running: still gone until it plays it.
        c.after_move(Some(0), 80_000, false);
        assert!(c.claimable(0));
        c.after_move(Some(1), 90_000, false);
        assert!(!c.claimable(0), "it played a turn: back in the game");
        // "I'm back" clears it too.
        c.count_timeout(1);
        c.take_back(1, 100_000);
        assert!(!c.claimable(1));
        // Stored as before when nobody ran out.
        let json = serde_json::to_value(&c.state).unwrap();
        assert!(json.get("ran_out").is_none(), "{json}");
    }

    #[test]
    fn a_turn_based_seat_is_claimable_only_once_a_bot_has_it() {
        let day = parse_profiles("day=86400").unwrap().remove(0);
        let mut c = Clock::start(day, 2, Some(0), 0);
        c.count_timeout(0);
        c.after_move(Some(1), 86_400_000, true);
        assert!(!c.claimable(0), "one missed day is no sign of leaving");
        c.count_timeout(0);
        c.count_timeout(0);
        assert!(c.claimable(0));
    }

    #[test]
    fn a_turn_based_clock_gives_every_turn_the_same_time() {
        let day = parse_profiles("day=86400").unwrap().remove(0);
        let mut c = Clock::start(day, 2, Some(0), 0);
        c.after_move(Some(1), 80_000_000, false);
        assert_eq!(c.remaining(0, 80_000_000), 86_400_000);
        assert_eq!(c.remaining(1, 80_000_000), 86_400_000);
        assert_eq!(c.deadline(), Some(80_000_000 + 86_400_000));
        c.after_move(None, 90_000_000, false);
        assert_eq!(c.deadline(), None);
    }
}
