//! Vacation mode (issue 46 item 10): a player away for a few days has the clocks of their
//! turn-based games paused. The clock keeps, per seat, until when its player is on vacation
//! (`ClockState::vacation`, stored with it, so a restart reads it back): a turn of that seat is
//! not charged before then. A turn already running when the vacation starts keeps what it had
//! used and goes on when the vacation ends; a turn that comes to the seat during it starts when
//! it ends. Real-time games are never paused (a vacation does not reach them). Time is the
//! rooms' clock (in a cluster the database's: `Cluster::database_clock`), the one the turns
//! are charged by.
use crate::db::rows::SeatKind;
use crate::live::clock::Clock;
use crate::live::context::Context;

/// A turn-based game's clock, just started: the seats of players on vacation now are paused
/// until their vacation ends (`Clock::pause`), as they would be had the game been running when
/// it began. Real-time clocks are left as they are.
pub async fn pause_at_start(
    state: &Context,
    clock: &mut Clock,
    seats: &[SeatKind],
) -> Result<(), crate::db::error::StoreError> {
    if !clock.profile.turn_based() {
        return Ok(());
    }
    let now = state.config.room_clock.now_ms();
    for (seat, kind) in seats.iter().enumerate() {
        let SeatKind::Human(user) = kind else {
            continue;
        };
        let away = state.store.vacations_since(user, now).await?;
        if let Some(&(_, until)) = away.iter().find(|&&(starts, _)| starts <= now) {
            clock.pause(seat as u8, now, until);
        }
    }
    Ok(())
}

impl Clock {
    /// Until when `seat`'s player is on vacation, if the clock says so.
    pub fn vacation_until(&self, seat: u8) -> Option<i64> {
        self.state
            .vacation
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|&(_, until)| until)
    }

    /// `seat`'s player is on vacation from `now` until `until`: its running turn, if any,
    /// keeps what it has used and resumes at `until`; its later turns wait for `until`.
    pub fn pause(&mut self, seat: u8, now: i64, until: i64) {
        if until <= now || !self.profile.turn_based() {
            return;
        }
        self.state.vacation.retain(|&(s, u)| s != seat && u > now);
        self.state.vacation.push((seat, until));
        if self.state.running == Some(seat) && !self.state.covered {
            let used = (now - self.state.turn_started_ms).max(0);
            self.state.turn_started_ms = until - used;
            self.state.seen_ms = Some(now);
        }
    }

    /// `seat`'s player is back at `now`, before their vacation's end ("I'm back"): its
    /// running turn goes on from now with what it had used before the vacation (a turn that
    /// came during it starts now), and its later turns are not paused. Whether it was paused.
    pub fn back(&mut self, seat: u8, now: i64) -> bool {
        let Some(until) = self.vacation_until(seat).filter(|&u| u > now) else {
            return false;
        };
        self.state.vacation.retain(|&(s, _)| s != seat);
        if self.state.running == Some(seat) && !self.state.covered {
            // Paused, the turn started `until - used`: it now started `now - used`.
            self.state.turn_started_ms -= until - now;
            self.state.seen_ms = Some(now);
        }
        true
    }

    /// A turn that just started at `now` (`Clock::after_move`): if its seat is on vacation,
    /// it starts when the vacation ends. Vacations over are forgotten.
    pub(crate) fn vacation_turn(&mut self, now: i64) {
        self.state.vacation.retain(|&(_, until)| until > now);
        if let Some(until) = self.state.running.and_then(|s| self.vacation_until(s)) {
            self.state.turn_started_ms = until;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::live::clock::Clock;
    use crate::time_control::parse_profiles;

    const DAY: i64 = 24 * 3600 * 1000;

    fn daily() -> Clock {
        let profile = parse_profiles("daily=86400").unwrap().remove(0);
        assert!(profile.turn_based());
        Clock::start(profile, 2, Some(0), 0)
    }

    #[test]
    fn a_running_turn_keeps_what_it_used_and_goes_on_after_the_vacation() {
        let mut c = daily();
        // Seat 0 used 6 h, then leaves for 3 days.
        let now = 6 * 3600 * 1000;
        c.pause(0, now, now + 3 * DAY);
        assert_eq!(c.remaining(0, now), DAY - now);
        assert_eq!(
            c.remaining(0, now + 2 * DAY),
            DAY - now,
            "nothing charged meanwhile"
        );
        assert_eq!(c.deadline(), Some(now + 3 * DAY + DAY - now));
        // A restart during the vacation changes nothing; one after it charges nothing of the
        // time the game had no room.
        let mut restarted = c.clone();
        assert!(!restarted.resume(now + DAY) || restarted.deadline() == c.deadline());
        assert_eq!(restarted.deadline(), c.deadline());
        let mut late = c.clone();
        late.resume(now + 4 * DAY);
        assert_eq!(
            late.remaining(0, now + 4 * DAY),
            DAY - now,
            "what the turn had used before the vacation, and nothing of the time without a room"
        );
    }

    #[test]
    fn a_turn_that_comes_during_the_vacation_starts_when_it_ends() {
        let mut c = daily();
        c.pause(1, 1000, 2 * DAY);
        c.after_move(Some(1), 5000, false);
        assert_eq!(c.state.turn_started_ms, 2 * DAY);
        assert_eq!(c.deadline(), Some(3 * DAY));
        assert_eq!(c.remaining(1, DAY), DAY);
        // After it, turns run as always, and the vacation is forgotten.
        c.after_move(Some(0), 2 * DAY + 10, false);
        c.after_move(Some(1), 2 * DAY + 20, false);
        assert_eq!(c.state.turn_started_ms, 2 * DAY + 20);
        assert!(c.state.vacation.is_empty());
    }

    #[test]
    fn back_early_a_turn_goes_on_with_what_it_had_used() {
        let mut c = daily();
        let now = 6 * 3600 * 1000;
        c.pause(0, now, now + 3 * DAY);
        // Back a day later: the 6 h used before count, the day away does not.
        assert!(c.back(0, now + DAY));
        assert!(c.state.vacation.is_empty());
        assert_eq!(c.remaining(0, now + DAY), DAY - now);
        assert_eq!(c.deadline(), Some(now + DAY + DAY - now));
        assert!(!c.back(0, now + DAY), "not on vacation any more");
        // A turn that came during the vacation starts when its player is back.
        let mut c = daily();
        c.pause(1, 1000, 3 * DAY);
        c.after_move(Some(1), 5000, false);
        assert!(c.back(1, DAY));
        assert_eq!(c.deadline(), Some(2 * DAY));
        // A seat not to move is only unpaused.
        let mut c = daily();
        c.pause(1, 1000, 3 * DAY);
        let before = c.deadline();
        assert!(c.back(1, DAY));
        assert_eq!(c.deadline(), before);
        assert!(c.state.vacation.is_empty());
    }

    #[test]
    fn real_time_clocks_are_never_paused() {
        let profile = parse_profiles("fast=60+5").unwrap().remove(0);
        let mut c = Clock::start(profile, 2, Some(0), 0);
        c.pause(0, 10, 10 * DAY);
        assert!(c.state.vacation.is_empty());
        assert_eq!(c.deadline(), Some(60_000));
    }
}
