//! One load-test client: a guest who plays tables of one kind back to back over a WebSocket,
//! as the browser does (deflated messages, states rebuilt from patches), until the deadline.
use super::*;

/// One client: a guest identity, then tables of one kind played back to back until the
/// deadline.
pub(super) struct Client<'a> {
    pub(super) seed: u64,
    pub(super) http: &'a reqwest::Client,
    pub(super) url: &'a str,
    pub(super) deadline: Instant,
    pub(super) think: Duration,
    pub(super) totals: &'a Totals,
    /// After each finished game, ask for its analysis (`--analysing-guests`).
    pub(super) analyse: bool,
    /// The local address to connect from (`--victim-address`); `None`: the system's choice.
    pub(super) local: Option<std::net::IpAddr>,
}

impl Client<'_> {
    /// Plays until the deadline. An `unavailable` answer (the server at a cap) is counted
    /// apart, waited out and the client starts again; any other failure is an error.
    pub(super) async fn play_on(&self, tables: &TableKind, i: usize) {
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
        let (mut ws, _) = match self.connect(req, config).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) if r.status().as_u16() == 503 => {
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
            if self.analyse {
                // Queued (202) or refused at a cap (429, 503): either way the next game's
                // analysis is asked for too, as a guest flooding the queue would.
                let asked = http
                    .post(format!("{url}/api/games/{game}/analysis"))
                    .header("cookie", &cookie)
                    .json(&json!({}))
                    .send()
                    .await?;
                if asked.status().as_u16() == 202 {
                    self.totals.analyses.fetch_add(1, Ordering::Relaxed);
                }
            }
            ws.send(Message::Text(
                json!({"type": "unsubscribe", "game": game})
                    .to_string()
                    .into(),
            ))
            .await?;
        }
        Ok(())
    }

    /// The WebSocket handshake over a TCP connection from [`Client::local`] when there is one.
    async fn connect(
        &self,
        req: tokio_tungstenite::tungstenite::handshake::client::Request,
        config: tokio_tungstenite::tungstenite::protocol::WebSocketConfig,
    ) -> Result<
        (
            tokio_tungstenite::WebSocketStream<
                tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
            >,
            tokio_tungstenite::tungstenite::handshake::client::Response,
        ),
        tokio_tungstenite::tungstenite::Error,
    > {
        let Some(local) = self.local else {
            return tokio_tungstenite::connect_async_with_config(req, Some(config), false).await;
        };
        let uri = req.uri();
        let host = uri.host().unwrap_or("127.0.0.1").trim_matches(['[', ']']);
        let port = uri.port_u16().unwrap_or(80);
        // The server's address of the local one's family (localhost has both).
        let server = tokio::net::lookup_host((host, port))
            .await?
            .find(|a| a.is_ipv4() == local.is_ipv4())
            .ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::AddrNotAvailable,
                    "--url has no address of --victim-address's family",
                )
            })?;
        let socket = match local {
            std::net::IpAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
            std::net::IpAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
        };
        socket.bind((local, 0).into())?;
        let stream = socket.connect(server).await?;
        let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
        tokio_tungstenite::client_async_with_config(req, stream, Some(config)).await
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
                // trip of ours; it may last until the deadline. Its wait is the bots' reply.
                let waiting = Instant::now();
                match next_state(ws, game, state.state_id + 1, &mut held, self.deadline).await? {
                    Some((next, _)) => {
                        state = next;
                        self.totals
                            .bot_waits_us
                            .lock()
                            .await
                            .push(waiting.elapsed().as_micros() as u64);
                    }
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
