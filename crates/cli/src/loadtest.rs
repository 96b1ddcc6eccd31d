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
//! `--arena-players N` is the tournament mode instead (`loadtest_tournament.rs`).
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

#[path = "loadtest_client.rs"]
mod client;
#[path = "loadtest_samples.rs"]
mod samples;
#[path = "loadtest_tournament.rs"]
mod tournament;
use client::Client;
use samples::{
    Samples, Totals, Unavailable, fleet_metrics, percentiles, print_instances, print_server_side,
    summed,
};

#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// The server, e.g. http://127.0.0.1:8080 (loopback only).
    #[arg(long)]
    pub url: String,
    /// The server's instances, each at its own address (comma separated or repeated), whose
    /// `/metrics` are read: `/metrics` is served only to the addresses an instance allows,
    /// never through the proxy `--url` may name. Their CPU, moves and memory are summed, and
    /// each instance's are printed too. Default: `--url` (one instance).
    #[arg(long, value_delimiter = ',')]
    pub metrics: Vec<String>,
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
    /// One more game against bots of this level (in the bot games' game), whose bots' replies
    /// are reported apart: the victim of issue 54, whose quick bot must answer within 1.5 s
    /// while the `--bot-games` keep the pool busy (serve with `--bot-pace-ms 0`).
    #[arg(long)]
    pub victim_level: Option<String>,
    /// The local address the victim connects from (a loopback address such as 127.0.0.2):
    /// the server shares its bots' CPU by client address first, so a victim from the same
    /// address as the load is one of its users, not another person. Default: the others'.
    #[arg(long)]
    pub victim_address: Option<std::net::IpAddr>,
    /// Guests who play games against `greedy` bots (in the bot games' game) back to back
    /// and ask for each finished game's analysis (issue 54: analyses must not stall the
    /// victim's bot). Serve with `--analyses-per-address` high enough, or they are one asker.
    #[arg(long, default_value_t = 0)]
    pub analysing_guests: usize,
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
    /// The tournament mode: an Arena of this many guests (tables of two), who play the games
    /// it seats them at for `--seconds`, with `--think-ms` and `--ramp-ms`; reports the round
    /// trips of a move and of a re-seating instead of the solo games' figures.
    #[arg(long, default_value_t = 0)]
    pub arena_players: usize,
    /// The Arena's game; default: the first game that seats two.
    #[arg(long, value_parser = crate::game_args::game_parser())]
    pub arena_game: Option<GameKind>,
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
    for url in &args.metrics {
        check_loopback(url)?;
    }
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
        None if args.arena_players > 0 => runtime.block_on(tournament::arena(&args)),
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
    let victim_table = match &args.victim_level {
        Some(level) => Some(Arc::new(TableKind::against_bots(args.bot_game, level)?.1)),
        None => None,
    };
    let analysts_table = match args.analysing_guests {
        0 => None,
        _ => Some(Arc::new(
            TableKind::against_bots(args.bot_game, "greedy")?.1,
        )),
    };
    let http = reqwest::Client::new();
    let victim_http = match args.victim_address {
        Some(ip) => reqwest::Client::builder().local_address(ip).build()?,
        None => http.clone(),
    };
    let totals = Arc::new(Totals::default());
    let bots = Arc::new(Totals::default());
    let victim = Arc::new(Totals::default());
    let analysts = Arc::new(Totals::default());
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let think = Duration::from_millis(args.think_ms);
    let clients =
        (0..args.games)
            .map(|i| (solo.clone(), totals.clone(), i))
            .chain(
                against_bots
                    .iter()
                    .flat_map(|t| (0..args.bot_games).map(|i| (t.clone(), bots.clone(), i))),
            )
            .chain(victim_table.iter().map(|t| (t.clone(), victim.clone(), 0)))
            .chain(analysts_table.iter().flat_map(|t| {
                (0..args.analysing_guests).map(|i| (t.clone(), analysts.clone(), i))
            }));
    let players_in_all = (args.games
        + args.bot_games
        + usize::from(args.victim_level.is_some())
        + args.analysing_guests)
        .max(1) as u32;
    let ramp = Duration::from_millis(args.ramp_ms);
    let players: Vec<_> = clients
        .enumerate()
        .map(|(seed, (tables, totals, i))| {
            let is_victim = Arc::ptr_eq(&totals, &victim);
            let http = if is_victim { &victim_http } else { &http }.clone();
            let url = url.clone();
            let local = args.victim_address.filter(|_| is_victim);
            let analyse = Arc::ptr_eq(&totals, &analysts);
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
                    analyse,
                    local,
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
        victim: victim.part().await,
        analysts: analysts.part().await,
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
            .args([
                "--analysing-guests",
                &share(args.analysing_guests, i).to_string(),
            ])
            .args(["--child", &i.to_string()])
            .stdout(std::process::Stdio::piped());
        if let Some(game) = args.bot_game {
            cmd.args(["--bot-game", game.key()]);
        }
        if let (0, Some(level)) = (i, &args.victim_level) {
            cmd.args(["--victim-level", level]);
            if let Some(ip) = args.victim_address {
                cmd.args(["--victim-address", &ip.to_string()]);
            }
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
        all.victim.add(samples.victim);
        all.analysts.add(samples.analysts);
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
    // Every instance, each read at its own address: behind a proxy, /metrics through it is
    // one random instance's (or refused), never the server's.
    let instances: Vec<String> = if args.metrics.is_empty() {
        vec![url.clone()]
    } else {
        args.metrics
            .iter()
            .map(|u| u.trim_end_matches('/').to_string())
            .collect()
    };
    samples::wait_ready(&http, &instances, Duration::from_secs(120)).await?;
    // The idle server: its memory is the baseline that per-game memory is measured against.
    let before_each = fleet_metrics(&http, &instances).await?;
    let before = summed(&before_each);
    let rss_before = *before
        .get("process_resident_memory_bytes")
        .context("metric process_resident_memory_bytes missing")?;
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let peak_live = Arc::new(AtomicU64::new(0));
    let peak_rss = Arc::new(AtomicU64::new(0));
    // Sample the server (every instance at once, summed) while the games run.
    let sampler = {
        let (http, instances, peak_live, peak_rss) = (
            http.clone(),
            instances.clone(),
            peak_live.clone(),
            peak_rss.clone(),
        );
        tokio::spawn(async move {
            while Instant::now() < deadline {
                if let Ok(each) = fleet_metrics(&http, &instances).await {
                    let all = summed(&each);
                    let live = all.get("pyramidion_games_live").copied().unwrap_or(0.0);
                    let rss = all
                        .get("process_resident_memory_bytes")
                        .copied()
                        .unwrap_or(0.0);
                    if live as u64 >= peak_live.load(Ordering::Relaxed) {
                        peak_live.store(live as u64, Ordering::Relaxed);
                        peak_rss.store(rss as u64, Ordering::Relaxed);
                    }
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
    let after_each = fleet_metrics(&http, &instances).await?;
    let after = summed(&after_each);
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
        let [w50, w99, wmax] = percentiles(&bots.bot_waits_us).map(|us| us as f64 / 1000.0);
        println!("bot games' bot replies: p50 {w50:.0} ms, p99 {w99:.0} ms, max {wmax:.0} ms");
    }
    if let Some(level) = &args.victim_level {
        let victim = &samples.victim;
        let [w50, w99, wmax] = percentiles(&victim.bot_waits_us).map(|us| us as f64 / 1000.0);
        println!(
            "victim (one game against level {level}): {} bot replies, p50 {w50:.0} ms, p99 {w99:.0} ms, \
             max {wmax:.0} ms (from its move's answer to the bots' next move; 0 pace needs \
             serve --bot-pace-ms 0); errors {}",
            victim.bot_waits_us.len(),
            victim.errors
        );
    }
    if args.analysing_guests > 0 {
        let analysts = &samples.analysts;
        println!(
            "analysing guests: {} (games against greedy bots, each finished one's analysis              asked for): {} games finished, {} analyses queued (the others refused at a cap),              errors {}",
            args.analysing_guests, analysts.finished, analysts.analyses, analysts.errors
        );
    }
    print_server_side(&before, &after);
    let delta = |name: &str| after.get(name).unwrap_or(&0.0) - before.get(name).unwrap_or(&0.0);
    let (cpu, server_moves) = (
        delta("process_cpu_seconds_total"),
        delta("pyramidion_moves_total"),
    );
    let over = match instances.len() {
        1 => String::new(),
        n => format!(", summed over {n} instances"),
    };
    if server_moves > 0.0 && after.contains_key("process_cpu_seconds_total") {
        println!(
            "server CPU per 1,000 moves: {:.3} s ({cpu:.2} s user and system for {server_moves} moves, \
             from /metrics process_cpu_seconds_total{over}; everything the server did meanwhile included)",
            1000.0 * cpu / server_moves
        );
    }
    let live = peak_live.load(Ordering::Relaxed);
    if live > 0 {
        let per_game =
            (peak_rss.load(Ordering::Relaxed) as f64 - rss_before).max(0.0) / live as f64;
        println!(
            "server memory per live game: {:.1} KiB ({live} live games at the sample, \
             {:.1} MiB resident against {:.1} MiB idle{over}; a game's player connection included)",
            per_game / 1024.0,
            peak_rss.load(Ordering::Relaxed) as f64 / 1048576.0,
            rss_before / 1048576.0
        );
    }
    if instances.len() > 1 {
        print_instances(&instances, &before_each, &after_each);
    }
    Ok(())
}
