//! Prometheus-style counters: games live, moves, move latency histograms.
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the latency buckets, in milliseconds.
const BUCKETS_MS: [f64; 10] = [0.5, 1.0, 2.5, 5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 1000.0];

/// A cumulative latency histogram with fixed buckets.
#[derive(Default)]
pub struct Histogram {
    buckets: [AtomicU64; BUCKETS_MS.len()],
    count: AtomicU64,
    sum_us: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, elapsed: Duration) {
        let ms = elapsed.as_secs_f64() * 1000.0;
        for (bucket, bound) in self.buckets.iter().zip(BUCKETS_MS) {
            if ms <= bound {
                bucket.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_us
            .fetch_add(elapsed.as_micros() as u64, Ordering::Relaxed);
    }

    fn render(&self, s: &mut String, name: &str, help: &str) {
        let _ = writeln!(s, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (bucket, bound) in self.buckets.iter().zip(BUCKETS_MS) {
            let _ = writeln!(
                s,
                "{name}_bucket{{le=\"{}\"}} {}",
                bound / 1000.0,
                bucket.load(Ordering::Relaxed)
            );
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(s, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_us.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(s, "{name}_sum {sum}\n{name}_count {count}");
    }
}

/// Whether the last write reached the disk: set by the writer after every batch (and probe).
/// While degraded, `/healthz` answers 503 with the last error.
#[derive(Default)]
pub struct StorageHealth {
    degraded: AtomicBool,
    errors: AtomicU64,
    last_error: Mutex<Option<String>>,
}

impl StorageHealth {
    /// A batch (or a probe) failed: nothing in it was acknowledged.
    pub fn failed(&self, error: &str) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        *self.last_error.lock().unwrap_or_else(|e| e.into_inner()) = Some(error.to_string());
        if !self.degraded.swap(true, Ordering::Relaxed) {
            tracing::error!(
                error,
                "storage failed: writes are refused until it recovers"
            );
        } else {
            tracing::warn!(error, "storage still failing");
        }
    }

    /// A write reached the disk.
    pub fn succeeded(&self) {
        if self.degraded.swap(false, Ordering::Relaxed) {
            tracing::info!("storage recovered: writes are durable again");
        }
    }

    /// The last error, while the storage is failing.
    pub fn degraded(&self) -> Option<String> {
        if !self.degraded.load(Ordering::Relaxed) {
            return None;
        }
        let last = self.last_error.lock().unwrap_or_else(|e| e.into_inner());
        Some(last.clone().unwrap_or_default())
    }

    /// Failed batches and probes since start.
    pub fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }
}

#[derive(Default)]
pub struct Metrics {
    /// Storage failures and whether the storage is failing now.
    pub storage: StorageHealth,
    pub games_live: AtomicU64,
    pub games_finished: AtomicU64,
    pub moves: AtomicU64,
    pub rejected_moves: AtomicU64,
    pub connections: AtomicU64,
    /// Receive → persisted and published, per accepted move.
    pub move_latency: Histogram,
    /// Handed to the writer → committed, per accepted move (a part of `move_latency`).
    pub persist_latency: Histogram,
    /// One group commit: begin → inserts → commit, disk flush included.
    pub commit_latency: Histogram,
    /// Moves written by group commits (÷ their count = moves per commit).
    pub committed_moves: AtomicU64,
    /// Games rebuilt by replaying their record.
    pub replays: AtomicU64,
}

impl Metrics {
    /// Time from receiving a move to having persisted and published it.
    pub fn observe_move(&self, elapsed: Duration) {
        self.move_latency.observe(elapsed);
        self.moves.fetch_add(1, Ordering::Relaxed);
    }

    pub fn render(&self) -> String {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let mut s = String::new();
        let mut gauge = |name: &str, help: &str, kind: &str, v: u64| {
            let _ = writeln!(s, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
        };
        gauge(
            "pyramidion_games_live",
            "Games being played.",
            "gauge",
            get(&self.games_live),
        );
        gauge(
            "pyramidion_games_finished_total",
            "Games finished since start.",
            "counter",
            get(&self.games_finished),
        );
        gauge(
            "pyramidion_moves_total",
            "Moves accepted since start.",
            "counter",
            get(&self.moves),
        );
        gauge(
            "pyramidion_moves_rejected_total",
            "Moves refused since start.",
            "counter",
            get(&self.rejected_moves),
        );
        gauge(
            "pyramidion_connections",
            "Open WebSocket connections.",
            "gauge",
            get(&self.connections),
        );
        gauge(
            "pyramidion_committed_moves_total",
            "Moves written by group commits (divided by pyramidion_commit_seconds_count: moves per commit).",
            "counter",
            get(&self.committed_moves),
        );
        gauge(
            "pyramidion_replays_total",
            "Games rebuilt from their stored record (finished ones are replayed once, then cached).",
            "counter",
            get(&self.replays),
        );
        gauge(
            "pyramidion_storage_errors_total",
            "Failed group commits (and recovery probes) since start: nothing in them was acknowledged.",
            "counter",
            self.storage.errors(),
        );
        gauge(
            "pyramidion_storage_degraded",
            "1 while the last write failed (until a write succeeds again), else 0.",
            "gauge",
            self.storage.degraded().is_some() as u64,
        );
        if let Some(error) = self.storage.degraded() {
            // The operator's view of the failure (`/healthz` shows only its code).
            let escaped = error
                .replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\n', "\\n");
            let _ = writeln!(
                s,
                "# HELP pyramidion_storage_last_error_info The last storage error, while writes fail.\n\
                 # TYPE pyramidion_storage_last_error_info gauge\n\
                 pyramidion_storage_last_error_info{{error=\"{escaped}\"}} 1"
            );
        }
        let mut gauge = |name: &str, help: &str, kind: &str, v: u64| {
            let _ = writeln!(s, "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {v}");
        };
        gauge(
            "process_resident_memory_bytes",
            "Resident memory of the server process.",
            "gauge",
            resident_bytes(),
        );
        let _ = writeln!(
            s,
            "# HELP process_cpu_seconds_total CPU time of the server process (user and system).\n\
             # TYPE process_cpu_seconds_total counter\n\
             process_cpu_seconds_total {:.2}",
            cpu_seconds()
        );
        self.move_latency.render(
            &mut s,
            "pyramidion_move_latency_seconds",
            "Receive to persisted and published.",
        );
        self.persist_latency.render(
            &mut s,
            "pyramidion_move_persist_seconds",
            "A move handed to the writer to its commit done.",
        );
        self.commit_latency.render(
            &mut s,
            "pyramidion_commit_seconds",
            "One group commit of moves, disk flush included.",
        );
        s
    }
}

/// User and system CPU time from /proc (0 where there is no /proc). Linux reports them in
/// ticks of `USER_HZ`, which its ABI fixes at 100 per second.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            // The fields after the command name, which is in parentheses and may hold spaces.
            let rest = &s[s.rfind(')')? + 1..];
            let fields: Vec<&str> = rest.split_whitespace().collect();
            // utime and stime: fields 14 and 15 of the line, 12 and 13 after the name.
            let ticks =
                fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
            Some(ticks as f64 / 100.0)
        })
        .unwrap_or(0.0)
}

/// Resident set size from /proc (0 where there is no /proc).
fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}
