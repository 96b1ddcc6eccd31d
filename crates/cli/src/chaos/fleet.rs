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

/// `template` with its `server` lines (those naming `${PYRAMIDION_INSTANCE_…}`) replaced by
/// one line for each of `n` instances: the shipped config names three.
pub fn proxy_config(template: &str, n: usize) -> Result<String> {
    let is_server =
        |l: &str| l.trim_start().starts_with("server ") && l.contains("${PYRAMIDION_INSTANCE_");
    let first = template
        .lines()
        .position(is_server)
        .ok_or_else(|| anyhow!("the proxy config names no ${{PYRAMIDION_INSTANCE_…}} server"))?;
    let mut out = Vec::new();
    for (i, line) in template.lines().enumerate() {
        if i == first {
            for k in 1..=n {
                out.push(format!("    server i{k} \"${{PYRAMIDION_INSTANCE_{k}}}\""));
            }
        }
        if !is_server(line) {
            out.push(line.to_string());
        }
    }
    Ok(out.join("\n") + "\n")
}

/// HAProxy (`haproxy -db`) with `template` made for `instances`, listening on a free port.
pub fn proxy(template: &Path, instances: &[Instance], logs: &Path) -> Result<Proxy> {
    let text = std::fs::read_to_string(template)
        .with_context(|| format!("cannot read {}", template.display()))?;
    let config: PathBuf = logs.join("haproxy.cfg");
    std::fs::write(&config, proxy_config(&text, instances.len())?)?;
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let mut command = Command::new("haproxy");
    command
        .arg("-db")
        .arg("-f")
        .arg(&config)
        .env("PYRAMIDION_PROXY_BIND", format!("127.0.0.1:{port}"));
    for (i, instance) in instances.iter().enumerate() {
        command.env(
            format!("PYRAMIDION_INSTANCE_{}", i + 1),
            format!("127.0.0.1:{}", instance.port),
        );
    }
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
    #[test]
    fn the_proxy_config_gets_one_server_line_per_instance() {
        let shipped = include_str!("../../../../deploy/haproxy.cfg");
        let five = super::proxy_config(shipped, 5).unwrap();
        let servers: Vec<_> = five
            .lines()
            .filter(|l| l.trim_start().starts_with("server "))
            .collect();
        assert_eq!(servers.len(), 5, "{five}");
        assert_eq!(servers[4].trim(), "server i5 \"${PYRAMIDION_INSTANCE_5}\"");
        // The rest is kept, comments naming the placeholders too.
        assert_eq!(five.lines().count(), shipped.lines().count() + 2);
        assert!(super::proxy_config("global\n", 3).is_err());
    }
}
