//! A cluster started from nothing, HAProxy and its instances at once (a machine booting, or
//! `systemctl start` of everything): HAProxy used to start with every server up, send the
//! first requests to instances still opening their database or resuming their games, mark
//! them down at their first check and cut those requests (`on-marked-down
//! shutdown-sessions`: 502). With the configuration `deploy/haproxy-cfg` writes (every
//! checked server starts down; the same instances unchecked carry the requests until one is
//! up) none is cut.
use crate::cluster_support::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_proxy_started_with_its_instances_cuts_no_request() {
    let database = fresh_database("pyramidion_ops_start_test").await;
    // Two instances: the configuration is made for however many there are.
    let binds: Vec<String> = (0..2)
        .map(|_| format!("127.0.0.1:{}", free_port()))
        .collect();
    let (haproxy, proxy, log) = proxy_at(&binds);
    // Killed however the test ends (a failed one too).
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let haproxy = Killed(haproxy);
    // Requests from the start: before the instances listen, while they migrate the
    // database and resume games, and once they are up.
    let stop = Arc::new(AtomicBool::new(false));
    let asker = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let http = reqwest::Client::new();
            let mut answers = Vec::new();
            let started = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                for path in ["/api/tables", "/", "/api/clocks"] {
                    let asked = started.elapsed();
                    let answer = http
                        .get(format!("{proxy}{path}"))
                        .timeout(Duration::from_secs(60))
                        .send()
                        .await
                        .map(|r| r.status().as_u16())
                        .map_err(|e| e.to_string());
                    answers.push((asked, path, answer));
                }
            }
            answers
        })
    };
    let instances = tokio::task::spawn_blocking(move || {
        let instances: Vec<Instance> = ["a", "b"]
            .iter()
            .zip(&binds)
            .map(|(name, bind)| Instance::start_at(&database, name, bind, &[]))
            .collect();
        for instance in &instances {
            wait_ready(&instance.base);
        }
        instances
    })
    .await
    .unwrap();
    // Both checked servers come up (two good checks a second apart) and serve a while.
    let deadline = Instant::now() + Duration::from_secs(20);
    let both_up =
        |text: &str| text.contains("instances/i1 is UP") && text.contains("instances/i2 is UP");
    while !both_up(&std::fs::read_to_string(&log).unwrap()) {
        assert!(Instant::now() < deadline, "the instances never came up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop.store(true, Ordering::Relaxed);
    let answers = asker.await.unwrap();
    drop(haproxy);
    let text = std::fs::read_to_string(&log).unwrap();
    let failed: Vec<_> = answers
        .iter()
        .filter(|(_, _, a)| !matches!(a, Ok(s) if *s < 500))
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} requests failed, the first: {:?}\n{text}",
        failed.len(),
        answers.len(),
        &failed[..failed.len().min(10)]
    );
    // The first ones waited for an instance through the unchecked servers; then the
    // checked ones took over, each instance its share.
    let served_by = |server: &str| text.lines().filter(|l| l.contains(server)).count();
    for server in ["instances/i1-start ", "instances/i1 ", "instances/i2 "] {
        assert!(served_by(server) > 0, "nothing served by {server}:\n{text}");
    }
    let first = answers.first().map(|(_, _, a)| a.clone());
    println!(
        "{} requests from the proxy's start, none failed (the first answered {first:?}); \
         {} served before a checked server was up",
        answers.len(),
        served_by("-start ")
    );
    drop(instances);
}
