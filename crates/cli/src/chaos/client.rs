//! A player as the browser plays, over a WebSocket that may close under it: it reconnects and
//! subscribes again with its last event. One copy for `pyramidion-chaos` and the cluster tests
//! (tests/cli/cluster_support.rs includes this file).
use anyhow::{Context, Result, anyhow, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A guest's session cookie, made on `base`.
pub async fn guest(http: &reqwest::Client, base: &str) -> Result<String> {
    let me = http.get(format!("{base}/api/me")).send().await?;
    let cookie = me
        .headers()
        .get("set-cookie")
        .ok_or_else(|| anyhow!("no session cookie from {base}/api/me ({})", me.status()))?
        .to_str()?;
    Ok(cookie.split(';').next().unwrap_or_default().to_string())
}

/// POSTs `body` as the holder of `cookie`; the JSON answer of a success.
pub async fn post(http: &reqwest::Client, url: String, cookie: &str, body: Value) -> Result<Value> {
    let r = http
        .post(&url)
        .header("cookie", cookie)
        .json(&body)
        .send()
        .await?;
    let status = r.status();
    let v: Value = r.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("POST {url}: {status}: {v}");
    }
    Ok(v)
}

/// A player as the browser plays: one socket to one instance, reconnected to another when
/// it closes, subscribing again with its last event when told it no longer follows.
pub struct Player {
    pub cookie: String,
    pub game: String,
    pub socket: Option<Socket>,
    /// Index of the instance the socket is connected to.
    pub on: usize,
    pub last_event: Option<u64>,
    /// Reconnections and resubscriptions made.
    pub resumed: u32,
    /// The last state seen.
    pub latest: Option<Value>,
    /// Bytes of WebSocket text and binary message payloads received so far.
    pub received: u64,
}

async fn connect(base: &str, cookie: &str) -> Option<Socket> {
    let mut req = format!("{}/ws", base.replacen("http", "ws", 1))
        .into_client_request()
        .ok()?;
    req.headers_mut().insert("cookie", cookie.parse().ok()?);
    tokio_tungstenite::connect_async(req)
        .await
        .ok()
        .map(|c| c.0)
}

impl Player {
    pub async fn join(cookie: String, game: &str, bases: &[String], on: usize) -> Result<Player> {
        let mut p = Player {
            cookie,
            game: game.to_string(),
            socket: None,
            on,
            last_event: None,
            resumed: 0,
            latest: None,
            received: 0,
        };
        p.reconnect(bases, &[]).await?;
        Ok(p)
    }

    /// Connects to the first instance from `self.on` on that is not `dead`, and subscribes.
    /// Tries for 20 s: behind a proxy, every instance may be restarting at once.
    async fn reconnect(&mut self, bases: &[String], dead: &[usize]) -> Result<()> {
        for k in 0..100 {
            let i = (self.on + k) % bases.len();
            if dead.contains(&i) {
                continue;
            }
            if let Some(socket) = connect(&bases[i], &self.cookie).await {
                self.socket = Some(socket);
                self.on = i;
                self.subscribe().await;
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        bail!("no instance takes a connection")
    }

    async fn subscribe(&mut self) {
        let msg = json!({"type": "subscribe", "game": self.game, "last_event": self.last_event});
        if let Some(s) = self.socket.as_mut() {
            let _ = s.send(Message::Text(msg.to_string().into())).await;
        }
    }

    pub async fn send_move(&mut self, state_id: u64, text: &str) {
        let msg = json!({"type": "move", "game": self.game, "state_id": state_id, "move": text});
        if let Some(s) = self.socket.as_mut() {
            let _ = s.send(Message::Text(msg.to_string().into())).await;
        }
    }

    /// The game's state at `at_least` or later (the latest one seen, if it is), reading,
    /// reconnecting and resubscribing as needed; or, after a resubscription, whatever state
    /// it brings (a move in flight when the game changed instance may not have been played).
    pub async fn state(
        &mut self,
        at_least: u64,
        bases: &[String],
        dead: &[usize],
    ) -> Result<Value> {
        if let Some(latest) = &self.latest
            && latest["state_id"].as_u64() >= Some(at_least)
        {
            return Ok(latest.clone());
        }
        // Pings keep a socket busy: the wait is bounded as a whole, not per message.
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut resynced = false;
        loop {
            let next = match self.socket.as_mut() {
                Some(s) => tokio::time::timeout_at(deadline, s.next())
                    .await
                    .map_err(|_| anyhow!("no state of game {} within 60 s", self.game))?,
                None => None,
            };
            if let Some(Ok(m @ (Message::Text(_) | Message::Binary(_)))) = &next {
                self.received += m.len() as u64;
            }
            let text = match next {
                Some(Ok(Message::Text(t))) => t,
                Some(Ok(_)) => continue,
                // Closed (the instance died or drains): as the browser, connect again.
                None | Some(Err(_)) => {
                    self.resumed += 1;
                    self.socket = None;
                    self.reconnect(bases, dead).await?;
                    resynced = true;
                    continue;
                }
            };
            let mut v: Value = serde_json::from_str(&text).context("a JSON message")?;
            // A `patch` is the next state made from the last one, as the browser makes it; one
            // that does not apply (a gap) is answered as the browser does: subscribe again.
            if v["type"] == "patch" && v["game"] == self.game.as_str() {
                match self
                    .latest
                    .as_ref()
                    .map(|base| pyramidion_server::live::patch::rebuild(base, &v))
                {
                    Some(Ok(state)) => v = state,
                    _ => {
                        self.resumed += 1;
                        resynced = true;
                        self.subscribe().await;
                        continue;
                    }
                }
            }
            match v["type"].as_str() {
                Some("state") if v["game"] == self.game.as_str() => {
                    let id = v["state_id"]
                        .as_u64()
                        .ok_or_else(|| anyhow!("a state without state_id: {v}"))?;
                    // The ply: the state id also counts undos (docs/protocol.md).
                    self.last_event = v["event"].as_u64().or(Some(id));
                    self.latest = Some(v.clone());
                    if id >= at_least || resynced {
                        return Ok(v);
                    }
                }
                Some("error") => match v["code"].as_str() {
                    // `internal`: the move could not be saved (the database out of reach) and
                    // was not played, and no state follows: a person sees the board unchanged
                    // and plays again, so the player reads the state again and the duel
                    // sends its move again.
                    Some("lagging") | Some("unavailable") | Some("internal") => {
                        self.resumed += 1;
                        resynced = true;
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        self.subscribe().await;
                    }
                    // A move that met a change of owner was not played: the state says so.
                    Some("stale_state") | Some("not_your_turn") => {}
                    _ => bail!("unexpected error: {v}"),
                },
                _ => {}
            }
        }
    }
}

/// A move whose player saw the next state.
#[derive(Clone, Debug)]
pub struct Ack {
    pub ply: u64,
    pub text: String,
    /// When the player first sent a move at this point (again after a change of owner).
    pub sent: Instant,
    pub acknowledged: Instant,
    /// Bytes the mover's connection received from its move to the state that acknowledged it.
    pub bytes: u64,
}

/// Two people playing one game, each through their own socket.
pub struct Duel {
    pub players: [Player; 2],
    pub acknowledged: Vec<Ack>,
    pub ply: u64,
    /// Which legal move is played: the first one without a seed, else one drawn from the
    /// seed and the ply.
    pub seed: Option<u64>,
    /// Since when a move at `ply` has been waiting for its acknowledgement.
    waiting: Option<(u64, Instant)>,
}

/// SplitMix64: a seeded choice needs no generator crate.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Duel {
    pub fn new(players: [Player; 2], seed: Option<u64>) -> Duel {
        Duel {
            players,
            acknowledged: Vec::new(),
            ply: 0,
            seed,
            waiting: None,
        }
    }

    /// Plays legal moves until the game is at `stop` moves (or over); whether it is over.
    pub async fn play_until(
        &mut self,
        stop: Option<u64>,
        bases: &[String],
        dead: &[usize],
    ) -> Result<bool> {
        loop {
            let states = [
                self.players[0].state(self.ply, bases, dead).await?,
                self.players[1].state(self.ply, bases, dead).await?,
            ];
            let newest = states
                .iter()
                .filter_map(|s| s["state_id"].as_u64())
                .max()
                .unwrap_or_default();
            if newest > self.ply {
                self.ply = newest;
                continue;
            }
            if states.iter().any(|s| s["finished"] == true) {
                return Ok(true);
            }
            if stop.is_some_and(|s| self.ply >= s) {
                return Ok(false);
            }
            let legal = |p: usize| states[p]["legal"].as_array().filter(|l| !l.is_empty());
            let mover = (0..2)
                .find(|&p| legal(p).is_some())
                .ok_or_else(|| anyhow!("nobody to move at {}: {}", self.ply, states[0]))?;
            let moves = legal(mover).map(Vec::as_slice).unwrap_or_default();
            let pick = match self.seed {
                None => 0,
                Some(seed) => (mix(seed ^ mix(self.ply)) % moves.len() as u64) as usize,
            };
            let text = moves[pick]["text"].as_str().unwrap_or_default().to_string();
            let since = match self.waiting {
                Some((ply, since)) if ply == self.ply => since,
                _ => Instant::now(),
            };
            self.waiting = Some((self.ply, since));
            let before = self.players[mover].received;
            self.players[mover].send_move(self.ply, &text).await;
            let after = self.players[mover].state(self.ply + 1, bases, dead).await?;
            if after["last_move"]["ply"].as_u64() == Some(self.ply) {
                self.acknowledged.push(Ack {
                    ply: self.ply,
                    text,
                    sent: since,
                    acknowledged: Instant::now(),
                    bytes: self.players[mover].received - before,
                });
                self.waiting = None;
            }
        }
    }
}
