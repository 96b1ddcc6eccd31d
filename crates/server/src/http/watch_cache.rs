//! The Watch list (`GET /api/watch`) served from a short cache (issue 54): the list is the
//! same for every reader (no viewer's seats in it), but each build reads every listed live
//! game's seats and ratings and asks its room how far it is — 12 ms of CPU an anonymous
//! request before, which a few clients polling it turned into a load. Each ordering keeps its
//! last answer, already serialised, for [`FRESH_FOR`]; the build is single flight (callers
//! that arrive meanwhile wait for it rather than each building it again).
use axum::body::Bytes;
use std::future::Future;
use std::time::Duration;
use tokio::time::Instant;

/// How long an answer is served again: games move on in seconds, so a Watch page is at most
/// this much behind; a game's own page follows it live.
pub const FRESH_FOR: Duration = Duration::from_secs(2);

/// One slot per ordering of the list (newest first, rated first).
#[derive(Default)]
pub struct WatchCache {
    slots: [tokio::sync::Mutex<Option<(Instant, Bytes)>>; 2],
}

impl WatchCache {
    /// The answer of ordering `slot` (0 or 1), built by `build` when the one kept is older
    /// than `fresh_for` (or none is kept). A failed build keeps nothing.
    pub async fn get_or_build<E, F, Fut>(
        &self,
        slot: usize,
        fresh_for: Duration,
        build: F,
    ) -> Result<Bytes, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Bytes, E>>,
    {
        // Held across the build: the single flight.
        let mut kept = self.slots[slot].lock().await;
        if let Some((at, body)) = kept.as_ref()
            && at.elapsed() < fresh_for
        {
            return Ok(body.clone());
        }
        let body = build().await?;
        *kept = Some((Instant::now(), body.clone()));
        Ok(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    async fn counted(builds: &AtomicUsize) -> Result<Bytes, ()> {
        let n = builds.fetch_add(1, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_millis(50)).await;
        Ok(Bytes::from(format!("build {n}")))
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_is_built_once_per_freshness_window_and_per_ordering() {
        let cache = Arc::new(WatchCache::default());
        let builds = Arc::new(AtomicUsize::new(0));
        // Ten readers at once: one build, one answer for all.
        let mut readers = Vec::new();
        for _ in 0..10 {
            let (cache, builds) = (cache.clone(), builds.clone());
            readers.push(tokio::spawn(async move {
                cache.get_or_build(0, FRESH_FOR, || counted(&builds)).await
            }));
        }
        for r in readers {
            assert_eq!(r.await.unwrap().unwrap(), "build 0");
        }
        assert_eq!(builds.load(Ordering::SeqCst), 1);
        // The other ordering is its own.
        let other = cache.get_or_build(1, FRESH_FOR, || counted(&builds)).await;
        assert_eq!(other.unwrap(), "build 1");
        // Once stale, built again.
        tokio::time::advance(FRESH_FOR).await;
        let again = cache.get_or_build(0, FRESH_FOR, || counted(&builds)).await;
        assert_eq!(again.unwrap(), "build 2");
        // A failed build keeps nothing: the next reader builds.
        tokio::time::advance(FRESH_FOR).await;
        let failed: Result<Bytes, ()> =
            cache.get_or_build(0, FRESH_FOR, || async { Err(()) }).await;
        assert!(failed.is_err());
        let after = cache.get_or_build(0, FRESH_FOR, || counted(&builds)).await;
        assert_eq!(after.unwrap(), "build 3");
    }
}
