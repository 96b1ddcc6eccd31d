//! A real server on loopback for tests, and small HTTP / WebSocket clients.
#![allow(dead_code)]
pub mod after_game_scenarios;
pub mod fair_edges_scenarios;
pub mod fair_scenarios;
pub mod paused;
pub mod people_scenarios;
pub mod scenarios;
pub mod social_scenarios;
use futures_util::{SinkExt, StreamExt};
use pyramidion_server::{AppState, Config, http::auth::HashCost, serve_state};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Fails the next `n` commits of the database writer.
#[derive(Default)]
pub struct FailNext(pub std::sync::atomic::AtomicU32);

impl pyramidion_server::db::writer::FaultInjector for FailNext {
    fn fail_commit(&self) -> Option<String> {
        use std::sync::atomic::Ordering::SeqCst;
        self.0
            .fetch_update(SeqCst, SeqCst, |n| n.checked_sub(1))
            .ok()
            .map(|_| "the test fails this commit".into())
    }
}

pub struct TestServer {
    pub base: String,
    pub addr: SocketAddr,
    pub dir: std::path::PathBuf,
    /// The server's state, for tests that look inside (limiters, sweeps).
    pub state: AppState,
}

pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pyramidion-{name}-{}-{}",
        std::process::id(),
        rand_suffix()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn rand_suffix() -> u64 {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).unwrap();
    u64::from_le_bytes(b)
}

pub fn sqlite_url(dir: &std::path::Path) -> String {
    format!("sqlite://{}?mode=rwc", dir.join("test.db").display())
}

/// Starts a server on a free loopback port with cheap password hashing.
pub async fn start(url: String, tweak: impl FnOnce(&mut Config)) -> TestServer {
    let mut config = Config::new(url);
    config.hash_cost = HashCost {
        memory_kib: 64,
        iterations: 1,
    };
    // Bots answer at once: tests play many bot moves (the pace has tests of its own).
    config.bot_pace = Duration::ZERO;
    // Analyses on a tiny budget: the tests check what an analysis holds and when, not how
    // deep it looks (debug builds search slowly).
    config.analysis_game_budget = 2_000;
    // Many tests register accounts from the one loopback address; the registration limit
    // has tests of its own.
    config.limits.registrations_per_ip_per_hour = 10_000;
    tweak(&mut config);
    let state = AppState::new(config).await.expect("server starts");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let serving = state.clone();
    tokio::spawn(async move { serve_state(serving, listener).await.unwrap() });
    TestServer {
        base: format!("http://{addr}"),
        addr,
        dir: std::env::temp_dir(),
        state,
    }
}

pub async fn start_sqlite(name: &str) -> TestServer {
    start_sqlite_with(name, |_| {}).await
}

/// [`start_sqlite`] with a change to the configuration.
pub async fn start_sqlite_with(name: &str, tweak: impl FnOnce(&mut Config)) -> TestServer {
    let dir = temp_dir(name);
    let mut s = start(sqlite_url(&dir), tweak).await;
    s.dir = dir;
    s
}

/// A started two-player Pyramids table between `a`, who creates it, and `b`, who joins: its
/// id.
pub async fn duel_table(a: &mut Client, b: &mut Client) -> String {
    let body = json!({"game": "pyramids", "options": {"players": 2},
                      "seats": [{"type": "me"}, {"type": "open"}]});
    let id = a.post("/api/tables", body).await.body["id"]
        .as_str()
        .unwrap()
        .to_string();
    let joined = b.post(&format!("/api/tables/{id}/join"), json!({})).await;
    assert_eq!(joined.status, 200, "{}", joined.text);
    id
}

/// An HTTP client that keeps its session cookie.
#[derive(Clone)]
pub struct Client {
    pub http: reqwest::Client,
    pub base: String,
    pub cookie: Option<String>,
}

pub struct Reply {
    pub status: u16,
    pub body: Value,
    pub text: String,
}

impl Reply {
    pub fn code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }
}

impl Client {
    pub fn new(server: &TestServer) -> Client {
        Client {
            http: reqwest::Client::new(),
            base: server.base.clone(),
            cookie: None,
        }
    }

    /// A client with a guest identity.
    pub async fn guest(server: &TestServer) -> Client {
        let mut c = Client::new(server);
        let r = c.get("/api/me").await;
        assert_eq!(r.status, 200, "{}", r.text);
        c
    }

    async fn send(&mut self, req: reqwest::RequestBuilder) -> Reply {
        let req = match &self.cookie {
            Some(c) => req.header("cookie", c.clone()),
            None => req,
        };
        let resp = req.send().await.expect("request sent");
        if let Some(set) = resp.headers().get("set-cookie") {
            let pair = set.to_str().unwrap().split(';').next().unwrap().to_string();
            self.cookie = if pair.ends_with('=') {
                None
            } else {
                Some(pair)
            };
        }
        let status = resp.status().as_u16();
        let text = resp.text().await.unwrap();
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        Reply { status, body, text }
    }

    pub async fn get(&mut self, path: &str) -> Reply {
        let req = self.http.get(format!("{}{path}", self.base));
        self.send(req).await
    }

    pub async fn post(&mut self, path: &str, body: Value) -> Reply {
        let req = self.http.post(format!("{}{path}", self.base)).json(&body);
        self.send(req).await
    }

    pub async fn delete(&mut self, path: &str) -> Reply {
        let req = self.http.delete(format!("{}{path}", self.base));
        self.send(req).await
    }

    pub async fn patch(&mut self, path: &str, body: Value) -> Reply {
        let req = self.http.patch(format!("{}{path}", self.base)).json(&body);
        self.send(req).await
    }

    pub async fn put(&mut self, path: &str, body: Value) -> Reply {
        let req = self.http.put(format!("{}{path}", self.base)).json(&body);
        self.send(req).await
    }

    pub async fn post_raw(
        &mut self,
        path: &str,
        body: impl Into<reqwest::Body>,
        content_type: &str,
    ) -> Reply {
        let req = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", content_type)
            .body(body);
        self.send(req).await
    }

    pub async fn create_table(&mut self, game: &str, options: Value, seats: Value) -> Reply {
        self.post(
            "/api/tables",
            json!({ "game": game, "options": options, "seats": seats }),
        )
        .await
    }

    pub async fn socket(&self) -> Socket {
        let url = format!("{}/ws", self.base.replacen("http", "ws", 1));
        let mut req = url.into_client_request().unwrap();
        if let Some(c) = &self.cookie {
            req.headers_mut().insert("cookie", c.parse().unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async(req)
            .await
            .expect("websocket connects");
        Socket {
            ws,
            log: Vec::new(),
            states: Default::default(),
            patches: 0,
        }
    }
}

pub struct Socket {
    pub ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every message received, in order (a `patch` as the `state` it makes).
    pub log: Vec<Value>,
    /// The last state of each game, which the next `patch` applies to.
    pub states: std::collections::HashMap<String, Value>,
    /// `patch` messages received.
    pub patches: usize,
}

/// The `state` that `patch` makes of `base` (the state it names as `from`), as the browser
/// makes it.
pub fn apply_patch(base: &Value, patch: &Value) -> Value {
    pyramidion_server::live::patch::rebuild(base, patch)
        .unwrap_or_else(|e| panic!("a patch applies to the last state: {e}: {patch}"))
}

impl Socket {
    /// A message's text as the client handles it: a `patch` becomes the `state` it makes of
    /// the last state of its game (as the browser does); logged.
    pub fn decode(&mut self, text: &str) -> Value {
        let mut v: Value = serde_json::from_str(text).unwrap();
        if v["type"] == "patch" {
            let game = v["game"].as_str().unwrap().to_string();
            let base = self.states.get(&game).expect("a patch follows a state");
            v = apply_patch(base, &v);
            self.patches += 1;
        }
        if v["type"] == "state" {
            let game = v["game"].as_str().unwrap().to_string();
            self.states.insert(game, v.clone());
        }
        self.log.push(v.clone());
        v
    }

    pub async fn send(&mut self, v: Value) {
        self.ws
            .send(Message::Text(v.to_string().into()))
            .await
            .unwrap();
    }

    pub async fn send_text(&mut self, t: &str) {
        self.ws
            .send(Message::Text(t.to_string().into()))
            .await
            .unwrap();
    }

    pub async fn next(&mut self) -> Value {
        // One deadline for the whole wait: pings and other non-text frames must not restart
        // it, or a stalled game would hang the test instead of failing it.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let msg = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .expect("a message within 20 s")
                .expect("socket open")
                .expect("no socket error");
            if let Message::Text(t) = msg {
                return self.decode(&t);
            }
        }
    }

    /// The next message of type `kind` (others are skipped but logged).
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let v = self.next().await;
            if v["type"] == kind {
                return v;
            }
        }
    }

    /// The next `state` message of `game` at least at `state_id`; an error message fails.
    pub async fn state_at_least(&mut self, game: &str, state_id: u64) -> Value {
        loop {
            let v = self.next().await;
            assert_ne!(
                v["type"], "error",
                "unexpected error while waiting for state {state_id}: {v}"
            );
            if v["type"] == "state"
                && v["game"] == game
                && v["state_id"].as_u64().unwrap() >= state_id
            {
                return v;
            }
        }
    }

    pub async fn subscribe(&mut self, game: &str, last_event: Option<u64>) -> Value {
        self.send(json!({ "type": "subscribe", "game": game, "last_event": last_event }))
            .await;
        self.next_of("state").await
    }

    pub async fn play(&mut self, game: &str, state_id: u64, mv: &str) {
        self.send(json!({ "type": "move", "game": game, "state_id": state_id, "move": mv }))
            .await;
    }

    /// Plays a seeded choice among legal moves whenever it is our turn, until the
    /// game is over; returns the final state.
    pub async fn play_out(&mut self, game: &str, mut state: Value, seed: u64) -> Value {
        let mut rng = seed;
        loop {
            if state["finished"] == true {
                return state;
            }
            let legal = state["legal"].as_array().cloned().unwrap_or_default();
            let id = state["state_id"].as_u64().unwrap();
            if !legal.is_empty() {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = legal[(rng >> 33) as usize % legal.len()]["text"]
                    .as_str()
                    .unwrap()
                    .to_string();
                self.play(game, id, &m).await;
            }
            state = self.state_at_least(game, id + 1).await;
        }
    }
}

/// A solo Forgotten Treasures table against THE Legend, created by `c`; its id.
pub async fn solo_table(c: &mut Client) -> String {
    let t = c
        .create_table(
            "forgotten-treasures",
            json!({"players": 1, "solo": "the-legend"}),
            json!([{"type": "me"}]),
        )
        .await;
    assert_eq!(t.status, 201, "{}", t.text);
    t.body["id"].as_str().unwrap().to_string()
}

/// The value of the counter or gauge `name` on `/metrics`.
pub async fn metric(c: &mut Client, name: &str) -> u64 {
    let r = c.get("/metrics").await;
    r.text
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no {name} in /metrics ({}): {}", r.status, r.text))
        .parse()
        .unwrap()
}
