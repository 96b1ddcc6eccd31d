//! The tournament mode (`--arena-players N`): an Arena of N guests on the server, each
//! playing the games the Arena seats it at (a random legal move after the think time, as the
//! solo games do), until the deadline. Reports the round trip of a move and of a re-seating:
//! from the final state of a player's game to the `seated` message of their next table
//! (the director's step, at most a second apart, and the wait for someone free to play).
use super::*;

/// What the players measured.
#[derive(Default)]
struct ArenaTotals {
    moves: AtomicU64,
    games: AtomicU64,
    errors: AtomicU64,
    move_us: tokio::sync::Mutex<Vec<u64>>,
    reseat_us: tokio::sync::Mutex<Vec<u64>>,
}

/// A session cookie from a response that set one.
fn cookie_of(r: &reqwest::Response) -> Result<String> {
    Ok(r.headers()
        .get("set-cookie")
        .and_then(|c| c.to_str().ok())
        .and_then(|c| c.split(';').next())
        .context("no session cookie")?
        .to_string())
}

/// A message of the socket as JSON (deflated binary frames inflated); none for a control
/// frame.
fn decode(msg: Message) -> Result<Option<Value>> {
    let text = match msg {
        Message::Text(t) => t.to_string(),
        Message::Binary(b) => {
            pyramidion_server::live::wire::inflate(&b).map_err(|e| anyhow::anyhow!("{e}"))?
        }
        _ => return Ok(None),
    };
    Ok(Some(serde_json::from_str(&text)?))
}

/// Runs the Arena: creates it, brings its players in, lets them play until the deadline.
pub(super) async fn arena(args: &LoadtestArgs) -> Result<()> {
    let url = args.url.trim_end_matches('/').to_string();
    let http = reqwest::Client::new();
    let game = match args.arena_game {
        Some(k) => k,
        None => GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.descriptor().seats.contains(2))
            .context("no registered game seats two")?,
    };
    ensure!(
        game.descriptor().seats.contains(2),
        "{} does not seat two",
        game.key()
    );
    super::samples::wait_ready(&http, std::slice::from_ref(&url), Duration::from_secs(120)).await?;
    // An account organises it (creating a tournament needs one); it does not play.
    let r = http
        .post(format!("{url}/api/register"))
        .json(&json!({"name": format!("arena{}", std::process::id()), "password": "correct horse"}))
        .send()
        .await?;
    ensure!(
        r.status().is_success(),
        "cannot register the organiser: {}",
        r.status()
    );
    let host = cookie_of(&r)?;
    let minutes = args.seconds.div_ceil(60).max(1) + 1;
    let created: Value = http
        .post(format!("{url}/api/tournaments"))
        .header("cookie", &host)
        .json(
            &json!({"name": "Load Arena", "game": game.key(), "format": "arena", "seats": 2,
                      "duration_min": minutes, "starts_in_s": 3600, "enter": false}),
        )
        .send()
        .await?
        .json()
        .await?;
    let id = created["id"]
        .as_str()
        .with_context(|| format!("cannot create the Arena: {created}"))?
        .to_string();
    let totals = Arc::new(ArenaTotals::default());
    let (ready_tx, mut ready_rx) = tokio::sync::mpsc::channel::<()>(args.arena_players.max(1));
    let go = Arc::new(tokio::sync::Notify::new());
    let ramp = Duration::from_millis(args.ramp_ms);
    let think = Duration::from_millis(args.think_ms);
    let mut players = Vec::new();
    for i in 0..args.arena_players {
        let (http, url, id, totals, ready, go) = (
            http.clone(),
            url.clone(),
            id.clone(),
            totals.clone(),
            ready_tx.clone(),
            go.clone(),
        );
        let arrives = ramp * i as u32 / args.arena_players.max(1) as u32;
        players.push(tokio::spawn(async move {
            tokio::time::sleep(arrives).await;
            let seed = (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            if let Err(e) = play(&http, &url, &id, &totals, think, seed, ready, go).await {
                totals.errors.fetch_add(1, Ordering::Relaxed);
                eprintln!("arena player {i}: {e:#}");
            }
        }));
    }
    drop(ready_tx);
    // Everyone in, then the organiser starts it: every player is seated in the first step.
    let mut joined = 0;
    while ready_rx.recv().await.is_some() {
        joined += 1;
    }
    let started = Instant::now();
    let r = http
        .post(format!("{url}/api/tournaments/{id}/start"))
        .header("cookie", &host)
        .send()
        .await?;
    ensure!(
        r.status().is_success(),
        "cannot start the Arena: {}",
        r.status()
    );
    go.notify_waiters();
    let deadline = started + Duration::from_secs(args.seconds);
    tokio::time::sleep_until(deadline.into()).await;
    for p in players {
        p.abort();
        let _ = p.await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let [m50, m99, mmax] = percentiles(&totals.move_us.lock().await).map(|us| us as f64 / 1000.0);
    let [r50, r99, rmax] = percentiles(&totals.reseat_us.lock().await).map(|us| us as f64 / 1000.0);
    println!(
        "arena: {joined} players joined of {} ({}, tables of 2, think time {} ms)",
        args.arena_players,
        game.key(),
        args.think_ms
    );
    println!("duration: {elapsed:.1} s");
    println!("games finished: {}", totals.games.load(Ordering::Relaxed));
    println!("moves: {}", totals.moves.load(Ordering::Relaxed));
    println!("errors: {}", totals.errors.load(Ordering::Relaxed));
    println!("move round trip p50: {m50:.2} ms");
    println!("move round trip p99: {m99:.2} ms");
    println!("move round trip max: {mmax:.2} ms");
    println!(
        "re-seating (a game's end to the next table's `seated`) count: {}",
        totals.reseat_us.lock().await.len()
    );
    println!("re-seating p50: {r50:.0} ms");
    println!("re-seating p99: {r99:.0} ms");
    println!("re-seating max: {rmax:.0} ms");
    Ok(())
}

/// One player: a guest who enters, says it is ready, and plays every table it is seated at.
#[allow(clippy::too_many_arguments)]
async fn play(
    http: &reqwest::Client,
    url: &str,
    id: &str,
    totals: &ArenaTotals,
    think: Duration,
    mut rng: u64,
    ready: tokio::sync::mpsc::Sender<()>,
    go: Arc<tokio::sync::Notify>,
) -> Result<()> {
    let me = http.get(format!("{url}/api/me")).send().await?;
    let cookie = cookie_of(&me)?;
    let r = http
        .post(format!("{url}/api/tournaments/{id}/join"))
        .header("cookie", &cookie)
        .json(&json!({}))
        .send()
        .await?;
    ensure!(r.status().is_success(), "cannot join: {}", r.status());
    let mut req =
        format!("{}/ws?deflate=1", url.replacen("http", "ws", 1)).into_client_request()?;
    req.headers_mut().insert("cookie", cookie.parse()?);
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await?;
    let waiting = go.notified();
    ready.send(()).await?;
    drop(ready);
    waiting.await;
    // When the last game ended (none before the first table).
    let mut ended: Option<Instant> = None;
    // The game being played and its last state (a patch applies to it).
    let mut game: Option<String> = None;
    let mut held: Option<Value> = None;
    let mut sent: Option<(u64, Instant)> = None;
    loop {
        let msg = ws.next().await.context("connection closed")??;
        let Some(v) = decode(msg)? else { continue };
        match v["type"].as_str() {
            Some("tournament") if v["event"] == "seated" => {
                let Some(g) = v["game"].as_str() else {
                    continue;
                };
                if let Some(at) = ended.take() {
                    totals
                        .reseat_us
                        .lock()
                        .await
                        .push(at.elapsed().as_micros() as u64);
                }
                game = Some(g.to_string());
                held = None;
                ws.send(Message::Text(
                    json!({"type": "subscribe", "game": g}).to_string().into(),
                ))
                .await?;
            }
            Some("state") | Some("patch") if game.as_ref().is_some_and(|g| v["game"] == *g) => {
                if v["type"] == "patch" {
                    let state = held.as_mut().context("a patch before any state")?;
                    let ops = v["patch"]
                        .as_array()
                        .context("a patch without operations")?;
                    pyramidion_server::live::patch::apply(state, ops)
                        .map_err(|e| anyhow::anyhow!("{e}"))?;
                    for k in ["state_id", "event", "clock"] {
                        state[k] = v[k].clone();
                    }
                } else {
                    held = Some(v);
                }
                let state = held.as_ref().context("no state")?;
                let state_id = state["state_id"].as_u64().unwrap_or(0);
                if let Some((id, at)) = sent
                    && state_id > id
                {
                    totals
                        .move_us
                        .lock()
                        .await
                        .push(at.elapsed().as_micros() as u64);
                    totals.moves.fetch_add(1, Ordering::Relaxed);
                    sent = None;
                }
                if state["finished"] == true {
                    totals.games.fetch_add(1, Ordering::Relaxed);
                    let g = game.take().unwrap_or_default();
                    ws.send(Message::Text(
                        json!({"type": "unsubscribe", "game": g}).to_string().into(),
                    ))
                    .await?;
                    ended = Some(Instant::now());
                    continue;
                }
                let legal = state["legal"].as_array().cloned().unwrap_or_default();
                if legal.is_empty() || sent.is_some() {
                    continue;
                }
                let m = legal[(xorshift(&mut rng) % legal.len() as u64) as usize]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                if !think.is_zero() {
                    let jitter = (xorshift(&mut rng) >> 11) as f64 / (1u64 << 53) as f64;
                    tokio::time::sleep(think.mul_f64(0.5 + jitter)).await;
                }
                let g = game.clone().unwrap_or_default();
                sent = Some((state_id, Instant::now()));
                ws.send(Message::Text(
                    json!({"type": "move", "game": g, "state_id": state_id, "move": m})
                        .to_string()
                        .into(),
                ))
                .await?;
            }
            Some("error") => bail!("server error: {v}"),
            _ => {}
        }
    }
}

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}
