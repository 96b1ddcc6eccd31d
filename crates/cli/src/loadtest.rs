//! `pyramidion-loadtest`: N concurrent games played through WebSockets against a running
//! server, bounded in time; prints moves/s, errors and move round-trip latency percentiles.
//! Each game is a solo game against the automa whose player moves uniformly at random, as
//! fast as the server answers: every move is a full round trip (persist, then publish).
//! `--bot-games N` adds N games where the client holds one seat and bots the others, so that
//! the server's bot pool thinks all the time; their round trips are reported apart from the
//! solo games', which stand for the humans a busy bot pool must not slow down.
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
    /// Games against bots played next to the solo games: the client holds one seat (moving
    /// with the same think time) and bots of `--bot-level` hold the others, so that the
    /// server's bot pool is kept busy.
    #[arg(long, default_value_t = 0)]
    pub bot_games: usize,
    /// The bot level of those games (one of the game's descriptor's levels).
    #[arg(long, default_value = "max")]
    pub bot_level: String,
    /// The game of those games; default: the first game whose descriptor offers the level.
    #[arg(long, value_parser = crate::game_args::game_parser())]
    pub bot_game: Option<GameKind>,
}

#[derive(Default)]
struct Totals {
    /// The client's own moves, each a measured round trip.
    moves: AtomicU64,
    /// Moves of the other seats (bots), seen as states the client did not cause.
    others_moves: AtomicU64,
    errors: AtomicU64,
    finished: AtomicU64,
    latencies_us: Mutex<Vec<u64>>,
}

impl Totals {
    /// Round-trip percentiles of the client's moves, in milliseconds.
    async fn percentiles(&self) -> [f64; 3] {
        let mut lat = self.latencies_us.lock().await.clone();
        lat.sort_unstable();
        [0.50, 0.99, 1.0].map(|p| {
            lat.get(((lat.len() as f64 - 1.0) * p).round() as usize)
                .map_or(0.0, |&us| us as f64 / 1000.0)
        })
    }
}

/// What one client creates: tables of this spec, back to back.
struct TableKind {
    spec: Value,
}

impl TableKind {
    /// Solo tables (a seat of one, against the game's automa) of the first game that has
    /// them: every move is a human move that the server must persist and answer.
    fn solo() -> Result<TableKind> {
        let solo = GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.descriptor().seats.min == 1)
            .context("no registered game is played solo")?;
        Ok(TableKind {
            spec: json!({
                "game": solo.key(),
                "options": crate::game_args::options_json(solo, 1, &[])?,
                "seats": [{"type": "me"}],
            }),
        })
    }

    /// Tables where the client holds the first seat and bots of `level` the others: two
    /// seats where the game allows it (the fewest otherwise), in `game` or the first game
    /// whose descriptor offers `level`.
    fn against_bots(game: Option<GameKind>, level: &str) -> Result<(GameKind, TableKind)> {
        let kind = match game {
            Some(k) => k,
            None => GameKind::ALL
                .iter()
                .copied()
                .find(|k| k.descriptor().bot_level(level).is_some())
                .with_context(|| format!("no registered game has the bot level '{level}'"))?,
        };
        let d = kind.descriptor();
        ensure!(
            d.bot_level(level).is_some(),
            "{} has no bot level '{level}' (levels: {})",
            d.key,
            d.bot_levels
                .iter()
                .map(|l| l.name)
                .collect::<Vec<_>>()
                .join(", ")
        );
        let players = if d.seats.contains(2) { 2 } else { d.seats.min };
        ensure!(players >= 2, "{} has no seat for a bot", d.key);
        let mut seats = vec![json!({"type": "me"})];
        seats.extend((1..players).map(|_| json!({"type": "bot", "level": level})));
        Ok((
            kind,
            TableKind {
                spec: json!({
                    "game": kind.key(),
                    "options": crate::game_args::options_json(kind, players, &[])?,
                    "seats": seats,
                }),
            },
        ))
    }
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
    let solo = Arc::new(TableKind::solo()?);
    let bots = Arc::new(Totals::default());
    let (bot_kind, against_bots) = if args.bot_games > 0 {
        let (kind, tables) = TableKind::against_bots(args.bot_game, &args.bot_level)?;
        (Some(kind), Some(Arc::new(tables)))
    } else {
        (None, None)
    };
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
    let clients = (0..args.games)
        .map(|i| (solo.clone(), totals.clone(), i))
        .chain(
            against_bots
                .iter()
                .flat_map(|t| (0..args.bot_games).map(|i| (t.clone(), bots.clone(), i))),
        );
    let players: Vec<_> = clients
        .enumerate()
        .map(|(seed, (tables, totals, i))| {
            let (http, url) = (http.clone(), url.clone());
            tokio::spawn(async move {
                let client = Client {
                    seed: seed as u64,
                    http: &http,
                    url: &url,
                    deadline,
                    think,
                    totals: &totals,
                };
                if let Err(e) = client.play(&tables).await {
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
    let [p50, p99, max] = totals.percentiles().await;
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
    println!("move round trip p50: {p50:.2} ms");
    println!("move round trip p99: {p99:.2} ms");
    println!("move round trip max: {max:.2} ms");
    if let Some(kind) = bot_kind {
        let [p50, p99, max] = bots.percentiles().await;
        println!(
            "bot games: {} ({}, level {}, the client's moves with the same think time)",
            args.bot_games,
            kind.key(),
            args.bot_level
        );
        println!(
            "bot games' bot moves: {} ({:.1}/s)",
            bots.others_moves.load(Ordering::Relaxed),
            bots.others_moves.load(Ordering::Relaxed) as f64 / elapsed
        );
        println!(
            "bot games' client moves: {}",
            bots.moves.load(Ordering::Relaxed)
        );
        println!(
            "bot games finished: {}",
            bots.finished.load(Ordering::Relaxed)
        );
        println!("bot games' errors: {}", bots.errors.load(Ordering::Relaxed));
        println!("bot games' move round trip p50: {p50:.2} ms");
        println!("bot games' move round trip p99: {p99:.2} ms");
        println!("bot games' move round trip max: {max:.2} ms");
    }
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

/// One client: a guest identity, then tables of one kind played back to back until the
/// deadline.
struct Client<'a> {
    seed: u64,
    http: &'a reqwest::Client,
    url: &'a str,
    deadline: Instant,
    think: Duration,
    totals: &'a Totals,
}

impl Client<'_> {
    async fn play(&self, tables: &TableKind) -> Result<()> {
        let (http, url) = (self.http, self.url);
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
        // 16 KiB read chunks instead of 128 KiB zeroed on every read: this client shares the
        // machine.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(16 * 1024);
        let (mut ws, _) =
            tokio_tungstenite::connect_async_with_config(req, Some(config), false).await?;
        let mut rng = self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while Instant::now() < self.deadline {
            let table: Value = http
                .post(format!("{url}/api/tables"))
                .header("cookie", &cookie)
                .json(&tables.spec)
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
            if !self.play_game(&mut ws, &game, &mut rng).await? {
                return Ok(());
            }
            self.totals.finished.fetch_add(1, Ordering::Relaxed);
            ws.send(Message::Text(
                json!({"type": "unsubscribe", "game": game})
                    .to_string()
                    .into(),
            ))
            .await?;
        }
        Ok(())
    }

    /// Plays the client's seat of `game` to its end (`true`) or to the deadline (`false`),
    /// waiting for the other seats when they are to move.
    async fn play_game<S>(&self, ws: &mut S, game: &str, rng: &mut u64) -> Result<bool>
    where
        S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>>
            + SinkExt<Message, Error = tokio_tungstenite::tungstenite::Error>
            + Unpin,
    {
        let mut mine = 0;
        let mut state = next_state(ws, game, 0, Instant::now() + ANSWER_WITHIN)
            .await?
            .context("no state within 30 s of subscribing")?;
        // The other seats' moves are what the state advanced by, less the client's own.
        let count_others = |state: &Brief, mine: u64| {
            self.totals
                .others_moves
                .fetch_add(state.state_id - mine, Ordering::Relaxed)
        };
        loop {
            if state.finished {
                count_others(&state, mine);
                return Ok(true);
            }
            if Instant::now() >= self.deadline {
                count_others(&state, mine);
                return Ok(false);
            }
            if state.legal.is_empty() {
                // Another seat (a bot) is to move: however long it thinks, this is no round
                // trip of ours; it may last until the deadline.
                match next_state(ws, game, state.state_id + 1, self.deadline).await? {
                    Some(next) => state = next,
                    None => {
                        count_others(&state, mine);
                        return Ok(false);
                    }
                }
                continue;
            }
            let m = &state.legal[(xorshift(rng) % state.legal.len() as u64) as usize].text;
            let id = state.state_id;
            if !self.think.is_zero() {
                // Players who all waited exactly `think` would send their moves in one burst
                // per period, all games having started together: a queue no real crowd makes.
                let jitter = (xorshift(rng) >> 11) as f64 / (1u64 << 53) as f64;
                tokio::time::sleep(self.think.mul_f64(0.5 + jitter)).await;
            }
            let sent = Instant::now();
            ws.send(Message::Text(
                json!({"type": "move", "game": game, "state_id": id, "move": m})
                    .to_string()
                    .into(),
            ))
            .await?;
            state = next_state(ws, game, id + 1, sent + ANSWER_WITHIN)
                .await?
                .context("no answer within 30 s")?;
            self.totals
                .latencies_us
                .lock()
                .await
                .push(sent.elapsed().as_micros() as u64);
            self.totals.moves.fetch_add(1, Ordering::Relaxed);
            mine += 1;
        }
    }
}

/// How long the server may take to answer a move of the client's (or a subscription).
const ANSWER_WITHIN: Duration = Duration::from_secs(30);

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

/// The first state of `game` at `at_least` or later, or `None` if none came by `until`.
async fn next_state<S>(
    ws: &mut S,
    game: &str,
    at_least: u64,
    until: Instant,
) -> Result<Option<Brief>>
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let Ok(msg) = tokio::time::timeout_at(until.into(), ws.next()).await else {
            return Ok(None);
        };
        let Message::Text(t) = msg.context("connection closed")?? else {
            continue;
        };
        // Only the fields a player needs: the view itself is skipped, not built.
        let v: Brief = serde_json::from_str(&t)?;
        match v.kind.as_str() {
            "error" => bail!("server error: {t}"),
            "state" if v.game.as_deref() == Some(game) && v.state_id >= at_least => {
                return Ok(Some(v));
            }
            _ => {}
        }
    }
}
