//! Real instances of `pyramidion serve` on one PostgreSQL database, and players who reconnect
//! as the browser does (tests/cli/cluster.rs).
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

// The players, as `pyramidion-chaos` plays them: one copy of that code (of which the tests
// use part: not the timings).
#[allow(dead_code)]
#[path = "../../src/chaos/client.rs"]
mod client;
pub use client::*;

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
        Instance::start_at(database, name, "127.0.0.1:0", extra)
    }

    /// Starts instance `name` on `database`, listening on `bind` (an instance restarted on
    /// the port of its predecessor).
    pub fn start_at(database: &str, name: &str, bind: &str, extra: &[&str]) -> Instance {
        Instance::start_with_env(database, name, bind, extra, &[])
    }

    /// As [`Instance::start_at`], with `env` added to the process's environment (libfaketime's
    /// variables for an instance whose clock is off: tests/cli/faults.rs).
    pub fn start_with_env(
        database: &str,
        name: &str,
        bind: &str,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> Instance {
        // Named by database too: the tests of one process each start an `a`.
        let db = database.rsplit('/').next().unwrap_or_default();
        let log = std::env::temp_dir().join(format!(
            "pyramidion-cluster-{}-{db}-{name}.log",
            std::process::id()
        ));
        // A restarted instance logs after its predecessor, in the same file.
        let log_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .expect("a log file");
        // Limits out of the way, unless the test sets one.
        let http_rate = match extra.contains(&"--http-rate") {
            true => &[][..],
            false => &["--http-rate", "100000"][..],
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
            .args(["serve", "--bind", bind, "--database", database])
            .args(["--instance", name, "--ws-rate", "100000"])
            .args(http_rate)
            .args(extra)
            .env("RUST_LOG", "info")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(log_file)
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

/// A port free now on the loopback address, for an instance that is restarted on it.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Instances `names` on `database`, each started with `extra` flags, and their base URLs.
pub fn start_all(database: &str, names: &[&str], extra: &[&str]) -> (Vec<Instance>, Vec<String>) {
    let instances: Vec<Instance> = names
        .iter()
        .map(|n| Instance::start(database, n, extra))
        .collect();
    let bases = instances.iter().map(|i| i.base.clone()).collect();
    (instances, bases)
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// HAProxy, killed when dropped: a test that fails before its end leaves none running.
pub struct Haproxy(pub Child);

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// HAProxy from Debian with deploy/haproxy.cfg in front of `instances`; its base URL.
pub fn proxy(instances: &[&Instance]) -> (Haproxy, String) {
    // The configuration starts every instance down and sends nobody to one before its first
    // good check (`a_proxy_started_with_its_instances_cuts_no_request`), so the order does
    // not matter; these tests start from a cluster already ready all the same, the steady
    // state whose faults they measure.
    for instance in instances {
        wait_ready(&instance.base);
    }
    let addresses: Vec<String> = instances
        .iter()
        .map(|i| i.base.trim_start_matches("http://").to_string())
        .collect();
    let (child, base, _) = proxy_at(&addresses);
    (Haproxy(child), base)
}

/// HAProxy in front of the instances at `addresses` (`host:port`, started or not), with the
/// configuration `deploy/haproxy-cfg` writes for that many instances: the process, its base
/// URL, and the file its log lines (one per request, naming the server) go to.
pub fn proxy_at(addresses: &[String]) -> (Child, String, std::path::PathBuf) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir =
        std::env::temp_dir().join(format!("pyramidion-haproxy-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("haproxy.cfg");
    let state = dir.join("start.state");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/haproxy-cfg");
    let instances: Vec<(String, &String)> = addresses
        .iter()
        .enumerate()
        .map(|(i, a)| (format!("PYRAMIDION_INSTANCE_{}", i + 1), a))
        .collect();
    let made = Command::new(script)
        .arg(addresses.len().to_string())
        .arg(&state)
        .envs(instances.iter().map(|(k, v)| (k, v)))
        .stdout(std::fs::File::create(&config).unwrap())
        .status()
        .expect("deploy/haproxy-cfg runs");
    assert!(made.success(), "deploy/haproxy-cfg failed");
    let log = dir.join("haproxy.log");
    let mut command = Command::new("haproxy");
    command
        .arg("-db")
        .arg("-f")
        .arg(&config)
        .env("PYRAMIDION_PROXY_BIND", format!("127.0.0.1:{port}"))
        .envs(instances.iter().map(|(k, v)| (k, v)));
    let mut child = command
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("haproxy runs (scripts/test installs Debian's haproxy)");
    let base = format!("http://127.0.0.1:{port}");
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return (child, base, log);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!(
        "haproxy does not listen: {}",
        std::fs::read_to_string(&log).unwrap_or_default()
    );
}

/// Waits (30 s at most) until `base` answers `/readyz` with 200.
pub fn wait_ready(base: &str) {
    use std::io::{Read, Write};
    let address = base.trim_start_matches("http://");
    for _ in 0..600 {
        if let Ok(mut stream) = std::net::TcpStream::connect(address) {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
            let asked = stream
                .write_all(format!("GET /readyz HTTP/1.0\r\nHost: {address}\r\n\r\n").as_bytes());
            let mut answer = String::new();
            if asked.is_ok()
                && stream.read_to_string(&mut answer).is_ok()
                && answer.starts_with("HTTP/1.")
                && answer.split(' ').nth(1) == Some("200")
            {
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{base} is not ready after 30 s");
}

/// A connection to the cluster's database, to read what the instances stored.
pub async fn db(database: &str) -> sqlx::PgConnection {
    <sqlx::PgConnection as sqlx::Connection>::connect(database)
        .await
        .expect("PostgreSQL reachable")
}

/// The instance that runs `game` now, by the database.
pub async fn owner(database: &str, game: &str) -> Option<String> {
    let mut c = db(database).await;
    sqlx::query_scalar::<_, String>("SELECT owner FROM game_leases WHERE game_id = $1")
        .bind(game)
        .fetch_optional(&mut c)
        .await
        .unwrap()
}

/// The user id of the session `cookie`.
pub async fn user_id(http: &reqwest::Client, base: &str, cookie: &str) -> String {
    let me: serde_json::Value = http
        .get(format!("{base}/api/me"))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    me["id"].as_str().unwrap().to_string()
}

/// The moves stored for `game`, in order.
pub async fn stored_moves(database: &str, game: &str) -> Vec<String> {
    let mut c = db(database).await;
    sqlx::query_scalar::<_, String>("SELECT text FROM moves WHERE game_id = $1 ORDER BY ply")
        .bind(game)
        .fetch_all(&mut c)
        .await
        .unwrap()
}

/// Two guests through `base` at a started two-player table of `game` (one creates it, the
/// other joins): their cookies and the game's id.
pub async fn two_guests_at_a_table(
    http: &reqwest::Client,
    base: &str,
    game: &str,
) -> (String, String, String) {
    two_guests_at(
        http,
        [base, base],
        serde_json::json!({"game": game, "options": {"players": 2}}),
    )
    .await
}

/// Two guests at a started two-player table of `spec` (a table's body but its seats: `game`,
/// `options`, `clock`…): one creates it through `bases[0]`, the other joins through
/// `bases[1]`. Their cookies and the game's id.
pub async fn two_guests_at(
    http: &reqwest::Client,
    bases: [&str; 2],
    mut spec: serde_json::Value,
) -> (String, String, String) {
    let alice = guest(http, bases[0]).await.unwrap();
    let bob = guest(http, bases[1]).await.unwrap();
    spec["seats"] = serde_json::json!([{"type": "me"}, {"type": "open"}]);
    let table = post(http, format!("{}/api/tables", bases[0]), &alice, spec)
        .await
        .unwrap();
    let id = table["id"].as_str().unwrap().to_string();
    post(
        http,
        format!("{}/api/tables/{id}/join", bases[1]),
        &bob,
        serde_json::json!({}),
    )
    .await
    .unwrap();
    (alice, bob, id)
}

/// A guest through `base` at a table of `spec` (a table's body) that starts at once (a solo
/// game, or bots in the other seats): their cookie and the game's id.
pub async fn guest_game(
    http: &reqwest::Client,
    base: &str,
    spec: serde_json::Value,
) -> (String, String) {
    let me = guest(http, base).await.unwrap();
    let table = post(http, format!("{base}/api/tables"), &me, spec)
        .await
        .unwrap();
    (me, table["id"].as_str().unwrap().to_string())
}

/// An account `name` registered through `base`: its session cookie.
pub async fn account(http: &reqwest::Client, base: &str, name: &str) -> String {
    let r = http
        .post(format!("{base}/api/register"))
        .json(&serde_json::json!({"name": name, "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "register {name}: {}", r.status());
    r.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

/// Plays `duel` on at a person's pace (a move every 200 ms: a two-player Forgotten Treasures
/// game of ~140 plies outlasts three restarts of a few seconds each, on a loaded machine too)
/// while `restart` (a thread stopping an instance and starting it again) runs, then `after`
/// moves more; what the thread returned, and the longest gap between two moves
/// acknowledged since the restart began (counted from the move before it).
pub async fn play_through<T>(
    duel: &mut Duel,
    bases: &[String],
    restart: std::thread::JoinHandle<T>,
    after: usize,
) -> (T, Duration) {
    let from = duel.acknowledged.len();
    let mut played_after = 0;
    while played_after < after {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let stop = duel.ply + 1;
        assert!(
            !duel.play_until(Some(stop), bases, &[]).await.unwrap(),
            "the game outlasts the restarts"
        );
        if restart.is_finished() {
            played_after += 1;
        }
    }
    let gap = duel.acknowledged[from.saturating_sub(1)..]
        .windows(2)
        .map(|w| w[1].acknowledged - w[0].acknowledged)
        .max()
        .unwrap_or_default();
    (restart.join().unwrap(), gap)
}

/// A guest through `base` at a solo Forgotten Treasures game against THE Legend (started at
/// once): their cookie and the game's id.
pub async fn solo_game(http: &reqwest::Client, base: &str) -> (String, String) {
    guest_game(
        http,
        base,
        serde_json::json!({"game": "forgotten-treasures",
                           "options": {"players": 1, "solo": "the-legend"},
                           "seats": [{"type": "me"}]}),
    )
    .await
}

/// `player` plays the first legal move `moves` times from `state`; the state after them.
pub async fn play_first_moves(
    player: &mut Player,
    mut state: serde_json::Value,
    moves: usize,
    bases: &[String],
) -> serde_json::Value {
    for _ in 0..moves {
        let id = state["state_id"].as_u64().unwrap();
        let text = state["legal"][0]["text"].as_str().unwrap().to_string();
        player.send_move(id, &text).await;
        state = player.state(id + 1, bases, &[]).await.unwrap();
    }
    state
}
