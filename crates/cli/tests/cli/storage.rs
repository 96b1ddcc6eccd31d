//! `pyramidion serve` and its data directory: a second server on the same directory, a corrupt
//! database and a read-only directory each end the process at once with a clear error, before
//! it says "serving".
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

fn data_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pyramidion-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn serve_args(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pyramidion"));
    c.args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(dir);
    c
}

/// A server that runs until dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(dir: &Path) -> Running {
    start_command(serve_args(dir))
}

/// Starts `command` (a `serve`) and waits until it says it is serving.
fn start_command(mut command: Command) -> Running {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("serving on http://"), "{line}");
    Running(child)
}

/// Runs a server that must refuse to start.
fn refused(mut command: Command) -> (String, String) {
    let o: Output = command.output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert!(!o.status.success(), "started: {out} {err}");
    assert!(!out.contains("serving"), "said serving: {out}");
    (out, err)
}

#[test]
fn a_second_server_on_one_data_directory_refuses() {
    let dir = data_dir("two-servers");
    let first = start(&dir);
    let (_, err) = refused(serve_args(&dir));
    assert!(
        err.contains("is in use by another Pyramidion server"),
        "{err}"
    );
    // Once the first is gone, the directory is free again.
    drop(first);
    drop(start(&dir));
}

#[test]
fn a_second_server_on_one_sqlite_database_url_refuses() {
    let dir = data_dir("two-servers-url");
    let url = format!("sqlite://{}?mode=rwc", dir.join("games.db").display());
    let with_url = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_pyramidion"));
        c.args(["serve", "--bind", "127.0.0.1:0", "--database", &url]);
        c
    };
    let first = start_command(with_url());
    let (_, err) = refused(with_url());
    assert!(
        err.contains("is in use by another Pyramidion server"),
        "{err}"
    );
    drop(first);
}

/// The data directory's database named by URL (even by a roundabout path) is the same
/// database: it takes the same lock, both ways round.
#[test]
fn a_database_url_naming_the_data_directorys_file_takes_the_same_lock() {
    let dir = data_dir("same-file");
    let by_url = |path: String| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_pyramidion"));
        c.args(["serve", "--bind", "127.0.0.1:0", "--database"])
            .arg(format!("sqlite://{path}?mode=rwc"));
        c
    };
    let plain = dir.join("pyramidion.db").display().to_string();
    let roundabout = dir
        .join("..")
        .join(dir.file_name().unwrap())
        .join("pyramidion.db")
        .display()
        .to_string();
    let first = start(&dir);
    for path in [plain.clone(), roundabout] {
        let (_, err) = refused(by_url(path));
        assert!(
            err.contains("is in use by another Pyramidion server"),
            "{err}"
        );
    }
    drop(first);
    let first = start_command(by_url(plain));
    let (_, err) = refused(serve_args(&dir));
    assert!(
        err.contains("is in use by another Pyramidion server"),
        "{err}"
    );
    drop(first);
}

/// A `serve` whose hard open-file limit is 1024 (set by the shell that starts it).
fn serve_with_few_files(dir: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg("ulimit -Sn 1024 && ulimit -Hn 1024 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_pyramidion"))
        .args(["serve", "--bind", "127.0.0.1:0", "--data-dir"])
        .arg(dir)
        .args(extra);
    c
}

/// Every connection is an open file: a default the limit cannot hold is lowered (the server
/// starts), a cap asked for that it cannot hold refuses to start.
#[test]
fn the_open_file_limit_bounds_the_connections() {
    let dir = data_dir("few-files");
    drop(start_command(serve_with_few_files(&dir, &[])));
    let (_, err) = refused(serve_with_few_files(&dir, &["--max-connections", "4096"]));
    assert!(
        err.contains(
            "--max-connections 4096 needs about 4352 open files, but this process may open 1024"
        ),
        "{err}"
    );
    drop(start_command(serve_with_few_files(
        &dir,
        &["--max-connections", "500"],
    )));
}

#[test]
fn a_corrupt_database_ends_the_server_at_once() {
    let dir = data_dir("corrupt");
    std::fs::write(dir.join("pyramidion.db"), vec![b'x'; 8192]).unwrap();
    let (_, err) = refused(serve_args(&dir));
    assert!(err.contains("file is not a database"), "{err}");
    assert!(err.contains("cannot open the storage"), "{err}");
}

/// Unmounts the test's tmpfs, also when the test fails.
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

#[test]
#[cfg_attr(
    not(feature = "root-tests"),
    ignore = "mounts a read-only tmpfs: needs root, run by scripts/test"
)]
fn a_read_only_data_directory_ends_the_server_at_once() {
    let dir = data_dir("read-only");
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=8m", "tmpfs"])
        .arg(&dir)
        .status();
    assert!(
        matches!(mounted, Ok(s) if s.success()),
        "this test mounts a tmpfs and makes it read-only: run it as root on a machine that \
         allows `mount -t tmpfs` ({mounted:?})"
    );
    let _unmount = Mounted(dir.clone());
    drop(start(&dir)); // creates the database
    let ro = Command::new("mount")
        .args(["-o", "remount,ro"])
        .arg(&dir)
        .status()
        .unwrap();
    assert!(ro.success());
    let (_, err) = refused(serve_args(&dir));
    assert!(err.contains("Read-only file system"), "{err}");
    // Named by URL, the database's own lock file (beside it) cannot be made either.
    let mut command = Command::new(env!("CARGO_BIN_EXE_pyramidion"));
    command
        .args(["serve", "--bind", "127.0.0.1:0", "--database"])
        .arg(format!(
            "sqlite://{}?mode=rwc",
            dir.join("pyramidion.db").display()
        ));
    let (_, err) = refused(command);
    assert!(
        err.contains("pyramidion.db.lock") && err.contains("Read-only file system"),
        "{err}"
    );
}

/// Issue 53: logs written to a file (not a terminal) are plain lines, with no ANSI colour
/// codes, even without `NO_COLOR`.
#[test]
fn logs_to_a_file_are_plain_lines() {
    let dir = data_dir("plain-logs");
    let log = dir.join("serve.log");
    let mut command = serve_args(&dir);
    command
        .env_remove("NO_COLOR")
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&log).unwrap());
    let mut child = command.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("serving on http://"), "{line}");
    let running = Running(child);
    // The games are resumed once it serves: wait for that line.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut text = String::new();
    while !text.contains("unfinished games resumed") && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
        text = std::fs::read_to_string(&log).unwrap();
    }
    drop(running);
    assert!(text.contains("INFO"), "some log lines: {text}");
    assert!(!text.contains('\u{1b}'), "no escape codes: {text:?}");
}

/// `--metrics-allow` takes CIDR networks (or addresses); anything else is refused at start.
#[test]
fn a_bad_metrics_allow_network_is_refused() {
    let dir = data_dir("metrics-allow-flag");
    let mut command = serve_args(&dir);
    command.args(["--metrics-allow", "10.0.0.0/8,not-a-network"]);
    let (_, err) = refused(command);
    assert!(
        err.contains("--metrics-allow") && err.contains("not-a-network"),
        "{err}"
    );
}

/// Issue 54: `--metrics-listen` serves `/metrics` on a listener of its own, which `serve`
/// names after the public one; the public port answers `/metrics` with `404`.
#[test]
fn metrics_listen_serves_the_metrics_apart() {
    use std::io::{Read, Write};
    let dir = data_dir("metrics-listen-flag");
    let mut command = serve_args(&dir);
    command.args(["--metrics-listen", "127.0.0.1:0"]);
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let running = Running(child);
    let mut next_url = |what: &str| {
        let line = lines.next().unwrap().unwrap();
        assert!(line.contains(what), "{line}");
        let url = line.rsplit("http://").next().unwrap();
        url.split('/').next().unwrap().to_string()
    };
    let public = next_url("serving on http://");
    let apart = next_url("/metrics is served on http://");
    let get = |addr: &str| {
        let mut c = std::net::TcpStream::connect(addr).unwrap();
        c.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .unwrap();
        let mut answer = String::new();
        c.read_to_string(&mut answer).unwrap();
        answer
    };
    let own = get(&apart);
    assert!(own.starts_with("HTTP/1.1 200"), "{own}");
    assert!(own.contains("pyramidion_games_live"), "{own}");
    let refused = get(&public);
    assert!(refused.starts_with("HTTP/1.1 404"), "{refused}");
    drop(running);
}
