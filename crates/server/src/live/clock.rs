//! Clocks per turn. A turn is everything a seat plays until another seat is to move (in some
//! games a turn is several moves: take, flip, place; one clock). Two kinds of profile:
//! - real time: each seat has a time bank, and gains a bonus when its turn ends;
//! - turn-based: each turn has a fixed time (e.g. 24 h); what is left is not kept.
//!
//! Time is wall-clock milliseconds: the banks and the start of the running turn are stored
//! with every move (see `store`).
//!
//! Time is charged only while the player could move. While a room runs, a person's running
//! turn is marked "seen" at its start and every [`Clock::seen_every`] (`ClockState::seen_ms`,
//! stored). A room rebuilt from storage with a turn marked seen — the server restarted, or
//! another instance took the game over when its owner died — charges the turn what it had used
//! when last seen and starts counting again from the rebuild ([`Clock::resume`]): the time the
//! game had no room (the restart, the owner's death until the take-over) is not charged, and
//! at most one `seen_every` of the turn before the failure is given to the player rather than
//! charged. Why not "the gap since the server stopped" from an instance's heartbeat: one
//! server (SQLite) has none, and the stamp per turn works the same for a restart and a
//! take-over, fenced by the game's lease like a move.
//!
//! What is charged is a duration measured by one instance's clock (`seen_ms - turn_started_ms`,
//! both written by the room that ran the turn), and the rebuilt room places the turn's start
//! on its own clock: an instance whose wall clock is an hour off neither empties nor stops a
//! game's bank when it takes the game over (issue 53). A room that leaves memory while its
//! turn runs (nobody follows a long turn) stores the turn as unseen (`seen_ms` none): the game
//! stays playable, so the time until a room is built again is charged, on the clock of the
//! instance that builds it — in a cluster the database's (`Cluster::database_clock`: the
//! rooms' clocks follow the database's as leases do), so skew does not count there either.
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

/// How often, at least, a room marks a running turn seen (`Clock::seen_every`).
const SEEN_EVERY_MS: i64 = 10_000;

/// A running clock: its profile and its state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub profile: ClockProfile,
    pub state: ClockState,
}

/// What a `state` message says of the clock (see docs/protocol.md).
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct ClockView {
    pub profile: ClockProfile,
    /// Per seat, its time left as of this message: the running seat's counts down.
    pub remaining_ms: Vec<i64>,
    pub running: Option<u8>,
    pub timeouts: Vec<u32>,
    /// Time-outs after which a seat is played by a bot.
    pub bot_after: u32,
    /// Per seat, until when its player is on vacation (ms since the epoch; null: not): its
    /// turn-based clock is paused until then (`crate::live::vacation`).
    pub vacation_until: Vec<Option<i64>>,
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
            seen_ms: running.map(|_| now),
            vacation: Vec::new(),
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
        // A turn paused by a vacation is shown as it will stand when the vacation ends.
        let now = now.max(self.vacation_until(seat).unwrap_or(now));
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
            self.state.seen_ms = Some(now);
        }
    }

    /// How often a room marks its running turn seen (`ClockState::seen_ms`): what a failure
    /// may give the player at most. Real time: 10 s; turn-based: a hundredth of the turn (a
    /// day's turn is marked every 14 min 24 s), at least 10 s.
    pub fn seen_every(&self) -> std::time::Duration {
        let ms = if self.profile.turn_based() {
            (self.profile.turn_ms / 100).max(SEEN_EVERY_MS)
        } else {
            SEEN_EVERY_MS
        };
        std::time::Duration::from_millis(ms as u64)
    }

    /// Whether a room runs the turn's clock: a seat is to move and no bot covers its time-out.
    fn ticking(&self) -> bool {
        self.state.running.is_some() && !self.state.covered
    }

    /// The running turn is seen running at `now` in a room that could take its move.
    pub fn seen(&mut self, now: i64) {
        if self.ticking() {
            self.state.seen_ms = Some(now);
        }
    }

    /// The room lets the game go while the game stays playable (it left memory): the turn is
    /// charged until a room is built again.
    pub fn unseen(&mut self) {
        self.state.seen_ms = None;
    }

    /// A room built from storage at `now`: the running turn, last seen at `seen_ms`, is
    /// charged what it had used then, and runs again from `now` (see the module's
    /// documentation). Whether the clock changed (to be stored).
    pub fn resume(&mut self, now: i64) -> bool {
        let Some(seen) = self.state.seen_ms.filter(|_| self.ticking()) else {
            return false;
        };
        let start = self.state.turn_started_ms;
        let before = self.state.clone();
        let paused = self.state.running.and_then(|s| self.vacation_until(s));
        self.state.turn_started_ms = match paused {
            // Paused by a vacation when last seen (`crate::live::vacation`): it has used
            // `until - start` when the vacation ends, and the time without a room after that
            // is not charged either.
            Some(until) if until > seen => {
                if now <= until {
                    start
                } else {
                    now - (until - start)
                }
            }
            _ => now - (seen - start),
        };
        self.state.seen_ms = Some(now);
        self.state != before
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
        self.state.seen_ms = next.map(|_| now);
        self.vacation_turn(now);
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
            vacation_until: (0..seats)
                .map(|s| self.vacation_until(s as u8).filter(|&u| u > now))
                .collect(),
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
    fn a_rebuilt_clock_charges_the_turn_what_it_used_when_last_seen_not_the_gap() {
        // 10+5: the turn started at 1 000 s, last seen 40 s into it; the server was down, and
        // the room is rebuilt 30 min later (or by an instance whose clock is 30 min ahead).
        let ten = parse_profiles("ten=600+5").unwrap().remove(0);
        let mut c = Clock::start(ten, 2, Some(0), 1_000_000);
        c.seen(1_040_000);
        let back = 1_040_000 + 1_800_000;
        assert!(c.resume(back));
        assert_eq!(c.remaining(0, back), 560_000, "the gap is not charged");
        assert_eq!(c.deadline(), Some(back + 560_000));
        assert_eq!(c.state.seen_ms, Some(back));
        // The same on a clock an hour behind the one that ran the turn: never stopped either.
        let mut behind = c.clone();
        behind.seen(back + 10_000);
        assert!(behind.resume(back - 3_600_000));
        assert_eq!(behind.remaining(0, back - 3_600_000), 550_000);
        assert_eq!(behind.remaining(0, back - 3_600_000 + 1_000), 549_000);
        // A turn let go unseen (its room left memory) is charged throughout.
        c.unseen();
        assert!(!c.resume(back + 100_000));
        assert_eq!(c.remaining(0, back + 100_000), 460_000);
        // A turn a bot covers, a finished game: nothing to resume.
        let mut covered = Clock::start(real_time(), 2, Some(0), 0);
        covered.count_timeout(0);
        assert!(!covered.resume(500_000));
        let mut over = Clock::start(real_time(), 2, Some(0), 0);
        over.after_move(None, 1_000, false);
        assert_eq!(over.state.seen_ms, None);
        assert!(!over.resume(500_000));
        // Clocks stored before `seen_ms` read and write as before.
        let json = serde_json::to_value(&over.state).unwrap();
        assert!(json.get("seen_ms").is_none(), "{json}");
    }

    #[test]
    fn a_turn_is_marked_seen_every_ten_seconds_or_a_hundredth_of_a_long_turn() {
        let day = parse_profiles("day=86400").unwrap().remove(0);
        let c = Clock::start(day, 2, Some(0), 0);
        assert_eq!(c.seen_every(), std::time::Duration::from_secs(864));
        let c = Clock::start(real_time(), 2, Some(0), 0);
        assert_eq!(c.seen_every(), std::time::Duration::from_secs(10));
        let short = parse_profiles("short=60").unwrap().remove(0);
        let c = Clock::start(short, 2, Some(0), 0);
        assert_eq!(c.seen_every(), std::time::Duration::from_secs(10));
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
