//! Real instances of `pyramidion serve` on one PostgreSQL database, and players who reconnect
//! as the browser does (tests/cli/cluster.rs).
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A fresh database `name` (which must end in `_test`) on the server of
/// `PYRAMIDION_TEST_POSTGRES`; its URL.
pub async fn fresh_database(name: &str) -> String {
    assert!(name.ends_with("_test"));
    let url = std::env::var("PYRAMIDION_TEST_POSTGRES").expect(
        "PYRAMIDION_TEST_POSTGRES is not set: run the tests with scripts/test, which starts \
         PostgreSQL (its role needs CREATEDB: the cluster tests create their own database)",
    );
    let (server, _) = url.rsplit_once('/').expect("a database URL");
    let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&url)
        .await
        .expect("PostgreSQL reachable");
    for stmt in [
        format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        format!("CREATE DATABASE {name}"),
    ] {
        sqlx::raw_sql(sqlx::AssertSqlSafe(stmt))
            .execute(&mut admin)
            .await
            .expect("the test role may create databases");
    }
    format!("{server}/{name}")
}

pub struct Instance {
    pub name: String,
    pub base: String,
    pub child: Child,
    pub log: std::path::PathBuf,
}

impl Instance {
    /// Starts instance `name` on `database`, listening on a free port.
    pub fn start(database: &str, name: &str, extra: &[&str]) -> Instance {
        // Named by database too: the tests of one process each start an `a`.
        let db = database.rsplit('/').next().unwrap_or_default();
        let log = std::env::temp_dir().join(format!(
            "pyramidion-cluster-{}-{db}-{name}.log",
            std::process::id()
        ));
        let mut child = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
            .args(["serve", "--bind", "127.0.0.1:0", "--database", database])
            .args([
                "--instance",
                name,
                "--ws-rate",
                "100000",
                "--http-rate",
                "100000",
            ])
            .args(extra)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("a log file"))
            .spawn()
            .expect("server starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .trim()
            .rsplit(' ')
            .next()
            .unwrap_or_default()
            .to_string();
        assert!(
            base.starts_with("http://127.0.0.1:"),
            "instance {name} did not start: {line}\n{}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        Instance {
            name: name.to_string(),
            base,
            child,
            log,
        }
    }

    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    }

    /// Stops the process (SIGSTOP) and waits until every thread of it is stopped: the signal
    /// is delivered asynchronously, and a thread still running could take a message in.
    pub fn pause(&self) {
        self.signal("-STOP");
        let stat = format!("/proc/{}/stat", self.child.id());
        for _ in 0..1000 {
            let threads = std::fs::read_dir(format!("/proc/{}/task", self.child.id()))
                .map(|d| {
                    d.filter_map(Result::ok)
                        .map(|t| std::fs::read_to_string(t.path().join("stat")).unwrap_or_default())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default();
            let stopped = |s: &String| {
                s.rsplit_once(") ")
                    .is_some_and(|(_, rest)| rest.starts_with('T'))
            };
            if !threads.is_empty() && threads.iter().all(stopped) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("{stat}: the process did not stop");
    }

    pub fn kill(&mut self) {
        self.child.kill().unwrap(); // SIGKILL
        self.child.wait().unwrap();
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A guest's session cookie, made on `base`.
pub async fn guest(http: &reqwest::Client, base: &str) -> String {
    let me = http.get(format!("{base}/api/me")).send().await.unwrap();
    me.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

pub async fn post(http: &reqwest::Client, url: String, cookie: &str, body: Value) -> Value {
    let r = http
        .post(url)
        .header("cookie", cookie)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status();
    let v: Value = r.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{status}: {v}");
    v
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
}

async fn connect(base: &str, cookie: &str) -> Option<Socket> {
    let mut req = format!("{}/ws", base.replacen("http", "ws", 1))
        .into_client_request()
        .unwrap();
    req.headers_mut().insert("cookie", cookie.parse().unwrap());
    tokio_tungstenite::connect_async(req)
        .await
        .ok()
        .map(|c| c.0)
}

impl Player {
    pub async fn join(cookie: String, game: &str, bases: &[String], on: usize) -> Player {
        let mut p = Player {
            cookie,
            game: game.to_string(),
            socket: None,
            on,
            last_event: None,
            resumed: 0,
            latest: None,
        };
        p.reconnect(bases, &[]).await;
        p
    }

    /// Connects to the first instance from `self.on` on that is not `dead`, and subscribes.
    async fn reconnect(&mut self, bases: &[String], dead: &[usize]) {
        for k in 0..bases.len() * 20 {
            let i = (self.on + k) % bases.len();
            if dead.contains(&i) {
                continue;
            }
            if let Some(socket) = connect(&bases[i], &self.cookie).await {
                self.socket = Some(socket);
                self.on = i;
                self.subscribe().await;
                return;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        panic!("no instance takes a connection");
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
    pub async fn state(&mut self, at_least: u64, bases: &[String], dead: &[usize]) -> Value {
        if let Some(latest) = &self.latest
            && latest["state_id"].as_u64() >= Some(at_least)
        {
            return latest.clone();
        }
        // Pings keep a socket busy: the wait is bounded as a whole, not per message.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let mut resynced = false;
        loop {
            let next = match self.socket.as_mut() {
                Some(s) => tokio::time::timeout_at(deadline, s.next())
                    .await
                    .expect("the game's state within 60 s"),
                None => None,
            };
            let text = match next {
                Some(Ok(Message::Text(t))) => t,
                Some(Ok(_)) => continue,
                // Closed (the instance died or drains): as the browser, connect again.
                None | Some(Err(_)) => {
                    self.resumed += 1;
                    self.socket = None;
                    self.reconnect(bases, dead).await;
                    resynced = true;
                    continue;
                }
            };
            let v: Value = serde_json::from_str(&text).unwrap();
            match v["type"].as_str() {
                Some("state") if v["game"] == self.game.as_str() => {
                    let id = v["state_id"].as_u64().unwrap();
                    self.last_event = Some(id);
                    self.latest = Some(v.clone());
                    if id >= at_least || resynced {
                        return v;
                    }
                }
                Some("error") => match v["code"].as_str() {
                    Some("lagging") | Some("unavailable") => {
                        self.resumed += 1;
                        resynced = true;
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        self.subscribe().await;
                    }
                    // A move that met a change of owner was not played: the state says so.
                    Some("internal") | Some("stale_state") | Some("not_your_turn") => {}
                    _ => panic!("unexpected error: {v}"),
                },
                _ => {}
            }
        }
    }
}

/// Two people playing one game, each through their own socket.
pub struct Duel {
    pub players: [Player; 2],
    /// (ply, move) of every move whose player saw the next state.
    pub acknowledged: Vec<(u64, String)>,
    pub ply: u64,
}

impl Duel {
    /// Plays first legal moves until the game is at `stop` moves (or over); whether it is over.
    pub async fn play_until(
        &mut self,
        stop: Option<u64>,
        bases: &[String],
        dead: &[usize],
    ) -> bool {
        loop {
            let states = [
                self.players[0].state(self.ply, bases, dead).await,
                self.players[1].state(self.ply, bases, dead).await,
            ];
            let newest = states
                .iter()
                .map(|s| s["state_id"].as_u64().unwrap())
                .max()
                .unwrap();
            if newest > self.ply {
                self.ply = newest;
                continue;
            }
            if states.iter().any(|s| s["finished"] == true) {
                return true;
            }
            if stop.is_some_and(|s| self.ply >= s) {
                return false;
            }
            let mover = (0..2)
                .find(|&p| !states[p]["legal"].as_array().unwrap().is_empty())
                .expect("someone is to move in a game between two people");
            let text = states[mover]["legal"][0]["text"]
                .as_str()
                .unwrap()
                .to_string();
            self.players[mover].send_move(self.ply, &text).await;
            let after = self.players[mover].state(self.ply + 1, bases, dead).await;
            if after["last_move"]["ply"].as_u64() == Some(self.ply) {
                self.acknowledged.push((self.ply, text));
            }
        }
    }
}

/// HAProxy from Debian with deploy/haproxy.cfg in front of `instances`; its base URL.
pub fn proxy(instances: &[&Instance]) -> (Child, String) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/haproxy.cfg");
    let mut command = Command::new("haproxy");
    command
        .args(["-db", "-f", config])
        .env("PYRAMIDION_PROXY_BIND", format!("127.0.0.1:{port}"));
    for (i, instance) in instances.iter().enumerate() {
        command.env(
            format!("PYRAMIDION_INSTANCE_{}", i + 1),
            instance.base.trim_start_matches("http://"),
        );
    }
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("haproxy runs (scripts/test installs Debian's haproxy)");
    let base = format!("http://127.0.0.1:{port}");
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return (child, base);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("haproxy does not listen");
}
