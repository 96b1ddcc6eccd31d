//! The load tool against the real server: it plays, counts and refuses non-loopback targets.
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// A server on a free loopback port and a fresh data directory, with extra `serve` flags.
struct Server {
    process: std::process::Child,
    dir: std::path::PathBuf,
    url: String,
}

impl Server {
    fn start(name: &str, flags: &[&str]) -> Server {
        let dir = std::env::temp_dir().join(format!("pyramidion-{name}-{}", std::process::id()));
        let mut process = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
            // Every player is on the one loopback address, whose WebSockets share one budget.
            .args(["serve", "--bind", "127.0.0.1:0", "--http-rate", "1000"])
            .args(["--ws-rate", "100000"])
            .args(flags)
            .arg("--data-dir")
            .arg(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(process.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line.trim().rsplit(' ').next().unwrap().to_string();
        Server { process, dir, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The number after `name: ` in the loadtest's report.
fn figure(report: &str, name: &str) -> u64 {
    report
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}: ")))
        .unwrap_or_else(|| panic!("no '{name}' in {report}"))
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn loadtest_plays_games_without_errors() {
    let server = Server::start("load", &[]);
    let url = server.url.clone();
    let out = Command::new(env!("CARGO_BIN_EXE_pyramidion-loadtest"))
        .args(["--url", &url, "--games", "8", "--seconds", "2"])
        .output()
        .unwrap();
    drop(server);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("errors: 0"), "{text}");
    assert!(figure(&text, "moves") > 50, "{text}");
    assert!(text.contains("move round trip p99: "), "{text}");
    let refused = Command::new(env!("CARGO_BIN_EXE_pyramidion-loadtest"))
        .args([
            "--url",
            "http://10.0.0.1:80",
            "--games",
            "1",
            "--seconds",
            "1",
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("only targets loopback"));
}

/// Games against bots next to the solo games: the client holds one seat, bots the other,
/// both kinds are played and reported apart, and a level no game has is refused.
#[test]
fn loadtest_plays_games_against_bots_next_to_solo_games() {
    // Unpaced bots, as a load test runs them: the pool thinks all the time.
    let server = Server::start("load-bots", &["--bot-pace-ms", "0"]);
    let out = Command::new(env!("CARGO_BIN_EXE_pyramidion-loadtest"))
        // Long enough for a bot move even when the machine is loaded (3 s saw none once, with
        // two matches and the rest of the tests sharing the two cores).
        .args(["--url", &server.url, "--seconds", "8"])
        .args(["--games", "2", "--bot-games", "2", "--bot-level", "easy"])
        // Under the server's per-connection message rate however fast the machine.
        .args(["--think-ms", "20"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(figure(&text, "errors"), 0, "{text}");
    assert_eq!(figure(&text, "bot games' errors"), 0, "{text}");
    assert!(figure(&text, "moves") > 0, "{text}");
    assert!(figure(&text, "bot games' client moves") > 0, "{text}");
    assert!(figure(&text, "bot games' bot moves") > 0, "{text}");
    assert!(text.contains("bot games' move round trip p99: "), "{text}");
    let refused = Command::new(env!("CARGO_BIN_EXE_pyramidion-loadtest"))
        .args(["--url", &server.url, "--seconds", "1"])
        .args([
            "--games",
            "1",
            "--bot-games",
            "1",
            "--bot-level",
            "grandmaster",
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr)
            .contains("no registered game has the bot level 'grandmaster'"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}

/// Issue 54: `--analysing-guests` plays games against greedy bots and asks for each finished
/// game's analysis, which the server queues, next to a victim's game played from another
/// loopback address (`--victim-address`: its own group in the bot pool's shares).
#[test]
fn loadtest_guests_ask_for_analyses_next_to_a_victim() {
    let server = Server::start(
        "load-analyses",
        &["--bot-pace-ms", "0", "--analyses-per-address", "64"],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_pyramidion-loadtest"))
        .args(["--url", &server.url, "--seconds", "10"])
        .args(["--games", "0", "--analysing-guests", "2"])
        .args(["--victim-level", "easy", "--think-ms", "20"])
        .args(["--victim-address", "127.0.0.2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(figure(&text, "analysing guests"), 2, "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("analysing guests: "))
        .unwrap();
    let queued: u64 = line
        .split(", ")
        .find_map(|part| part.strip_suffix(" analyses queued (the others refused at a cap)"))
        .unwrap_or_else(|| panic!("{line}"))
        .parse()
        .unwrap();
    assert!(queued > 0, "{text}");
    assert!(line.ends_with("errors 0"), "{text}");
    let victim = text
        .lines()
        .find(|l| l.starts_with("victim (one game against level easy): "))
        .unwrap_or_else(|| panic!("{text}"));
    let replies: u64 = victim
        .trim_start_matches("victim (one game against level easy): ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(replies > 0 && victim.ends_with("errors 0"), "{victim}");
}

/// The binary operators deploy has no load generator in it.
#[test]
fn the_server_binary_has_no_loadtest_command() {
    let out = Command::new(env!("CARGO_BIN_EXE_pyramidion"))
        .args(["loadtest", "--help"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("unrecognized subcommand"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
