//! The server's metrics, exposed at `/metrics` in Prometheus' text format by
//! `metrics-exporter-prometheus`: games live, moves (per game), refused moves (per game and
//! engine code), error answers (per code), latency histograms, storage health, process figures.
//!
//! Each server has its own recorder rather than the `metrics` crate's global one: several
//! servers run in one process in the tests, and each must count only its own.
use crate::error_code::Code;
use metrics::{Counter, Histogram, Key, KeyName, Label, Metadata, Recorder};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle, PrometheusRecorder};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 10] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

const MOVES: &str = "pyramidion_moves_total";
const REFUSED: &str = "pyramidion_moves_rejected_total";
const FINISHED: &str = "pyramidion_games_finished_total";
const ERRORS: &str = "pyramidion_http_errors_total";
const BOT_JOBS: &str = "pyramidion_bot_jobs_waiting";
const HEARTBEATS: &str = "pyramidion_heartbeats_total";
const TAKEOVERS: &str = "pyramidion_lease_takeovers_total";
const DEPARTURES: &str = "pyramidion_departures_heard_total";
const FENCED: &str = "pyramidion_fenced_refusals_total";
const FORWARDS: &str = "pyramidion_forwards_total";
const FORWARD_FAILURES: &str = "pyramidion_forward_failures_total";
const POOL_WAIT: &str = "pyramidion_pool_wait_seconds";
const NOTIFY_LISTENER: &str = "pyramidion_notify_listener_up";

/// Upper bounds of the pool wait's buckets, in seconds: a healthy pool answers in well under
/// a millisecond, a database outage makes a read wait up to the acquire timeout (10 s).
const POOL_WAIT_BUCKETS: [f64; 10] = [0.0001, 0.001, 0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0];

/// Every metric's name, kind and help text.
const COUNTERS: [(&str, &str); 14] = [
    (MOVES, "Moves accepted since start, per game."),
    (
        REFUSED,
        "Moves the rules refused since start, per game and engine code.",
    ),
    (FINISHED, "Games finished since start, per game."),
    (
        "pyramidion_committed_moves_total",
        "Moves written by group commits (divided by pyramidion_commit_seconds_count: moves per commit).",
    ),
    (
        "pyramidion_committed_jobs_total",
        "Other writes (HTTP, chat, reach) committed by group commits beside the moves.",
    ),
    (
        "pyramidion_replays_total",
        "Games rebuilt from their stored record (finished ones are replayed once, then cached).",
    ),
    (
        "pyramidion_storage_errors_total",
        "Failed group commits (and recovery probes) since start: nothing in them was acknowledged.",
    ),
    (ERRORS, "HTTP error answers since start, per error code."),
    (
        HEARTBEATS,
        "Cluster heartbeats of this instance, per result (ok, failed): a run of failures ends its life and its games are taken over.",
    ),
    (
        TAKEOVERS,
        "Leases (games, the pairing queue) this instance took over from another instance whose life had ended (it died, froze or drained).",
    ),
    (
        DEPARTURES,
        "Notices heard from other instances that drained (left the cluster): their games are taken over at once, not at the next sweep.",
    ),
    (
        FENCED,
        "Moves the database refused because this instance no longer held their game's lease (another instance took it over).",
    ),
    (
        FORWARDS,
        "Commands of this instance's players forwarded to the instance that runs their game.",
    ),
    (
        FORWARD_FAILURES,
        "Internal links to a game's owner that failed, per reason: connect (not reached), broken (closed or unreadable), owner_gone (its life ended).",
    ),
];
const GAUGES: [(&str, &str); 7] = [
    ("pyramidion_games_live", "Games being played."),
    ("pyramidion_connections", "Open WebSocket connections."),
    (
        "pyramidion_storage_degraded",
        "1 while the last write failed (until a write succeeds again), else 0.",
    ),
    (BOT_JOBS, "Bot pool jobs waiting, per lane."),
    (
        "process_resident_memory_bytes",
        "Resident memory of the server process.",
    ),
    (
        // A gauge, as the count of CPU seconds is fractional (a counter counts integers here);
        // it only grows.
        "process_cpu_seconds_total",
        "CPU time of the server process (user and system).",
    ),
    (
        NOTIFY_LISTENER,
        "PostgreSQL only: 1 while the LISTEN connection for the other instances' pushes is up, else 0.",
    ),
];
const HISTOGRAMS: [(&str, &str); 5] = [
    (
        "pyramidion_move_latency_seconds",
        "Receive to persisted and published.",
    ),
    (
        "pyramidion_move_persist_seconds",
        "A move handed to the writer to its commit done.",
    ),
    (
        "pyramidion_commit_seconds",
        "One group commit of moves, disk flush included.",
    ),
    (
        "pyramidion_move_queue_seconds",
        "A move handed to the writer until its group commit began (a part of persist).",
    ),
    (
        POOL_WAIT,
        "Waiting for a read connection of the database pool (failed waits included).",
    ),
];

static META: Metadata<'static> =
    Metadata::new(module_path!(), metrics::Level::INFO, Some(module_path!()));

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

pub struct Metrics {
    /// Storage failures and whether the storage is failing now.
    pub storage: StorageHealth,
    /// The internal links between instances (`live::link`).
    pub links: crate::link_metrics::LinkMetrics,
    /// Read by the live-games cap, and shown as a gauge.
    pub games_live: AtomicU64,
    /// Read by the drain, and shown as a gauge.
    pub connections: AtomicU64,
    /// The NOTIFY listener (PostgreSQL): -1 where there is none, else 1 up, 0 down.
    notify_listener: AtomicI64,
    /// The last readiness answer (`/readyz`): when, and why not ready (none: ready).
    pub readiness: tokio::sync::Mutex<Option<(std::time::Instant, Option<&'static str>)>>,
    /// Whether the last readiness check found this instance ready (changes are logged).
    pub ready: AtomicBool,
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    /// Receive → persisted and published, per accepted move.
    move_latency: Histogram,
    /// Handed to the writer → committed, per accepted move (a part of `move_latency`).
    persist_latency: Histogram,
    /// One group commit: begin → inserts → commit, disk flush included.
    commit_latency: Histogram,
    /// Handed to the writer → its group commit began, per move (a part of `persist_latency`).
    queue_latency: Histogram,
    /// Moves written by group commits (÷ their count = moves per commit).
    committed_moves: Counter,
    /// The other writes committed beside them.
    committed_jobs: Counter,
    /// Games rebuilt by replaying their record.
    replays: Counter,
    /// Waiting for a read connection.
    pool_wait: Histogram,
}

impl Default for Metrics {
    fn default() -> Self {
        let recorder = PrometheusBuilder::new()
            .set_buckets(&BUCKETS)
            .expect("buckets are not empty")
            .set_buckets_for_metric(
                metrics_exporter_prometheus::Matcher::Full(POOL_WAIT.into()),
                &POOL_WAIT_BUCKETS,
            )
            .expect("buckets are not empty")
            .build_recorder();
        for (name, help) in COUNTERS {
            recorder.describe_counter(KeyName::from_const_str(name), None, help.into());
        }
        for (name, help) in GAUGES {
            recorder.describe_gauge(KeyName::from_const_str(name), None, help.into());
        }
        for (name, help) in HISTOGRAMS {
            recorder.describe_histogram(KeyName::from_const_str(name), None, help.into());
        }
        // Every series exists from the start (at 0), so that a scrape sees each game.
        for game in pyramidion_games::GameKind::keys() {
            let _ = recorder.register_counter(&labelled(MOVES, [("game", game)]), &META);
            let _ = recorder.register_counter(&labelled(FINISHED, [("game", game)]), &META);
        }
        for (name, _) in GAUGES {
            if name != BOT_JOBS && name != NOTIFY_LISTENER {
                let _ = recorder.register_gauge(&Key::from_static_name(name), &META);
            }
        }
        for result in ["ok", "failed"] {
            let _ = recorder.register_counter(&labelled(HEARTBEATS, [("result", result)]), &META);
        }
        for reason in ["connect", "broken", "owner_gone"] {
            let _ =
                recorder.register_counter(&labelled(FORWARD_FAILURES, [("reason", reason)]), &META);
        }
        let histogram = |name| recorder.register_histogram(&Key::from_static_name(name), &META);
        let counter = |name| recorder.register_counter(&Key::from_static_name(name), &META);
        let _ = counter(FENCED);
        let _ = counter(TAKEOVERS);
        let _ = counter(DEPARTURES);
        let _ = counter(FORWARDS);
        Metrics {
            storage: StorageHealth::default(),
            links: Default::default(),
            games_live: AtomicU64::new(0),
            connections: AtomicU64::new(0),
            notify_listener: AtomicI64::new(-1),
            readiness: Default::default(),
            ready: AtomicBool::new(true),
            move_latency: histogram(HISTOGRAMS[0].0),
            persist_latency: histogram(HISTOGRAMS[1].0),
            commit_latency: histogram(HISTOGRAMS[2].0),
            queue_latency: histogram(HISTOGRAMS[3].0),
            committed_moves: counter("pyramidion_committed_moves_total"),
            committed_jobs: counter("pyramidion_committed_jobs_total"),
            replays: counter("pyramidion_replays_total"),
            pool_wait: histogram(POOL_WAIT),
            handle: recorder.handle(),
            recorder,
        }
    }
}

/// A metric's key with labels.
fn labelled<const N: usize>(name: &'static str, labels: [(&'static str, &'static str); N]) -> Key {
    Key::from_parts(name, labels.map(|(k, v)| Label::new(k, v)).to_vec())
}

impl Metrics {
    fn counter<const N: usize>(
        &self,
        name: &'static str,
        labels: [(&'static str, &'static str); N],
    ) -> Counter {
        self.recorder
            .register_counter(&labelled(name, labels), &META)
    }

    /// A move of `game` (its descriptor key) accepted: from receiving it to having persisted
    /// and published it.
    pub fn observe_move(&self, game: &'static str, elapsed: Duration) {
        self.move_latency.record(elapsed);
        self.counter(MOVES, [("game", game)]).increment(1);
    }

    /// A move handed to the writer until its commit was done.
    pub fn observe_persist(&self, elapsed: Duration) {
        self.persist_latency.record(elapsed);
    }

    /// A move of `game` the rules refused, with the engine's code (`illegal_move`'s `reason`).
    pub fn move_refused(&self, game: &'static str, reason: &'static str) {
        self.counter(REFUSED, [("game", game), ("code", reason)])
            .increment(1);
    }

    pub fn game_finished(&self, game: &'static str) {
        self.counter(FINISHED, [("game", game)]).increment(1);
    }

    /// A game rebuilt from its stored record.
    pub fn replayed(&self) {
        self.replays.increment(1);
    }

    /// One group commit done.
    pub fn observe_commit(&self, elapsed: Duration) {
        self.commit_latency.record(elapsed);
    }

    /// Moves a group commit wrote.
    pub fn moves_committed(&self, moves: u64) {
        self.committed_moves.increment(moves);
    }

    /// Other writes a group commit carried.
    pub fn jobs_committed(&self, jobs: u64) {
        self.committed_jobs.increment(jobs);
    }

    /// A move handed to the writer until its group commit began.
    pub fn observe_queue(&self, elapsed: Duration) {
        self.queue_latency.record(elapsed);
    }

    /// A cluster heartbeat done (`ok`) or failed.
    pub fn heartbeat(&self, ok: bool) {
        let result = if ok { "ok" } else { "failed" };
        self.counter(HEARTBEATS, [("result", result)]).increment(1);
    }

    /// A lease taken over from another instance whose life had ended.
    pub fn lease_taken_over(&self) {
        self.counter(TAKEOVERS, []).increment(1);
    }

    /// Another instance said it drains (`Cluster::retire`).
    pub fn departure_heard(&self) {
        self.counter(DEPARTURES, []).increment(1);
    }

    /// Moves refused by their fence (this instance no longer holds their game).
    pub fn fenced(&self, moves: u64) {
        self.counter(FENCED, []).increment(moves);
    }

    /// A player's command forwarded to the instance that runs its game.
    pub fn forwarded(&self) {
        self.counter(FORWARDS, []).increment(1);
    }

    /// An internal link to a game's owner failed: `connect`, `broken` or `owner_gone`.
    pub fn forward_failed(&self, reason: &'static str) {
        self.counter(FORWARD_FAILURES, [("reason", reason)])
            .increment(1);
    }

    /// Time spent waiting for a read connection.
    pub fn observe_pool_wait(&self, elapsed: Duration) {
        self.pool_wait.record(elapsed);
    }

    /// The NOTIFY listener (PostgreSQL) is up, or down (reconnecting).
    pub fn notify_listener(&self, up: bool) {
        self.notify_listener.store(up as i64, Ordering::Relaxed);
    }

    /// An HTTP error answer with `code`.
    pub fn error_answered(&self, code: Code) {
        self.counter(ERRORS, [("code", code.as_str())]).increment(1);
    }

    /// The exposition text, with the bot pool's jobs waiting per lane.
    pub fn render(&self, bot_jobs: &[(&'static str, usize)]) -> String {
        let gauge = |name: &'static str, v: f64| {
            self.recorder
                .register_gauge(&Key::from_static_name(name), &META)
                .set(v);
        };
        gauge(
            "pyramidion_games_live",
            self.games_live.load(Ordering::Relaxed) as f64,
        );
        gauge(
            "pyramidion_connections",
            self.connections.load(Ordering::Relaxed) as f64,
        );
        gauge(
            "pyramidion_storage_degraded",
            self.storage.degraded().is_some() as u8 as f64,
        );
        gauge("process_resident_memory_bytes", resident_bytes() as f64);
        let listener = self.notify_listener.load(Ordering::Relaxed);
        if listener >= 0 {
            gauge(NOTIFY_LISTENER, listener as f64);
        }
        gauge("process_cpu_seconds_total", cpu_seconds());
        // The counter is set, not added to: the storage's own count is the truth.
        self.recorder
            .register_counter(
                &Key::from_static_name("pyramidion_storage_errors_total"),
                &META,
            )
            .absolute(self.storage.errors());
        for &(lane, waiting) in bot_jobs {
            self.recorder
                .register_gauge(&labelled(BOT_JOBS, [("lane", lane)]), &META)
                .set(waiting as f64);
        }
        let mut s = self.handle.render();
        if let Some(error) = self.storage.degraded() {
            // The operator's view of the failure (`/healthz` shows only its code). Written
            // here, as the exporter cannot remove a series: this one leaves with the failure.
            let escaped = error
                .replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\n', "\\n");
            s.push_str(&format!(
                "# HELP pyramidion_storage_last_error_info The last storage error, while writes fail.\n\
                 # TYPE pyramidion_storage_last_error_info gauge\n\
                 pyramidion_storage_last_error_info{{error=\"{escaped}\"}} 1\n"
            ));
        }
        self.links.render(&mut s);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The names the load test, the chaos run and dashboards read stay as they were.
    #[test]
    fn every_metric_keeps_its_name_and_type() {
        // Any registered game: the series are labelled with its descriptor's key.
        let game = pyramidion_games::GameKind::ALL[0].descriptor().key;
        let m = Metrics::default();
        m.observe_move(game, Duration::from_millis(2));
        m.observe_persist(Duration::from_micros(300));
        m.observe_commit(Duration::from_millis(30));
        m.moves_committed(3);
        m.connections.fetch_add(2, Ordering::Relaxed);
        let text = m.render(&[("search", 4)]);
        let moves = format!("pyramidion_moves_total{{game=\"{game}\"}} 1");
        let finished = format!("pyramidion_games_finished_total{{game=\"{game}\"}} 0");
        for line in [
            "# TYPE pyramidion_moves_total counter",
            &moves,
            &finished,
            "pyramidion_games_live 0",
            "pyramidion_connections 2",
            "pyramidion_committed_moves_total 3",
            "pyramidion_replays_total 0",
            "pyramidion_storage_errors_total 0",
            "pyramidion_storage_degraded 0",
            "pyramidion_bot_jobs_waiting{lane=\"search\"} 4",
            "# TYPE pyramidion_move_latency_seconds histogram",
            "pyramidion_move_latency_seconds_bucket{le=\"0.0025\"} 1",
            "pyramidion_move_latency_seconds_bucket{le=\"0.001\"} 0",
            "pyramidion_move_latency_seconds_count 1",
            "pyramidion_move_persist_seconds_bucket{le=\"0.0005\"} 1",
            "pyramidion_commit_seconds_bucket{le=\"+Inf\"} 1",
            "# TYPE process_resident_memory_bytes gauge",
            "pyramidion_heartbeats_total{result=\"ok\"} 0",
            "pyramidion_lease_takeovers_total 0",
            "pyramidion_departures_heard_total 0",
            "pyramidion_fenced_refusals_total 0",
            "pyramidion_forwards_total 0",
            "pyramidion_forward_failures_total{reason=\"owner_gone\"} 0",
            "pyramidion_pool_wait_seconds_count 0",
        ] {
            assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
        }
        assert!(text.contains("\nprocess_cpu_seconds_total "), "{text}");
        assert!(!text.contains("pyramidion_storage_last_error_info"));
        assert!(
            !text.contains("pyramidion_notify_listener_up "),
            "none on SQLite"
        );
        // Issue 53: the cluster's and the pool's figures.
        m.heartbeat(true);
        m.heartbeat(false);
        m.lease_taken_over();
        m.departure_heard();
        m.fenced(2);
        m.forwarded();
        m.forward_failed("connect");
        m.observe_pool_wait(Duration::from_secs(3));
        m.notify_listener(false);
        let text = m.render(&[]);
        for line in [
            "pyramidion_heartbeats_total{result=\"ok\"} 1",
            "pyramidion_heartbeats_total{result=\"failed\"} 1",
            "pyramidion_lease_takeovers_total 1",
            "pyramidion_departures_heard_total 1",
            "pyramidion_fenced_refusals_total 2",
            "pyramidion_forwards_total 1",
            "pyramidion_forward_failures_total{reason=\"connect\"} 1",
            "pyramidion_pool_wait_seconds_bucket{le=\"2.5\"} 0",
            "pyramidion_pool_wait_seconds_bucket{le=\"5\"} 1",
            "pyramidion_notify_listener_up 0",
        ] {
            assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
        }
        m.storage.failed("disk \"full\"");
        let text = m.render(&[]);
        assert!(
            text.contains("pyramidion_storage_last_error_info{error=\"disk \\\"full\\\"\"} 1"),
            "{text}"
        );
        assert!(text.lines().any(|l| l == "pyramidion_storage_degraded 1"));
    }
}
