//! The time of day as the daily challenges read it: the system's, or one a test sets (the
//! days, their ends and grace windows are then tested without waiting for midnight).
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// Milliseconds since the Unix epoch: the system clock unless [`WallClock::fixed`].
#[derive(Clone, Debug, Default)]
pub struct WallClock(Option<Arc<AtomicI64>>);

impl WallClock {
    /// A clock that reads `ms` until [`WallClock::set`] moves it (clones share it).
    pub fn fixed(ms: i64) -> WallClock {
        WallClock(Some(Arc::new(AtomicI64::new(ms))))
    }

    /// Moves a fixed clock (a system clock ignores it).
    pub fn set(&self, ms: i64) {
        if let Some(t) = &self.0 {
            t.store(ms, Ordering::SeqCst);
        }
    }

    pub fn now_ms(&self) -> i64 {
        match &self.0 {
            Some(t) => t.load(Ordering::SeqCst),
            None => crate::db::store::now_ms(),
        }
    }
}
