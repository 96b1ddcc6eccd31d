//! `pyramidion-chaos`: N instances on one PostgreSQL database behind HAProxy, G games played
//! through the proxy by pairs of players who reconnect as the browser does, while an instance
//! is killed (SIGKILL and SIGTERM in turn) and restarted every few seconds. At the end, every
//! acknowledged move must be in the stored record at its place and every record must replay.
pub mod client;
mod fleet;
mod usage;
mod verify;

use anyhow::{Context, Result, bail};
use clap::Args;
use client::{Duel, Player, guest, mix, post};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::time::Instant;
use verify::Played;

#[derive(Args, Debug)]
pub struct ChaosArgs {
    /// The PostgreSQL database the instances share (`postgres://…`); its games stay there.
    /// One instance may run on SQLite instead (`sqlite://…`): the single-instance figures a
    /// cluster's are read against (issue 53: CPU per move against one SQLite instance).
    #[arg(long)]
    pub database: String,
    /// How many instances run behind the proxy.
    #[arg(long, default_value_t = 3)]
    pub instances: usize,
    /// How many games are played at once (a finished one is followed by a new one).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// How long the load (and the kills) last, in seconds; games then play to their end.
    #[arg(long, default_value_t = 60)]
    pub seconds: u64,
    /// Seconds between two kills.
    #[arg(long, default_value_t = 10)]
    pub kill_every: u64,
    /// Seeds which instance dies and which legal moves are played.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// HAProxy's configuration template, made for the number of instances by the
    /// `haproxy-cfg` script beside it (`deploy/haproxy-cfg`, as an operator makes it).
    #[arg(long, default_value = "deploy/haproxy.cfg")]
    pub proxy_config: PathBuf,
    /// Once the load stops, how long the games under way may take to finish, in seconds.
    #[arg(long, default_value_t = 120)]
    pub finish_within: u64,
}

/// Whether `database` is a PostgreSQL URL (else one instance's SQLite file).
fn on_postgres(database: &str) -> bool {
    database.starts_with("postgres://") || database.starts_with("postgresql://")
}

pub fn run(args: ChaosArgs) -> Result<()> {
    let one_on_sqlite = args.instances == 1 && args.database.starts_with("sqlite://");
    if !(on_postgres(&args.database) || one_on_sqlite) {
        bail!(
            "--database must be a PostgreSQL URL (postgres://…): instances share it (one \
             instance may run on SQLite, sqlite://…)"
        );
    }
    if args.instances == 0 || args.games == 0 || args.kill_every == 0 {
        bail!("--instances, --games and --kill-every must be at least 1");
    }
    // One instance is the baseline a cluster's figures are read against (issue 52: CPU per
    // move and p99 of three instances against one, same database, same proxy): it runs only
    // without kills, since killing the only instance measures nothing but its restart.
    if args.instances == 1 && args.kill_every <= args.seconds {
        bail!(
            "one instance runs without kills: --kill-every must be longer than --seconds \
             (several instances are killed in turn)"
        );
    }
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(chaos(args))
}

/// Guests `a` and `b` at a new two-player table of Pyramids, each on a socket of its own.
async fn new_duel(
    http: &reqwest::Client,
    base: &str,
    (a, b): (&str, &str),
    seed: u64,
) -> Result<Duel> {
    let bases = [base.to_string()];
    let table = post(
        http,
        format!("{base}/api/tables"),
        a,
        json!({"game": "pyramids", "options": {"players": 2},
               "seats": [{"type": "me"}, {"type": "open"}]}),
    )
    .await?;
    let id = table["id"].as_str().context("a table id")?.to_string();
    post(http, format!("{base}/api/tables/{id}/join"), b, json!({})).await?;
    let players = [
        Player::join(a.to_string(), &id, &bases, 0).await?,
        Player::join(b.to_string(), &id, &bases, 0).await?,
    ];
    Ok(Duel::new(players, Some(seed)))
}

/// One slot of the load: two guests playing games one after another until the load stops,
/// the last one played to its end (or `finish_by`); with the errors met making tables.
async fn slot(
    http: reqwest::Client,
    base: String,
    seed: u64,
    load: Arc<AtomicBool>,
    finish_by: Instant,
) -> (Vec<Played>, Vec<String>) {
    let mut played = Vec::new();
    let mut setup_errors = Vec::new();
    let bases = [base.clone()];
    let mut round = 0u64;
    let mut guests: Option<(String, String)> = None;
    while load.load(Ordering::Relaxed) {
        round += 1;
        let made = match &guests {
            Some((a, b)) => new_duel(&http, &base, (a, b), seed ^ (round << 32)).await,
            None => match (guest(&http, &base).await, guest(&http, &base).await) {
                (Ok(a), Ok(b)) => {
                    guests = Some((a, b));
                    continue;
                }
                (Err(e), _) | (_, Err(e)) => Err(e),
            },
        };
        let mut duel = match made {
            Ok(d) => d,
            // A table made while its instance died: another one is made.
            Err(e) => {
                setup_errors.push(format!("{e:#}"));
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        };
        let cookie = duel.players[0].cookie.clone();
        let id = duel.players[0].game.clone();
        let outcome = tokio::time::timeout_at(finish_by, duel.play_until(None, &bases, &[])).await;
        let (finished, error) = match outcome {
            Ok(Ok(finished)) => (finished, None),
            Ok(Err(e)) => (false, Some(format!("{e:#}"))),
            Err(_) => (false, Some("not finished in time".to_string())),
        };
        played.push(Played {
            id,
            cookie,
            acks: std::mem::take(&mut duel.acknowledged),
            finished,
            error,
            resumed: duel.players.iter().map(|p| p.resumed).sum(),
        });
    }
    (played, setup_errors)
}

/// Every `every`, until the load stops: one instance, drawn from the seed, killed (SIGKILL,
/// then SIGTERM the next time, and so on) and started again. The moments of the kills.
#[allow(clippy::too_many_arguments)]
async fn killer(
    mut instances: Vec<fleet::Instance>,
    database: String,
    logs: PathBuf,
    seed: u64,
    every: Duration,
    until: Instant,
    usage: Arc<usage::Usage>,
    roster: usage::Roster,
) -> Result<(Vec<Instant>, Vec<fleet::Instance>)> {
    let mut kills = Vec::new();
    let mut next = Instant::now() + every;
    while next < until {
        tokio::time::sleep_until(next).await;
        let n = kills.len() as u64;
        let i = (mix(seed ^ mix(n)) % instances.len() as u64) as usize;
        let drain = n % 2 == 1;
        kills.push(Instant::now());
        let (database, logs) = (database.clone(), logs.clone());
        let mut dying = instances.swap_remove(i);
        eprintln!(
            "chaos: {} instance {} (port {})",
            if drain { "draining" } else { "killing" },
            dying.name,
            dying.port
        );
        let dying_usage = usage.clone();
        let back = tokio::task::spawn_blocking(move || {
            dying
                .kill_and_restart(&database, drain, &logs, &dying_usage)
                .map(|()| dying)
        })
        .await??;
        for entry in roster.lock().unwrap_or_else(|e| e.into_inner()).iter_mut() {
            if entry.0 == back.name {
                entry.1 = back.pid();
            }
        }
        instances.push(back);
        next = Instant::now().max(next + every);
    }
    Ok((kills, instances))
}

async fn chaos(args: ChaosArgs) -> Result<()> {
    let logs = std::env::temp_dir().join(format!("pyramidion-chaos-{}", std::process::id()));
    std::fs::create_dir_all(&logs)?;
    eprintln!("chaos: logs in {}", logs.display());
    // PostgreSQL's CPU over the run is the difference of its processes' from here to the end
    // of the games (its backends serve the instances' pools, which stay open meanwhile).
    let postgres_before =
        on_postgres(&args.database).then(|| usage::command_cpu_seconds("postgres"));
    let mut instances = Vec::new();
    // One after another: the first one migrates the database.
    for k in 1..=args.instances {
        instances.push(fleet::Instance::start(
            &args.database,
            &format!("i{k}"),
            &logs,
        )?);
    }
    // The idle instances: their memory is what per-game memory is measured against.
    let usage = Arc::new(usage::Usage::default());
    for i in &instances {
        usage.idle(&i.name, i.pid());
    }
    let roster: usage::Roster = Arc::new(std::sync::Mutex::new(
        instances
            .iter()
            .map(|i| (i.name.clone(), i.pid(), i.port))
            .collect(),
    ));
    let sampling = Arc::new(AtomicBool::new(false));
    let sampler = tokio::spawn(usage.clone().sample_until(
        roster.clone(),
        Duration::from_millis(500),
        sampling.clone(),
    ));
    let proxy = fleet::proxy(&args.proxy_config, &instances, &logs)?;
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()?;
    let start = Instant::now();
    let until = start + Duration::from_secs(args.seconds);
    let finish_by = until + Duration::from_secs(args.finish_within);
    let load = Arc::new(AtomicBool::new(true));
    let slots: Vec<_> = (0..args.games as u64)
        .map(|g| {
            tokio::spawn(slot(
                http.clone(),
                proxy.base.clone(),
                mix(args.seed ^ mix(g + 1)),
                load.clone(),
                finish_by,
            ))
        })
        .collect();
    let killing = tokio::spawn(killer(
        instances,
        args.database.clone(),
        logs.clone(),
        args.seed,
        Duration::from_secs(args.kill_every),
        until,
        usage.clone(),
        roster.clone(),
    ));
    tokio::time::sleep_until(until).await;
    load.store(false, Ordering::Relaxed);
    let (kills, instances) = killing.await??;
    let mut games = Vec::new();
    let mut setup_errors = Vec::new();
    for s in slots {
        let (played, errors) = s.await?;
        games.extend(played);
        setup_errors.extend(errors);
    }
    let played_for = start.elapsed();
    // Every game has ended: the CPU time of the run, before the check reads the records.
    sampling.store(true, Ordering::Relaxed);
    let _ = sampler.await;
    for i in &instances {
        usage.read_cpu(i.pid());
    }
    let postgres = postgres_before.map(|before| usage::command_cpu_seconds("postgres") - before);
    let cost = Cost {
        cpu: usage.cpu_total(),
        postgres,
        memory: usage.memory(),
    };
    let checked = verify::check(&http, &proxy.base, &games).await;
    drop(proxy);
    drop(instances);
    report(
        &args,
        &games,
        &kills,
        &checked,
        played_for,
        until,
        &setup_errors,
        &logs,
        &cost,
    )
}

/// What the instances cost over the run (`usage`).
struct Cost {
    /// CPU seconds of every instance process, from their start to the end of the games.
    cpu: f64,
    /// CPU seconds of this machine's PostgreSQL processes over the same span, on PostgreSQL.
    postgres: Option<f64>,
    memory: Vec<(String, usage::Memory)>,
}

#[allow(clippy::too_many_arguments)]
fn report(
    args: &ChaosArgs,
    games: &[Played],
    kills: &[Instant],
    checked: &verify::Checked,
    played_for: Duration,
    until: Instant,
    setup_errors: &[String],
    logs: &Path,
    cost: &Cost,
) -> Result<()> {
    let acks: Vec<_> = games.iter().flat_map(|g| &g.acks).collect();
    let in_load = acks.iter().filter(|a| a.acknowledged <= until).count();
    let per_second = in_load as f64 / args.seconds.max(1) as f64;
    let mut latencies: Vec<Duration> = acks.iter().map(|a| a.acknowledged - a.sent).collect();
    let p50 = verify::quantile(&mut latencies, 0.5);
    let p99 = verify::quantile(&mut latencies, 0.99);
    let failover = verify::failover_max(games, kills);
    // The killer alternates: SIGKILL first, then a drain.
    let by_kind =
        |skip: usize| -> Vec<Instant> { kills.iter().skip(skip).step_by(2).copied().collect() };
    let (after_kill, after_drain) = (
        verify::failover_max(games, &by_kind(0)),
        verify::failover_max(games, &by_kind(1)),
    );
    let finished = games.iter().filter(|g| g.finished).count();
    let stopped: Vec<_> = games
        .iter()
        .filter_map(|g| g.error.as_ref().map(|e| (&g.id, e)))
        .collect();
    let resumed: u32 = games.iter().map(|g| g.resumed).sum();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mut bytes: Vec<u64> = acks.iter().map(|a| a.bytes).collect();
    bytes.sort_unstable();
    let at = |q: f64| {
        bytes
            .get(((bytes.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    let (b50, b99) = (at(0.5), at(0.99));
    let cpu_per_1000 = 1000.0 * cost.cpu / acks.len().max(1) as f64;
    let per_game: Vec<f64> = cost
        .memory
        .iter()
        .filter_map(|(_, m)| m.per_game())
        .map(|b| b / 1024.0)
        .collect();
    let memory = match (
        per_game.iter().copied().reduce(f64::min),
        per_game.iter().copied().reduce(f64::max),
    ) {
        (Some(lo), Some(hi)) => format!("{lo:.0}–{hi:.0} KiB"),
        _ => "not measured".to_string(),
    };
    outln!(
        "| instances | games at once | games played | moves/s | p50 ack | p99 ack | failover max | kills | lost moves | records that do not replay | CPU per 1,000 moves | bytes per move | memory per game |"
    )?;
    outln!("|---|---|---|---|---|---|---|---|---|---|---|---|---|")?;
    outln!(
        "| {} | {} | {} | {per_second:.0} | {:.0} ms | {:.0} ms | {:.1} s | {} | {} | {} | {cpu_per_1000:.2} s | {b50} median, {b99} p99 | {memory} |",
        args.instances,
        args.games,
        games.len(),
        ms(p50),
        ms(p99),
        failover.as_secs_f64(),
        kills.len(),
        checked.lost.len(),
        checked.bad.len()
    )?;
    outln!(
        "instances' CPU: {:.1} s user and system for {} acknowledged moves (every process of \
         every instance, restarts included, from /proc/<pid>/stat; PostgreSQL, HAProxy and the \
         client not included)",
        cost.cpu,
        acks.len()
    )?;
    if let Some(postgres) = cost.postgres {
        outln!(
            "PostgreSQL's CPU: {postgres:.1} s for the same moves, {:.2} s per 1,000 (every \
             `postgres` process of this machine, from before the instances started to the end \
             of the games: another database's work meanwhile is counted too; instances and \
             PostgreSQL together {:.2} s per 1,000 moves)",
            1000.0 * postgres / acks.len().max(1) as f64,
            1000.0 * (cost.cpu + postgres) / acks.len().max(1) as f64
        )?;
    }
    outln!(
        "bytes received per move by the mover's connection, from its move to the state \
         acknowledging it (WebSocket payloads; a resubscription's full state included)"
    )?;
    for (name, m) in &cost.memory {
        match m.per_game() {
            Some(b) => outln!(
                "instance {name}: memory per live game {:.1} KiB ({} live games at the sample, \
                 {:.1} MiB resident against {:.1} MiB idle)",
                b / 1024.0,
                m.live,
                m.rss as f64 / 1048576.0,
                m.idle as f64 / 1048576.0
            )?,
            None => outln!("instance {name}: ran no live game at a sample")?,
        }
    }
    outln!(
        "failover max after a SIGKILL {:.1} s, after a drain (SIGTERM) {:.1} s",
        after_kill.as_secs_f64(),
        after_drain.as_secs_f64()
    )?;
    outln!(
        "{} acknowledged moves checked against the stored records; {} of {} games finished and \
         replayed ({} records replayed); {resumed} reconnections or resubscriptions; {} tables \
         made again after an error; {:.0} s in all; logs in {}",
        checked.acknowledged,
        finished,
        games.len(),
        checked.replayed,
        setup_errors.len(),
        played_for.as_secs_f64(),
        logs.display()
    )?;
    // Failing to make a table loses nothing, but says why (the first few).
    for e in setup_errors.iter().take(5) {
        outln!("making a table failed: {e}")?;
    }
    for (id, e) in &stopped {
        outln!("game {id} stopped: {e}")?;
    }
    for l in &checked.lost {
        outln!("lost: {l}")?;
    }
    for b in &checked.bad {
        outln!("does not replay: {b}")?;
    }
    if !checked.lost.is_empty() || !checked.bad.is_empty() {
        bail!(
            "{} acknowledged moves lost, {} records that do not replay",
            checked.lost.len(),
            checked.bad.len()
        );
    }
    if !stopped.is_empty() {
        bail!("{} games stopped before their end", stopped.len());
    }
    Ok(())
}
