//! What the instances of a chaos run cost, as `pyramidion-loadtest` reports it for one
//! instance: CPU time (every process of every instance, across restarts) and memory per live
//! game (per instance). Read from `/proc`: the instances run on this machine, and a process's
//! CPU time must be read before it is reaped, which its `/metrics` cannot be asked for once it
//! is killed.
use anyhow::Result;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The unit of `/proc/<pid>/stat`'s CPU times: USER_HZ, 100 on every Linux ABI (the kernel
/// converts to it whatever its own tick rate).
const USER_HZ: f64 = 100.0;

/// User and system CPU time of process `pid` so far, in seconds (all its threads).
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces: fields are counted after it.
    let fields: Vec<&str> = stat.rsplit_once(") ")?.1.split_whitespace().collect();
    // `state` is field 3; `utime` and `stime` are fields 14 and 15.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / USER_HZ)
}

/// User and system CPU time so far of every process of this machine whose command is
/// `command` (`/proc/<pid>/comm`), in seconds: PostgreSQL's server and backends, which are
/// not the run's children. A process that exited meanwhile is not counted.
pub fn command_cpu_seconds(command: &str) -> f64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == command)
        })
        .filter_map(cpu_seconds)
        .sum()
}

/// Resident memory of process `pid`, in bytes.
pub fn rss_bytes(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// One instance's memory: idle, and at the sample with the most live games.
#[derive(Clone, Copy, Debug, Default)]
pub struct Memory {
    pub idle: u64,
    pub live: u64,
    pub rss: u64,
}

impl Memory {
    /// Resident memory per live game beyond the idle instance's, in bytes.
    pub fn per_game(&self) -> Option<f64> {
        (self.live > 0).then(|| self.rss.saturating_sub(self.idle) as f64 / self.live as f64)
    }
}

/// The running instances: name, process id and port (a restart changes the pid only).
pub type Roster = Arc<Mutex<Vec<(String, u32, u16)>>>;

#[derive(Default)]
pub struct Usage {
    /// The last CPU time read of every instance process, by pid: a killed process keeps its
    /// last reading, its successor adds its own.
    cpu: Mutex<HashMap<u32, f64>>,
    /// Per instance name.
    memory: Mutex<HashMap<String, Memory>>,
}

impl Usage {
    /// Reads the CPU time of `pid` (a no-op once it is reaped).
    pub fn read_cpu(&self, pid: u32) {
        if let Some(s) = cpu_seconds(pid) {
            self.cpu
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(pid, s);
        }
    }

    /// CPU seconds of every instance process seen.
    pub fn cpu_total(&self) -> f64 {
        self.cpu
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .sum()
    }

    /// Instance `name`, idle (started, no game yet), is `pid`. A restarted instance keeps its
    /// first idle figure: the same binary with the same flags.
    pub fn idle(&self, name: &str, pid: u32) {
        let rss = rss_bytes(pid).unwrap_or(0);
        self.memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(name.to_string())
            .or_insert(Memory {
                idle: rss,
                ..Memory::default()
            });
    }

    fn sample(&self, name: &str, pid: u32, live: u64) {
        let Some(rss) = rss_bytes(pid) else { return };
        let mut memory = self.memory.lock().unwrap_or_else(|e| e.into_inner());
        let m = memory.entry(name.to_string()).or_default();
        if live >= m.live && live > 0 {
            m.live = live;
            m.rss = rss;
        }
    }

    /// Each instance's memory, by name.
    pub fn memory(&self) -> Vec<(String, Memory)> {
        let mut out: Vec<_> = self
            .memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(n, m)| (n.clone(), *m))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Reads every running instance's CPU time, live games (its own `/metrics`) and
    /// resident memory, every `every` until `stop` is set.
    pub async fn sample_until(
        self: Arc<Self>,
        roster: Roster,
        every: Duration,
        stop: Arc<std::sync::atomic::AtomicBool>,
    ) {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(2))
            .build()
            .unwrap_or_default();
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            let now: Vec<_> = roster.lock().unwrap_or_else(|e| e.into_inner()).clone();
            for (name, pid, port) in now {
                self.read_cpu(pid);
                if let Ok(live) = live_games(&http, port).await {
                    self.sample(&name, pid, live);
                }
            }
            tokio::time::sleep(every).await;
        }
    }
}

/// The live games of the instance on `port`, from its `/metrics`.
async fn live_games(http: &reqwest::Client, port: u16) -> Result<u64> {
    let text = http
        .get(format!("http://127.0.0.1:{port}/metrics"))
        .send()
        .await?
        .text()
        .await?;
    text.lines()
        .find_map(|l| l.strip_prefix("pyramidion_games_live "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map(|v| v as u64)
        .ok_or_else(|| anyhow::anyhow!("no pyramidion_games_live"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn this_process_has_cpu_time_and_resident_memory() {
        let me = std::process::id();
        // Spin a little so that at least one tick is counted.
        let mut x = 0u64;
        let start = std::time::Instant::now();
        while super::cpu_seconds(me).unwrap_or(0.0) == 0.0 && start.elapsed().as_secs() < 10 {
            x = x.wrapping_add(std::hint::black_box(x) ^ 1);
        }
        assert!(super::cpu_seconds(me).unwrap() > 0.0, "{x}");
        assert!(super::rss_bytes(me).unwrap() > 1024 * 1024);
        assert!(super::cpu_seconds(u32::MAX).is_none());
        // Every process of this test's command: this one at least.
        let comm = std::fs::read_to_string(format!("/proc/{me}/comm")).unwrap();
        assert!(super::command_cpu_seconds(comm.trim()) >= super::cpu_seconds(me).unwrap());
        assert_eq!(super::command_cpu_seconds("no such command here"), 0.0);
    }
}
