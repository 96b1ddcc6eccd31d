//! `pyramidion loadtest`: N concurrent games played through WebSockets against a running
//! server, bounded in time; prints moves/s, errors and move round-trip latency percentiles.
//! Each game is a solo game against the automa whose player moves uniformly at random, as
//! fast as the server answers: every move is a full round trip (persist, then publish).
use anyhow::{Context, Result, bail, ensure};
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use pyramidion_games::GameKind;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// The server, e.g. http://127.0.0.1:8080 (loopback only).
    #[arg(long)]
    pub url: String,
    /// Concurrent games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// How long to play.
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Mean pause before each move, like a player thinking: drawn uniformly between half and
    /// one and a half times this, so the games do not move in lockstep (0: as fast as the
    /// server answers, which measures saturation rather than latency at a given load).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
}

#[derive(Default)]
struct Totals {
    moves: AtomicU64,
    errors: AtomicU64,
    finished: AtomicU64,
    latencies_us: Mutex<Vec<u64>>,
}

/// Only loopback addresses: this tool generates load and must never aim it elsewhere.
fn check_loopback(url: &str) -> Result<()> {
    let host = url
        .trim_start_matches("http://")
        .split(['/', ':'])
        .next()
        .unwrap_or("");
    ensure!(
        host == "localhost" || host.starts_with("127.") || host == "[::1]",
        "loadtest only targets loopback (127.0.0.0/8, localhost, [::1]), not '{host}'"
    );
    Ok(())
}

/// Every unlabelled sample and histogram bucket of the server's /metrics, by name.
async fn metrics(http: &reqwest::Client, url: &str) -> Result<HashMap<String, f64>> {
    let text = http
        .get(format!("{url}/metrics"))
        .send()
        .await?
        .text()
        .await?;
    Ok(text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (name, value) = l.rsplit_once(' ')?;
            Some((name.to_string(), value.parse().ok()?))
        })
        .collect())
}

async fn metric(http: &reqwest::Client, url: &str, name: &str) -> Result<f64> {
    metrics(http, url)
        .await?
        .get(name)
        .copied()
        .with_context(|| format!("metric {name} missing"))
}

/// The server's side of the run, from the difference of two /metrics snapshots: where a
/// move's time went, and how many moves each disk flush carried.
fn print_server_side(before: &HashMap<String, f64>, after: &HashMap<String, f64>) {
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
        "server: move receive→published mean {:.2} ms, p99 ≤ {} ms; of which persist mean {:.2} ms",
        mean_ms("pyramidion_move_latency_seconds"),
        p99_bound("pyramidion_move_latency_seconds"),
        mean_ms("pyramidion_move_persist_seconds"),
    );
    if commits > 0.0 {
        println!(
            "server: {commits} group commits, mean {:.2} ms, p99 ≤ {} ms, {:.1} moves per commit",
            mean_ms("pyramidion_commit_seconds"),
            p99_bound("pyramidion_commit_seconds"),
            delta("pyramidion_committed_moves_total") / commits
        );
    }
}

pub fn run(args: LoadtestArgs) -> Result<()> {
    check_loopback(&args.url)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(load(args))
}

async fn load(args: LoadtestArgs) -> Result<()> {
    let url = args.url.trim_end_matches('/').to_string();
    let http = reqwest::Client::new();
    // The idle server: its memory is the baseline that per-game memory is measured against.
    let before = metrics(&http, &url).await?;
    let rss_before = *before
        .get("process_resident_memory_bytes")
        .context("metric process_resident_memory_bytes missing")?;
    let totals = Arc::new(Totals::default());
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let peak_live = Arc::new(AtomicU64::new(0));
    let peak_rss = Arc::new(AtomicU64::new(0));
    // Sample the server while the games run.
    let sampler = {
        let (http, url, peak_live, peak_rss) = (
            http.clone(),
            url.clone(),
            peak_live.clone(),
            peak_rss.clone(),
        );
        tokio::spawn(async move {
            while Instant::now() < deadline {
                if let (Ok(live), Ok(rss)) = (
                    metric(&http, &url, "pyramidion_games_live").await,
                    metric(&http, &url, "process_resident_memory_bytes").await,
                ) && live as u64 >= peak_live.load(Ordering::Relaxed)
                {
                    peak_live.store(live as u64, Ordering::Relaxed);
                    peak_rss.store(rss as u64, Ordering::Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        })
    };
    let start = Instant::now();
    let think = Duration::from_millis(args.think_ms);
    let players: Vec<_> = (0..args.games)
        .map(|i| {
            let (http, url, totals) = (http.clone(), url.clone(), totals.clone());
            tokio::spawn(async move {
                if let Err(e) = player(i as u64, &http, &url, deadline, think, &totals).await {
                    totals.errors.fetch_add(1, Ordering::Relaxed);
                    eprintln!("game {i}: {e:#}");
                }
            })
        })
        .collect();
    for p in players {
        let _ = p.await;
    }
    let _ = sampler.await;
    let elapsed = start.elapsed().as_secs_f64();
    let mut lat = totals.latencies_us.lock().await.clone();
    lat.sort_unstable();
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 - 1.0) * p).round() as usize)
            .map_or(0.0, |&us| us as f64 / 1000.0)
    };
    let moves = totals.moves.load(Ordering::Relaxed);
    println!(
        "concurrent games: {} (think time {} ms)",
        args.games, args.think_ms
    );
    println!("duration: {elapsed:.1} s");
    println!("moves: {moves}");
    println!("moves/s: {:.0}", moves as f64 / elapsed);
    println!(
        "games finished: {}",
        totals.finished.load(Ordering::Relaxed)
    );
    println!("errors: {}", totals.errors.load(Ordering::Relaxed));
    println!("move round trip p50: {:.2} ms", pct(0.50));
    println!("move round trip p99: {:.2} ms", pct(0.99));
    println!("move round trip max: {:.2} ms", pct(1.0));
    print_server_side(&before, &metrics(&http, &url).await?);
    let live = peak_live.load(Ordering::Relaxed);
    if live > 0 {
        let per_game =
            (peak_rss.load(Ordering::Relaxed) as f64 - rss_before).max(0.0) / live as f64;
        println!(
            "server memory per live game: {:.1} KiB ({live} live games at the sample, \
             {:.1} MiB resident against {:.1} MiB idle; a game's player connection included)",
            per_game / 1024.0,
            peak_rss.load(Ordering::Relaxed) as f64 / 1048576.0,
            rss_before / 1048576.0
        );
    }
    Ok(())
}

/// One client: a guest identity, then solo games back to back until the deadline.
async fn player(
    i: u64,
    http: &reqwest::Client,
    url: &str,
    deadline: Instant,
    think: Duration,
    totals: &Totals,
) -> Result<()> {
    let me = http.get(format!("{url}/api/me")).send().await?;
    let cookie = me
        .headers()
        .get("set-cookie")
        .and_then(|c| c.to_str().ok())
        .and_then(|c| c.split(';').next())
        .context("no session cookie")?
        .to_string();
    let ws_url = format!("{}/ws", url.replacen("http", "ws", 1));
    let mut req = ws_url.into_client_request()?;
    req.headers_mut().insert("cookie", cookie.parse()?);
    // 16 KiB read chunks instead of 128 KiB zeroed on every read: this client shares the machine.
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(16 * 1024);
    let (mut ws, _) =
        tokio_tungstenite::connect_async_with_config(req, Some(config), false).await?;
    let mut rng = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    // Solo tables (a seat of one, against the game's automa) of the first game that has them:
    // every move is a human move that the server must persist and answer.
    let solo = GameKind::ALL
        .iter()
        .copied()
        .find(|k| k.descriptor().seats.min == 1)
        .context("no registered game is played solo")?;
    let spec = json!({
        "game": solo.key(),
        "options": crate::game_args::options_json(solo, 1, &[])?,
        "seats": [{"type": "me"}],
    });
    while Instant::now() < deadline {
        let table: Value = http
            .post(format!("{url}/api/tables"))
            .header("cookie", &cookie)
            .json(&spec)
            .send()
            .await?
            .json()
            .await?;
        let Some(game) = table["id"].as_str().map(str::to_string) else {
            bail!("cannot create a table: {table}")
        };
        ws.send(Message::Text(
            json!({"type": "subscribe", "game": game})
                .to_string()
                .into(),
        ))
        .await?;
        let mut state = next_state(&mut ws, &game, 0).await?;
        loop {
            if state["finished"] == true {
                totals.finished.fetch_add(1, Ordering::Relaxed);
                ws.send(Message::Text(
                    json!({"type": "unsubscribe", "game": game})
                        .to_string()
                        .into(),
                ))
                .await?;
                break;
            }
            if Instant::now() >= deadline {
                return Ok(());
            }
            let legal = state["legal"].as_array().context("no legal moves")?;
            let m = &legal[(xorshift(&mut rng) % legal.len() as u64) as usize];
            let id = state["state_id"].as_u64().context("no state id")?;
            if !think.is_zero() {
                // Players who all waited exactly `think` would send their moves in one burst
                // per period, all games having started together: a queue no real crowd makes.
                let jitter = (xorshift(&mut rng) >> 11) as f64 / (1u64 << 53) as f64;
                tokio::time::sleep(think.mul_f64(0.5 + jitter)).await;
            }
            let sent = Instant::now();
            ws.send(Message::Text(
                json!({"type": "move", "game": game, "state_id": id, "move": m})
                    .to_string()
                    .into(),
            ))
            .await?;
            state = next_state(&mut ws, &game, id + 1).await?;
            totals
                .latencies_us
                .lock()
                .await
                .push(sent.elapsed().as_micros() as u64);
            totals.moves.fetch_add(1, Ordering::Relaxed);
        }
    }
    Ok(())
}

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[derive(serde::Deserialize)]
struct Brief {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    state_id: u64,
    /// The legal moves' texts (their structured forms are not needed).
    #[serde(default)]
    legal: Vec<LegalText>,
    #[serde(default)]
    finished: bool,
}

#[derive(serde::Deserialize)]
struct LegalText {
    text: String,
}

async fn next_state<S>(ws: &mut S, game: &str, at_least: u64) -> Result<Value>
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .context("no answer within 30 s")?
            .context("connection closed")??;
        let Message::Text(t) = msg else { continue };
        // Only the fields a player needs: the view itself is skipped, not built.
        let v: Brief = serde_json::from_str(&t)?;
        match v.kind.as_str() {
            "error" => bail!("server error: {t}"),
            "state" if v.game.as_deref() == Some(game) && v.state_id >= at_least => {
                let legal: Vec<&str> = v.legal.iter().map(|m| m.text.as_str()).collect();
                return Ok(json!({"state_id": v.state_id, "legal": legal, "finished": v.finished}));
            }
            _ => {}
        }
    }
}
