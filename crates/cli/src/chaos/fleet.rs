//! The processes of a chaos run: N `pyramidion serve` instances on one database and HAProxy in
//! front of them, each instance killed and restarted on its own port (so the proxy, which
//! knows instances by address, sends to it again once its health check passes).
use anyhow::{Context, Result, anyhow, bail};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct Instance {
    pub name: String,
    pub port: u16,
    child: Child,
}

/// The `pyramidion` binary beside this one (cargo builds both into one directory), which
/// `pyramidion-chaos` starts as its instances.
fn server_binary() -> Result<std::path::PathBuf> {
    let path = std::env::current_exe()?
        .with_file_name(format!("pyramidion{}", std::env::consts::EXE_SUFFIX));
    anyhow::ensure!(
        path.exists(),
        "{} is missing: build it beside pyramidion-chaos (cargo build -p pyramidion)",
        path.display()
    );
    Ok(path)
}

/// `pyramidion serve` for `database` as instance `name` on `bind`, fast (no bot pacing, rate
/// limits far above the load), its log appended to `logs/NAME.log`; started once it prints
/// where it serves.
fn spawn(database: &str, name: &str, bind: &str, logs: &Path) -> Result<Instance> {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(logs.join(format!("{name}.log")))?;
    let mut child = Command::new(server_binary()?)
        .args(["serve", "--bind", bind, "--database", database])
        .args(["--instance", name, "--ws-rate", "100000"])
        .args(["--http-rate", "100000", "--bot-pace-ms", "0"])
        // The figures are the move path's: the puzzle miner would mine every game the load
        // finishes, in the background on a searching thread of each instance (three miners
        // in a cluster of three against one), and its CPU would count as the moves'.
        .args(["--puzzle-budget", "0"])
        // Every player comes from the one loopback address.
        .args([
            "--guests-per-ip",
            "100000",
            "--connections-per-ip",
            "100000",
        ])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .context("cannot start `pyramidion serve`")?;
    let mut line = String::new();
    if let Some(out) = child.stdout.take() {
        BufReader::new(out).read_line(&mut line)?;
    }
    let port = line
        .trim()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .filter(|_| line.starts_with("Pyramidion is serving on"));
    match port {
        Some(port) => Ok(Instance {
            name: name.to_string(),
            port,
            child,
        }),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            bail!("instance {name} did not start (see {})", logs.display())
        }
    }
}

impl Instance {
    /// Starts instance `name` on a free port.
    pub fn start(database: &str, name: &str, logs: &Path) -> Result<Instance> {
        spawn(database, name, "127.0.0.1:0", logs)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the process — SIGKILL, or SIGTERM (a drain, waited for) when `drain` — and
    /// starts it again on the same port, retrying while the port is still taken. The dying
    /// process's CPU time is read into `usage` until it is reaped (a zombie still shows it).
    pub fn kill_and_restart(
        &mut self,
        database: &str,
        drain: bool,
        logs: &Path,
        usage: &super::usage::Usage,
    ) -> Result<()> {
        let pid = self.child.id();
        usage.read_cpu(pid);
        if drain {
            let status = Command::new("kill")
                .args(["-TERM", &self.child.id().to_string()])
                .status()?;
            if !status.success() {
                bail!("kill -TERM {} failed", self.child.id());
            }
        } else {
            self.child.kill()?;
        }
        loop {
            usage.read_cpu(pid);
            if self.child.try_wait()?.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let bind = format!("127.0.0.1:{}", self.port);
        let mut last = anyhow!("no attempt");
        for _ in 0..20 {
            match spawn(database, &self.name, &bind, logs) {
                Ok(again) => {
                    *self = again;
                    return Ok(());
                }
                Err(e) => last = e,
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        Err(last.context(format!("instance {} did not come back", self.name)))
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// HAProxy, killed when dropped.
pub struct Proxy {
    pub base: String,
    child: Child,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// HAProxy (`haproxy -db`) with `template` made for `instances` by `deploy/haproxy-cfg`
/// (the script beside it, as an operator makes it), listening on a free port.
pub fn proxy(template: &Path, instances: &[Instance], logs: &Path) -> Result<Proxy> {
    let config: PathBuf = logs.join("haproxy.cfg");
    let script = template
        .parent()
        .unwrap_or(Path::new("."))
        .join("haproxy-cfg");
    let addresses: Vec<(String, String)> = instances
        .iter()
        .enumerate()
        .map(|(i, instance)| {
            (
                format!("PYRAMIDION_INSTANCE_{}", i + 1),
                format!("127.0.0.1:{}", instance.port),
            )
        })
        .collect();
    let made = Command::new(&script)
        .arg(instances.len().to_string())
        .arg(logs.join("haproxy-start.state"))
        .arg(template)
        .envs(addresses.iter().map(|(k, v)| (k, v)))
        .stdout(std::fs::File::create(&config)?)
        .status()
        .with_context(|| format!("cannot run {}", script.display()))?;
    if !made.success() {
        bail!("{} failed ({made})", script.display());
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let mut command = Command::new("haproxy");
    command
        .arg("-db")
        .arg("-f")
        .arg(&config)
        .env("PYRAMIDION_PROXY_BIND", format!("127.0.0.1:{port}"))
        .envs(addresses.iter().map(|(k, v)| (k, v)));
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(logs.join("haproxy.log"))?)
        .spawn()
        .context("cannot run haproxy (Debian: apt-get install haproxy)")?;
    let proxy = Proxy {
        base: format!("http://127.0.0.1:{port}"),
        child,
    };
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(proxy);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    bail!(
        "haproxy does not listen (see {})",
        logs.join("haproxy.log").display()
    )
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../deploy/haproxy-cfg");

    /// `deploy/haproxy-cfg N STATE`: its output and the start-state file it writes.
    fn made(n: &str) -> (std::process::Output, String) {
        let state = std::env::temp_dir().join(format!(
            "pyramidion-haproxy-cfg-{}-{n}.state",
            std::process::id()
        ));
        let ports = (1..=5).map(|k| {
            (
                format!("PYRAMIDION_INSTANCE_{k}"),
                format!("10.0.0.1{k}:808{k}"),
            )
        });
        let out = Command::new(SCRIPT)
            .arg(n)
            .arg(&state)
            .envs(ports)
            .output()
            .unwrap();
        let written = std::fs::read_to_string(&state).unwrap_or_default();
        let _ = std::fs::remove_file(&state);
        (out, written)
    }

    #[test]
    fn the_proxy_config_is_made_for_any_number_of_instances() {
        let (out, state) = made("5");
        assert!(out.status.success());
        let five = String::from_utf8(out.stdout).unwrap();
        let servers: Vec<_> = five
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("server "))
            .collect();
        assert_eq!(servers.len(), 10, "{five}");
        assert_eq!(servers[4], "server i5 \"${PYRAMIDION_INSTANCE_5}\"");
        assert_eq!(
            servers[9],
            "server i5-start \"${PYRAMIDION_INSTANCE_5}\" backup no-check"
        );
        // Every checked server starts down: one line each in the state file it names.
        assert!(five.contains("server-state-file /"), "{five}");
        let down: Vec<_> = state.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(down.len(), 6, "{state}");
        assert!(
            down[5].starts_with("0 instances 5 i5 0.0.0.0 0 "),
            "{state}"
        );
        // HAProxy applies the port a state file names: each instance's own.
        assert!(down[5].contains(" - 8085 - "), "{state}");
        // The shipped file is what it makes for three, the state file at its default place.
        let shipped = include_str!("../../../../deploy/haproxy.cfg");
        let (three, _) = made("3");
        let three = String::from_utf8(three.stdout).unwrap();
        let state_line = |text: &str| {
            text.lines()
                .find(|l| l.trim_start().starts_with("server-state-file"))
                .map(str::to_string)
        };
        assert_eq!(
            three.replace(&state_line(&three).unwrap(), ""),
            shipped.replace(&state_line(shipped).unwrap(), "")
        );
        assert_eq!(
            state_line(shipped).unwrap().trim(),
            "server-state-file /var/lib/haproxy/pyramidion-start.state"
        );
        for bad in ["0", "x", "-1", ""] {
            assert_eq!(made(bad).0.status.code(), Some(2), "{bad:?} is refused");
        }
        // A state file for an instance whose address is unknown is refused, not guessed.
        assert!(!made("6").0.status.success());
    }
}
