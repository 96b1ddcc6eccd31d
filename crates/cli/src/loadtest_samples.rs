//! What `pyramidion-loadtest` measures: the client side's samples (one process's, or the
//! combined ones of `--clients` processes) and the server's side from its `/metrics`.
use anyhow::{Result, ensure};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use tokio::sync::Mutex;

#[derive(Default)]
pub struct Totals {
    /// The client's own moves, each a measured round trip.
    pub moves: AtomicU64,
    /// Moves of the other seats (bots), seen as states the client did not cause.
    pub others_moves: AtomicU64,
    pub errors: AtomicU64,
    /// Answers `503 unavailable` / WebSocket `unavailable` (the server at a cap): waited
    /// out and tried again, not errors.
    pub unavailable: AtomicU64,
    pub finished: AtomicU64,
    pub latencies_us: Mutex<Vec<u64>>,
    /// Bytes the connection received for each of the client's moves (the WebSocket
    /// messages' text, from sending the move to its answer).
    pub bytes: Mutex<Vec<u64>>,
    /// How long the other seats (bots) took to answer, each time the client waited for them.
    pub bot_waits_us: Mutex<Vec<u64>>,
    /// Analyses the client asked for that the server queued (`--analysing-guests`).
    pub analyses: AtomicU64,
}

/// What one client process measured of one kind of game (sent by a `--clients` child to
/// the parent as JSON).
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct Part {
    pub moves: u64,
    pub others_moves: u64,
    pub errors: u64,
    pub unavailable: u64,
    pub finished: u64,
    pub latencies_us: Vec<u64>,
    pub bytes: Vec<u64>,
    #[serde(default)]
    pub bot_waits_us: Vec<u64>,
    #[serde(default)]
    pub analyses: u64,
}

impl Totals {
    pub async fn part(&self) -> Part {
        Part {
            moves: self.moves.load(Ordering::Relaxed),
            others_moves: self.others_moves.load(Ordering::Relaxed),
            errors: self.errors.load(Ordering::Relaxed),
            unavailable: self.unavailable.load(Ordering::Relaxed),
            finished: self.finished.load(Ordering::Relaxed),
            latencies_us: self.latencies_us.lock().await.clone(),
            bytes: self.bytes.lock().await.clone(),
            bot_waits_us: self.bot_waits_us.lock().await.clone(),
            analyses: self.analyses.load(Ordering::Relaxed),
        }
    }
}

impl Part {
    pub fn add(&mut self, other: Part) {
        self.moves += other.moves;
        self.others_moves += other.others_moves;
        self.errors += other.errors;
        self.unavailable += other.unavailable;
        self.finished += other.finished;
        self.latencies_us.extend(other.latencies_us);
        self.bytes.extend(other.bytes);
        self.bot_waits_us.extend(other.bot_waits_us);
        self.analyses += other.analyses;
    }

    /// Round-trip percentiles of the client's moves, in milliseconds.
    pub fn percentiles(&self) -> [f64; 3] {
        percentiles(&self.latencies_us).map(|us| us as f64 / 1000.0)
    }
}

/// The median, 99th percentile and maximum of `samples` (0 when there are none).
pub fn percentiles(samples: &[u64]) -> [u64; 3] {
    let mut v = samples.to_vec();
    v.sort_unstable();
    [0.50, 0.99, 1.0].map(|p| {
        v.get(((v.len() as f64 - 1.0) * p).round() as usize)
            .copied()
            .unwrap_or(0)
    })
}

/// A client process's figures: the solo games' and the bot games'.
#[derive(Default, serde::Serialize, serde::Deserialize)]
pub struct Samples {
    pub solo: Part,
    pub bots: Part,
    #[serde(default)]
    pub victim: Part,
    #[serde(default)]
    pub analysts: Part,
}

/// The server answered `unavailable` (`503`, or a WebSocket `unavailable` error): it is at
/// one of its caps, and said so.
#[derive(Debug)]
pub struct Unavailable(pub String);

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unavailable: {}", self.0)
    }
}

impl std::error::Error for Unavailable {}

/// Every sample of the server's /metrics, by name with its labels (`name{game="x"}`); a
/// labelled series is also added into its bare name (`pyramidion_moves_total` counts the
/// moves of every game).
pub async fn metrics(http: &reqwest::Client, url: &str) -> Result<HashMap<String, f64>> {
    let answer = http.get(format!("{url}/metrics")).send().await?;
    // An instance serves /metrics only to the addresses it allows (`serve --metrics-allow`):
    // a refusal is no empty set of figures.
    ensure!(
        answer.status().is_success(),
        "GET {url}/metrics: {}: read each instance at its own address (--metrics), from an \
         address its --metrics-allow lets in",
        answer.status()
    );
    Ok(parse_metrics(&answer.text().await?))
}

/// Waits until every instance answers `/readyz` with 200 (each checked every 100 ms, for at
/// most `patience`): an instance still starting (resuming its games) holds its writer, and a
/// run begun then measures the start, not the load; its idle memory is no baseline either.
pub async fn wait_ready(
    http: &reqwest::Client,
    instances: &[String],
    patience: std::time::Duration,
) -> Result<()> {
    let deadline = std::time::Instant::now() + patience;
    for url in instances {
        loop {
            let why = match http.get(format!("{url}/readyz")).send().await {
                Ok(answer) if answer.status().is_success() => break,
                Ok(answer) => format!("{}: {}", answer.status(), answer.text().await?),
                Err(e) => e.to_string(),
            };
            ensure!(
                std::time::Instant::now() < deadline,
                "{url} is not ready after {} s: {why}",
                patience.as_secs()
            );
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
    Ok(())
}

/// Each of `instances`' /metrics, read at once.
pub async fn fleet_metrics(
    http: &reqwest::Client,
    instances: &[String],
) -> Result<Vec<HashMap<String, f64>>> {
    futures_util::future::try_join_all(instances.iter().map(|u| metrics(http, u))).await
}

/// The instances' samples added up, name by name: counters, histograms' buckets and sums,
/// live games and resident memory are the cluster's when summed.
pub fn summed(each: &[HashMap<String, f64>]) -> HashMap<String, f64> {
    let mut out = HashMap::new();
    for m in each {
        for (k, v) in m {
            *out.entry(k.clone()).or_insert(0.0) += v;
        }
    }
    out
}

/// One line per instance: its CPU, moves and memory over the run, so that an instance doing
/// more than its share is seen.
pub fn print_instances(
    instances: &[String],
    before: &[HashMap<String, f64>],
    after: &[HashMap<String, f64>],
) {
    for ((url, b), a) in instances.iter().zip(before).zip(after) {
        let delta = |name: &str| a.get(name).unwrap_or(&0.0) - b.get(name).unwrap_or(&0.0);
        let mib = |m: &HashMap<String, f64>| {
            m.get("process_resident_memory_bytes").unwrap_or(&0.0) / 1048576.0
        };
        println!(
            "instance {url}: CPU {:.2} s, {} moves, {} live games at the end, {:.1} MiB resident \
             ({:.1} MiB idle)",
            delta("process_cpu_seconds_total"),
            delta("pyramidion_moves_total"),
            a.get("pyramidion_games_live").unwrap_or(&0.0),
            mib(a),
            mib(b)
        );
    }
}

fn parse_metrics(text: &str) -> HashMap<String, f64> {
    let mut out = HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((name, value)) = line.rsplit_once(' ') else {
            continue;
        };
        let Ok(value) = value.parse::<f64>() else {
            continue;
        };
        out.insert(name.to_string(), value);
        // Histogram buckets are told apart by their bound: they are never summed.
        if let Some((bare, _)) = name.split_once('{')
            && !bare.ends_with("_bucket")
        {
            *out.entry(bare.to_string()).or_insert(0.0) += value;
        }
    }
    out
}

/// The server's side of the run, from the difference of two /metrics snapshots: where a
/// move's time went, and how many moves each disk flush carried.
pub fn print_server_side(before: &HashMap<String, f64>, after: &HashMap<String, f64>) {
    let delta = |name: &str| after.get(name).unwrap_or(&0.0) - before.get(name).unwrap_or(&0.0);
    let mean_ms = |h: &str| {
        let n = delta(&format!("{h}_count"));
        if n > 0.0 {
            1000.0 * delta(&format!("{h}_sum")) / n
        } else {
            0.0
        }
    };
    // The smallest bucket bound holding 99 % of the run's observations.
    let p99_bound = |h: &str| {
        let n = delta(&format!("{h}_count"));
        let mut bounds: Vec<(f64, f64)> = after
            .keys()
            .filter_map(|k| {
                let le = k.strip_prefix(&format!("{h}_bucket{{le=\""))?;
                let le: f64 = le.strip_suffix("\"}")?.parse().ok()?;
                Some((le, delta(k)))
            })
            .collect();
        bounds.sort_by(|a, b| a.0.total_cmp(&b.0));
        bounds
            .iter()
            .find(|(_, c)| *c >= 0.99 * n)
            .map_or(f64::INFINITY, |(le, _)| le * 1000.0)
    };
    let commits = delta("pyramidion_commit_seconds_count");
    println!(
        "server: move receive→published mean {:.2} ms, p99 ≤ {} ms; of which persist mean {:.2} ms (queued before its commit began {:.2} ms)",
        mean_ms("pyramidion_move_latency_seconds"),
        p99_bound("pyramidion_move_latency_seconds"),
        mean_ms("pyramidion_move_persist_seconds"),
        mean_ms("pyramidion_move_queue_seconds"),
    );
    if commits > 0.0 {
        println!(
            "server: {commits} group commits, mean {:.2} ms, p99 ≤ {} ms, {:.1} moves per commit, {:.2} other writes per commit",
            mean_ms("pyramidion_commit_seconds"),
            p99_bound("pyramidion_commit_seconds"),
            delta("pyramidion_committed_moves_total") / commits,
            delta("pyramidion_committed_jobs_total") / commits
        );
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn labelled_series_add_up_under_their_bare_name() {
        let m = super::parse_metrics(
            "# TYPE pyramidion_moves_total counter\n\
             pyramidion_moves_total{game=\"a\"} 3\n\
             pyramidion_moves_total{game=\"b\"} 4\n\
             pyramidion_games_live 2\n\
             x_bucket{le=\"0.5\"} 1\n",
        );
        assert_eq!(m["pyramidion_moves_total"], 7.0);
        assert_eq!(m["pyramidion_moves_total{game=\"b\"}"], 4.0);
        assert_eq!(m["pyramidion_games_live"], 2.0);
        assert_eq!(m["x_bucket{le=\"0.5\"}"], 1.0);
        assert!(!m.contains_key("x_bucket"));
    }

    #[test]
    fn instances_are_summed_name_by_name() {
        let a = super::parse_metrics("process_cpu_seconds_total 1.5\nx_bucket{le=\"1\"} 2\n");
        let b = super::parse_metrics("process_cpu_seconds_total 2\npyramidion_games_live 3\n");
        let all = super::summed(&[a, b]);
        assert_eq!(all["process_cpu_seconds_total"], 3.5);
        assert_eq!(all["pyramidion_games_live"], 3.0);
        assert_eq!(all["x_bucket{le=\"1\"}"], 2.0);
    }
}
