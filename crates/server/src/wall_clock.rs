//! The time of day: the system's, one a test sets (the daily challenges' days, their ends and
//! grace windows are then tested without waiting for midnight), or one that follows tokio's
//! clock (a room's clocks are then tested on paused time: `tokio::time::advance` moves them).
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, by the system clock.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Milliseconds since the Unix epoch: the system clock unless made otherwise.
#[derive(Clone, Debug, Default)]
pub struct WallClock(Source);

#[derive(Clone, Debug, Default)]
enum Source {
    #[default]
    System,
    Fixed(Arc<AtomicI64>),
    /// `ms` at tokio's instant `at`, then as tokio's clock moves (paused or not).
    Tokio {
        ms: i64,
        at: tokio::time::Instant,
    },
    /// The system clock plus an offset someone keeps up to date: an instance of a cluster
    /// follows the database's clock this way (`crate::cluster::Cluster::database_clock`), so
    /// that the instances' room clocks agree whatever their own wall clocks say.
    Corrected(Arc<AtomicI64>),
}

impl WallClock {
    /// A clock that reads `ms` until [`WallClock::set`] moves it (clones share it).
    pub fn fixed(ms: i64) -> WallClock {
        WallClock(Source::Fixed(Arc::new(AtomicI64::new(ms))))
    }

    /// A clock that reads `ms` now and then moves with tokio's clock: on paused time, only
    /// when the test advances it.
    pub fn following_tokio(ms: i64) -> WallClock {
        WallClock(Source::Tokio {
            ms,
            at: tokio::time::Instant::now(),
        })
    }

    /// The system clock plus `offset` (ms), read at every use.
    pub fn corrected(offset: Arc<AtomicI64>) -> WallClock {
        WallClock(Source::Corrected(offset))
    }

    /// Whether this is the plain system clock (not one a test or the cluster set).
    pub fn is_system(&self) -> bool {
        matches!(self.0, Source::System)
    }

    /// Moves a fixed clock (any other ignores it).
    pub fn set(&self, ms: i64) {
        if let Source::Fixed(t) = &self.0 {
            t.store(ms, Ordering::SeqCst);
        }
    }

    pub fn now_ms(&self) -> i64 {
        match &self.0 {
            Source::System => now_ms(),
            Source::Fixed(t) => t.load(Ordering::SeqCst),
            Source::Tokio { ms, at } => ms + at.elapsed().as_millis() as i64,
            Source::Corrected(offset) => now_ms() + offset.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corrected_clock_reads_the_system_clock_plus_its_offset() {
        let offset = Arc::new(AtomicI64::new(-3_600_000));
        let clock = WallClock::corrected(offset.clone());
        assert!(!clock.is_system() && WallClock::default().is_system());
        let read = clock.now_ms() - now_ms();
        assert!((-3_600_100..=-3_599_900).contains(&read), "{read}");
        offset.store(0, Ordering::Relaxed);
        assert!((clock.now_ms() - now_ms()).abs() < 100);
    }
}
