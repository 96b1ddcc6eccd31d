//! Time controls: the clock profiles a table may be created with (real time: a bank and a
//! bonus; turn-based: a time per turn) and a game's clock state as it is stored with every
//! move. Plain data, below both the store that keeps them and the rooms that run them
//! (`live::clock`).
use serde::{Deserialize, Serialize};

/// A clock profile a table may be created with (the server's list is configurable).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
pub struct ClockProfile {
    pub key: String,
    /// Real time: the bank each seat starts with (0 for turn-based profiles).
    #[serde(default)]
    pub bank_ms: i64,
    /// Real time: added to the bank of a seat whose turn ends.
    #[serde(default)]
    pub bonus_ms: i64,
    /// Turn-based: the time of every turn (0 for real-time profiles).
    #[serde(default)]
    pub turn_ms: i64,
}

impl ClockProfile {
    pub fn turn_based(&self) -> bool {
        self.turn_ms > 0
    }

    /// The profile of a table created before clocks per turn: `seconds` per turn.
    pub fn legacy(seconds: u32) -> ClockProfile {
        ClockProfile {
            key: format!("{seconds}s"),
            bank_ms: 0,
            bonus_ms: 0,
            turn_ms: seconds as i64 * 1000,
        }
    }

    /// The profiles a server offers by default: three real-time, two turn-based.
    pub fn defaults() -> Vec<ClockProfile> {
        parse_profiles("fast=180+2,normal=600+5,slow=1800+15,day=86400,three-days=259200")
            .expect("the default profiles parse")
    }
}

/// Parses `key=BANK+BONUS` (real time, seconds) and `key=TURN` (turn-based, seconds per
/// turn) profiles, comma separated: `fast=180+2,day=86400`.
pub fn parse_profiles(spec: &str) -> Result<Vec<ClockProfile>, String> {
    let mut out: Vec<ClockProfile> = Vec::new();
    for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, time) = item
            .split_once('=')
            .ok_or_else(|| format!("`{item}`: a profile is key=BANK+BONUS or key=TURN"))?;
        let key = key.trim();
        let key_ok = !key.is_empty()
            && key.len() <= 24
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !key_ok {
            return Err(format!(
                "`{key}`: a profile key has 1–24 letters, digits, - or _"
            ));
        }
        if out.iter().any(|p| p.key == key) {
            return Err(format!("`{key}` is given twice"));
        }
        let seconds = |s: &str| -> Result<i64, String> {
            s.trim()
                .parse::<u32>()
                .map(|n| n as i64 * 1000)
                .map_err(|_| format!("`{item}`: times are whole seconds"))
        };
        let profile = match time.split_once('+') {
            Some((bank, bonus)) => ClockProfile {
                key: key.to_string(),
                bank_ms: seconds(bank)?,
                bonus_ms: seconds(bonus)?,
                turn_ms: 0,
            },
            None => ClockProfile {
                key: key.to_string(),
                bank_ms: 0,
                bonus_ms: 0,
                turn_ms: seconds(time)?,
            },
        };
        if profile.bank_ms + profile.turn_ms <= 0 {
            return Err(format!("`{item}`: a profile needs some time"));
        }
        out.push(profile);
    }
    Ok(out)
}

/// A game's clock: what is stored with every move (`clock_state`, JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    /// Per seat: its bank (real time) when its turn is not running.
    pub banks_ms: Vec<i64>,
    /// The seat whose turn (and clock) runs; none once the game is over.
    pub running: Option<u8>,
    /// When the running turn started (ms since the Unix epoch).
    pub turn_started_ms: i64,
    /// Per seat: how many of its turns a bot played because its time ran out.
    pub timeouts: Vec<u32>,
    /// The running turn ran out and a bot is playing it (already counted in `timeouts`), so
    /// that a restart in the middle of that turn does not count it twice.
    #[serde(default)]
    pub covered: bool,
    /// Seats whose last turn ran out and who have not played a turn of their own since: a
    /// real-time game may be claimed against them (`Clock::claimable`). Left out when empty,
    /// so that clocks stored before it read (and write) the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ran_out: Vec<u8>,
    /// The last moment (the writing room's clock, ms since the epoch) the running turn was
    /// known to be running in a room that could take its move: set when the turn starts and
    /// every `Clock::seen_every` while its room runs. A room rebuilt later (a restart, or a
    /// take-over after its instance died) charges the turn what it had used by then, and
    /// not the time the game had no room (`Clock::resume`). None: the turn is charged
    /// throughout (its room let it go while the game stayed playable, or a clock stored
    /// before this field). Left out when none, so that older clocks read the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seen_ms: Option<i64>,
    /// Seats whose player is on vacation, and until when (ms since the epoch): a turn-based
    /// turn of theirs is not charged before then (`crate::live::vacation`). Left out when
    /// empty, so that older clocks read the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vacation: Vec<(u8, i64)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_parse_and_bad_ones_are_refused() {
        let p = parse_profiles("fast=180+2, day=86400").unwrap();
        assert_eq!(
            (p[0].bank_ms, p[0].bonus_ms, p[0].turn_ms),
            (180_000, 2_000, 0)
        );
        assert!(p[1].turn_based());
        assert_eq!(p[1].turn_ms, 86_400_000);
        for bad in ["fast", "fast=x", "=3", "a=0", "a=1,a=2", "a b=3", "a=-1+2"] {
            assert!(parse_profiles(bad).is_err(), "{bad}");
        }
        assert_eq!(ClockProfile::defaults().len(), 5);
    }
}
