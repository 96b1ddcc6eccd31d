//! `pyramidion-loadtest`: N concurrent games played through WebSockets against a running
//! server, bounded in time; prints moves/s, errors and move round-trip latency percentiles.
//! Each game is a solo game against the automa whose player moves uniformly at random, as
//! fast as the server answers: every move is a full round trip (persist, then publish).
//! `--bot-games N` adds N games where the client holds one seat and bots the others, so that
//! the server's bot pool thinks all the time; their round trips are reported apart from the
//! solo games', which stand for the humans a busy bot pool must not slow down.
//! Like the browser, each client asks for large messages deflated and rebuilds every state
//! from its `patch`; it reports the bytes it received per move, the server's CPU time per
//! 1,000 moves, its memory per live game, and tells `unavailable` answers (the server at a
//! cap) from errors. `--clients N` runs N processes and combines their figures.
use anyhow::{Context, Result, bail, ensure};
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use pyramidion_games::GameKind;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[path = "loadtest_samples.rs"]
mod samples;
use samples::{Samples, Totals, Unavailable, metric, metrics, percentiles, print_server_side};

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
    /// Players arrive spread evenly over this many milliseconds rather than all at once
    /// (thousands of sign-ins in one instant are no crowd; their transient buffers would
    /// stay in the server's resident memory and count as memory per game).
    #[arg(long, default_value_t = 2000)]
    pub ramp_ms: u64,
    /// Client processes (this program, started again), each playing its share of the games;
    /// their figures are combined into one report. One process's event loop saturates
    /// before the server does.
    #[arg(long, default_value_t = 1)]
    pub clients: usize,
    /// Set by the parent of `--clients`: play as client process N and print the samples as
    /// JSON instead of a report.
    #[arg(long, hide = true)]
    pub child: Option<usize>,
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

pub fn run(args: LoadtestArgs) -> Result<()> {
    check_loopback(&args.url)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match args.child {
        // One of several client processes: its samples go to the parent, which reports.
        Some(index) => {
            let samples = runtime.block_on(play_all(&args, index as u64 * 1_000_000))?;
            println!("{}", serde_json::to_string(&samples)?);
            Ok(())
        }
        None => runtime.block_on(load(args)),
    }
}

/// Every game of this process, played until the deadline.
async fn play_all(args: &LoadtestArgs, seed_base: u64) -> Result<Samples> {
    let url = args.url.trim_end_matches('/').to_string();
    let solo = Arc::new(TableKind::solo()?);
    let against_bots = if args.bot_games > 0 {
        Some(Arc::new(
            TableKind::against_bots(args.bot_game, &args.bot_level)?.1,
        ))
    } else {
        None
    };
    let http = reqwest::Client::new();
    let totals = Arc::new(Totals::default());
    let bots = Arc::new(Totals::default());
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let think = Duration::from_millis(args.think_ms);
    let clients = (0..args.games)
        .map(|i| (solo.clone(), totals.clone(), i))
        .chain(
            against_bots
                .iter()
                .flat_map(|t| (0..args.bot_games).map(|i| (t.clone(), bots.clone(), i))),
        );
    let players_in_all = (args.games + args.bot_games).max(1) as u32;
    let ramp = Duration::from_millis(args.ramp_ms);
    let players: Vec<_> = clients
        .enumerate()
        .map(|(seed, (tables, totals, i))| {
            let (http, url) = (http.clone(), url.clone());
            // Players arrive spread over the ramp, not all in one instant.
            let arrives = ramp * seed as u32 / players_in_all;
            tokio::spawn(async move {
                tokio::time::sleep(arrives).await;
                let client = Client {
                    seed: seed_base + seed as u64,
                    http: &http,
                    url: &url,
                    deadline,
                    think,
                    totals: &totals,
                };
                client.play_on(&tables, i).await;
            })
        })
        .collect();
    for p in players {
        let _ = p.await;
    }
    Ok(Samples {
        solo: totals.part().await,
        bots: bots.part().await,
    })
}

/// Runs `args.clients` client processes (this program again, each with its share of the
/// games) and combines what they measured.
async fn play_in_processes(args: &LoadtestArgs) -> Result<Samples> {
    let exe = std::env::current_exe()?;
    let share = |n: usize, i: usize| n / args.clients + usize::from(i < n % args.clients);
    let mut children = Vec::new();
    for i in 0..args.clients {
        let mut cmd = std::process::Command::new(&exe);
        cmd.args(["--url", &args.url])
            .args(["--games", &share(args.games, i).to_string()])
            .args(["--seconds", &args.seconds.to_string()])
            .args(["--think-ms", &args.think_ms.to_string()])
            .args(["--ramp-ms", &args.ramp_ms.to_string()])
            .args(["--bot-games", &share(args.bot_games, i).to_string()])
            .args(["--bot-level", &args.bot_level])
            .args(["--child", &i.to_string()])
            .stdout(std::process::Stdio::piped());
        if let Some(game) = args.bot_game {
            cmd.args(["--bot-game", game.key()]);
        }
        let child = cmd.spawn().context("cannot start a client process")?;
        children.push(tokio::task::spawn_blocking(move || {
            child.wait_with_output()
        }));
    }
    let mut all = Samples::default();
    for (i, child) in children.into_iter().enumerate() {
        let out = child.await??;
        ensure!(out.status.success(), "client process {i} failed");
        let samples: Samples = serde_json::from_slice(&out.stdout)
            .with_context(|| format!("client process {i} printed no samples"))?;
        all.solo.add(samples.solo);
        all.bots.add(samples.bots);
    }
    Ok(all)
}

async fn load(args: LoadtestArgs) -> Result<()> {
    let url = args.url.trim_end_matches('/').to_string();
    let bot_kind = if args.bot_games > 0 {
        Some(TableKind::against_bots(args.bot_game, &args.bot_level)?.0)
    } else {
        None
    };
    let http = reqwest::Client::new();
    // The idle server: its memory is the baseline that per-game memory is measured against.
    let before = metrics(&http, &url).await?;
    let rss_before = *before
        .get("process_resident_memory_bytes")
        .context("metric process_resident_memory_bytes missing")?;
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
    let samples = if args.clients > 1 {
        play_in_processes(&args).await?
    } else {
        play_all(&args, 0).await?
    };
    let _ = sampler.await;
    let elapsed = start.elapsed().as_secs_f64();
    let after = metrics(&http, &url).await?;
    let (solo, bots) = (&samples.solo, &samples.bots);
    let [p50, p99, max] = solo.percentiles();
    println!(
        "concurrent games: {} (think time {} ms, {} client process{})",
        args.games,
        args.think_ms,
        args.clients.max(1),
        if args.clients > 1 { "es" } else { "" }
    );
    println!("duration: {elapsed:.1} s");
    println!("moves: {}", solo.moves);
    println!("moves/s: {:.0}", solo.moves as f64 / elapsed);
    println!("games finished: {}", solo.finished);
    println!("errors: {}", solo.errors + bots.errors);
    println!(
        "unavailable answers (the server at a cap; waited out and tried again): {}",
        solo.unavailable + bots.unavailable
    );
    println!("move round trip p50: {p50:.2} ms");
    println!("move round trip p99: {p99:.2} ms");
    println!("move round trip max: {max:.2} ms");
    let [b50, b99, bmax] = percentiles(&solo.bytes);
    println!(
        "bytes received per move per connection: median {b50}, p99 {b99}, max {bmax} \
         (WebSocket message payloads, deflated ones as sent, from a move sent to its answer)"
    );
    if let Some(kind) = bot_kind {
        let [p50, p99, max] = bots.percentiles();
        println!(
            "bot games: {} ({}, level {}, the client's moves with the same think time)",
            args.bot_games,
            kind.key(),
            args.bot_level
        );
        println!(
            "bot games' bot moves: {} ({:.1}/s)",
            bots.others_moves,
            bots.others_moves as f64 / elapsed
        );
        println!("bot games' client moves: {}", bots.moves);
        println!("bot games finished: {}", bots.finished);
        println!("bot games' errors: {}", bots.errors);
        println!("bot games' move round trip p50: {p50:.2} ms");
        println!("bot games' move round trip p99: {p99:.2} ms");
        println!("bot games' move round trip max: {max:.2} ms");
    }
    print_server_side(&before, &after);
    let delta = |name: &str| after.get(name).unwrap_or(&0.0) - before.get(name).unwrap_or(&0.0);
    let (cpu, server_moves) = (
        delta("process_cpu_seconds_total"),
        delta("pyramidion_moves_total"),
    );
    if server_moves > 0.0 && after.contains_key("process_cpu_seconds_total") {
        println!(
            "server CPU per 1,000 moves: {:.3} s ({cpu:.2} s user and system for {server_moves} moves, \
             from /metrics process_cpu_seconds_total; everything the server did meanwhile included)",
            1000.0 * cpu / server_moves
        );
    }
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
    /// Plays until the deadline. An `unavailable` answer (the server at a cap) is counted
    /// apart, waited out and the client starts again; any other failure is an error.
    async fn play_on(&self, tables: &TableKind, i: usize) {
        let mut rng = self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while Instant::now() < self.deadline {
            match self.play(tables, &mut rng).await {
                Ok(()) => return,
                Err(e) if e.downcast_ref::<Unavailable>().is_some() => {
                    self.totals.unavailable.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(RETRY_UNAVAILABLE).await;
                }
                Err(e) => {
                    self.totals.errors.fetch_add(1, Ordering::Relaxed);
                    eprintln!("game {i}: {e:#}");
                    return;
                }
            }
        }
    }

    async fn play(&self, tables: &TableKind, rng: &mut u64) -> Result<()> {
        let (http, url) = (self.http, self.url);
        let me = http.get(format!("{url}/api/me")).send().await?;
        unavailable(&me)?;
        let cookie = me
            .headers()
            .get("set-cookie")
            .and_then(|c| c.to_str().ok())
            .and_then(|c| c.split(';').next())
            .context("no session cookie")?
            .to_string();
        // Large messages deflated, as the browser asks for them.
        let ws_url = format!("{}/ws?deflate=1", url.replacen("http", "ws", 1));
        let mut req = ws_url.into_client_request()?;
        req.headers_mut().insert("cookie", cookie.parse()?);
        // 16 KiB read chunks instead of 128 KiB zeroed on every read: this client shares the
        // machine.
        let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
            .read_buffer_size(16 * 1024);
        let (mut ws, _) =
            match tokio_tungstenite::connect_async_with_config(req, Some(config), false).await {
                Err(tokio_tungstenite::tungstenite::Error::Http(r))
                    if r.status().as_u16() == 503 =>
                {
                    return Err(Unavailable("WebSocket handshake".into()).into());
                }
                other => other?,
            };
        while Instant::now() < self.deadline {
            let answer = http
                .post(format!("{url}/api/tables"))
                .header("cookie", &cookie)
                .json(&tables.spec)
                .send()
                .await?;
            if answer.status().as_u16() == 503 {
                // At the live-games cap: wait and ask again (the socket is kept).
                self.totals.unavailable.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(RETRY_UNAVAILABLE).await;
                continue;
            }
            let table: Value = answer.json().await?;
            let Some(game) = table["id"].as_str().map(str::to_string) else {
                bail!("cannot create a table: {table}")
            };
            ws.send(Message::Text(
                json!({"type": "subscribe", "game": game})
                    .to_string()
                    .into(),
            ))
            .await?;
            if !self.play_game(&mut ws, &game, rng).await? {
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
        // The last state of the game, which the next patch applies to.
        let mut held = None;
        let (mut state, _) = next_state(ws, game, 0, &mut held, Instant::now() + ANSWER_WITHIN)
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
                match next_state(ws, game, state.state_id + 1, &mut held, self.deadline).await? {
                    Some((next, _)) => state = next,
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
            let (next, bytes) = next_state(ws, game, id + 1, &mut held, sent + ANSWER_WITHIN)
                .await?
                .context("no answer within 30 s")?;
            state = next;
            self.totals
                .latencies_us
                .lock()
                .await
                .push(sent.elapsed().as_micros() as u64);
            self.totals.bytes.lock().await.push(bytes);
            self.totals.moves.fetch_add(1, Ordering::Relaxed);
            mine += 1;
        }
    }
}

/// How long a client waits after an `unavailable` answer before trying again.
const RETRY_UNAVAILABLE: Duration = Duration::from_secs(1);

/// An [`Unavailable`] error for a `503` answer.
fn unavailable(r: &reqwest::Response) -> Result<()> {
    if r.status().as_u16() == 503 {
        return Err(Unavailable(r.url().path().to_string()).into());
    }
    Ok(())
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

/// The first state of `game` at `at_least` or later, with the bytes of every message
/// received meanwhile; `None` if none came by `until`. `held` is the last state of the game
/// the client got: a `patch` applies to it (as the browser does), and a patch of another
/// state is a gap, an error.
async fn next_state<S>(
    ws: &mut S,
    game: &str,
    at_least: u64,
    held: &mut Option<Value>,
    until: Instant,
) -> Result<Option<(Brief, u64)>>
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    let mut bytes = 0;
    loop {
        let Ok(msg) = tokio::time::timeout_at(until.into(), ws.next()).await else {
            return Ok(None);
        };
        let t = match msg.context("connection closed")?? {
            Message::Text(t) => {
                bytes += t.len() as u64;
                t.to_string()
            }
            Message::Binary(b) => {
                bytes += b.len() as u64;
                pyramidion_server::live::wire::inflate(&b).map_err(|e| anyhow::anyhow!("{e}"))?
            }
            _ => continue,
        };
        let v: Value = serde_json::from_str(&t)?;
        if v["type"] == "error" {
            if v["code"] == "unavailable" {
                return Err(Unavailable(t).into());
            }
            bail!("server error: {t}");
        }
        if v["game"] != game || !(v["type"] == "state" || v["type"] == "patch") {
            continue;
        }
        if v["type"] == "patch" {
            // Applied in place (this client shares the machine with the server): the state's
            // patched fields are its own top-level ones.
            let state = held.as_mut().context("a patch before any state")?;
            ensure!(
                state["state_id"] == v["from"],
                "a patch from state {} while the client holds {}",
                v["from"],
                state["state_id"]
            );
            let ops = v["patch"]
                .as_array()
                .context("a patch without operations")?;
            pyramidion_server::live::patch::apply(state, ops)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            for k in ["state_id", "event", "clock"] {
                state[k] = v[k].clone();
            }
        } else {
            *held = Some(v);
        }
        let state = held.as_ref().context("no state")?;
        let brief = <Brief as serde::Deserialize>::deserialize(state)?;
        if brief.state_id >= at_least {
            return Ok(Some((brief, bytes)));
        }
    }
}
