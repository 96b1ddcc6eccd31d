//! Issue 53, item 7: the fault tier. Two real instances on one PostgreSQL database, each with
//! fault-injecting proxies (tests/cli/fault_proxy.rs) in front of it (its `--advertise`
//! address is its proxy's: the other instance reaches it only through that) and between it
//! and PostgreSQL (its `--database` names its proxy's port). Instance `b` runs an hour ahead
//! (libfaketime). Four games with clocks are played at a person's pace, each by two players on
//! the two instances (one of them forwarded), while the test in turn adds latency, partitions
//! the instances both ways and one way, drops every connection, black-holes one instance's
//! database connections past its life, and kills the other (SIGKILL), which stays down until
//! `b` has taken its games over, then comes back.
//!
//! Whatever the fault: no acknowledged move is lost, every record replays, no clock ran out
//! (an hour of skew taken for elapsed time would have emptied a bank and let a stand-in
//! play), and every game takes a move again within 10 s of the fault's healing (of a SIGKILL:
//! of the kill itself); the longest such gap of each fault is printed, and each fault that
//! cuts games off must have held one up (else it tested nothing).
use crate::cluster_support::*;
use crate::fault_proxy::{FaultProxy, Faults};
use std::net::{SocketAddr, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::time::Instant;

// The end of a chaos run's check (acknowledged moves against the records, finished records
// replayed), one copy for `pyramidion-chaos` and this test; it reaches the players' `Ack`
// as `super::client`.
use crate::cluster_support as client;
#[allow(dead_code)]
#[path = "../../src/chaos/verify.rs"]
mod verify;

/// libfaketime from Debian (scripts/test installs it), in the machine's multiarch folder: an
/// instance an hour ahead without root.
fn libfaketime() -> String {
    std::fs::read_dir("/usr/lib")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|d| d.path().join("faketime/libfaketime.so.1"))
        .find(|p| p.exists())
        .map(|p| p.display().to_string())
        .expect(
            "no /usr/lib/*/faketime/libfaketime.so.1: scripts/test installs Debian's libfaketime \
             for this test",
        )
}
/// A game must take a move again within this of its fault's healing.
const HEALED_WITHIN: Duration = Duration::from_secs(10);
/// Between two moves of a game, as a person plays (and to keep two cores free enough).
const PACE: Duration = Duration::from_millis(150);
const GAMES: usize = 4;

/// An instance and the proxies on its ways out.
struct Node {
    name: &'static str,
    bind: String,
    /// In front of this instance: the others reach it only through this.
    inbound: FaultProxy,
    /// Between this instance and PostgreSQL.
    database: FaultProxy,
    /// `--database` through `database`.
    url: String,
    env: Vec<(&'static str, String)>,
    instance: Option<Instance>,
}

impl Node {
    fn new(name: &'static str, direct_url: &str, env: Vec<(&'static str, String)>) -> Node {
        let port = free_port();
        let bind = format!("127.0.0.1:{port}");
        let inbound = FaultProxy::start(bind.parse().unwrap());
        // postgres://user:password@host:port/name: host:port becomes the proxy's.
        let (head, rest) = direct_url
            .rsplit_once('@')
            .expect("a database URL with a user");
        let (server, name_part) = rest.split_once('/').expect("a database name");
        let upstream: SocketAddr = server.to_socket_addrs().unwrap().next().unwrap();
        let database = FaultProxy::start(upstream);
        let url = format!("{head}@{}/{name_part}", database.addr);
        let mut node = Node {
            name,
            bind,
            inbound,
            database,
            url,
            env,
            instance: None,
        };
        node.start();
        node
    }

    fn start(&mut self) {
        let advertise = format!("http://{}", self.inbound.addr);
        let extra = ["--advertise", &advertise, "--clocks", "normal=600+5"];
        let env: Vec<(&str, &str)> = self.env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.instance = Some(Instance::start_with_env(
            &self.url, self.name, &self.bind, &extra, &env,
        ));
    }

    fn base(&self) -> String {
        format!("http://{}", self.bind)
    }
}

/// What the players of one table slot did: the games played there one after another, and
/// when each of their moves was acknowledged (a fault's gap is read from these).
#[derive(Default)]
struct Slot {
    played: Vec<verify::Played>,
    acks: Vec<Instant>,
    error: Option<String>,
    /// What its players are doing, for a failure's message.
    doing: String,
}

/// A table of Forgotten Treasures (a long game) with a real-time clock, created through
/// `bases[on]`, joined through the other: the two players, and the game's id. Retried on the
/// other instance while the first cannot answer (a fault is on).
async fn new_table(
    http: &reqwest::Client,
    bases: &[String],
    on: usize,
) -> anyhow::Result<(String, String, String)> {
    let mut last = None;
    for k in 0..40 {
        let base = &bases[(on + k) % bases.len()];
        let attempt = async {
            let alice = guest(http, base).await?;
            let bob = guest(http, base).await?;
            let table = post(
                http,
                format!("{base}/api/tables"),
                &alice,
                serde_json::json!({"game": "forgotten-treasures", "options": {"players": 2},
                                   "seats": [{"type": "me"}, {"type": "open"}],
                                   "clock": "normal"}),
            )
            .await?;
            let id = table["id"].as_str().unwrap_or_default().to_string();
            post(
                http,
                format!("{base}/api/tables/{id}/join"),
                &bob,
                serde_json::json!({}),
            )
            .await?;
            anyhow::Ok((alice, bob, id))
        };
        match tokio::time::timeout(Duration::from_secs(5), attempt).await {
            Ok(Ok(t)) => return Ok(t),
            Ok(Err(e)) => last = Some(e.to_string()),
            Err(_) => last = Some("no answer within 5 s".into()),
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    anyhow::bail!("no table made: {}", last.unwrap_or_default())
}

/// Plays games at table slot `n` until `stop`, then the one under way to its end.
async fn drive(n: usize, bases: Vec<String>, stop: Arc<AtomicBool>, slot: Arc<Mutex<Slot>>) {
    let http = reqwest::Client::new();
    let outcome = async {
        loop {
            let on = n % bases.len();
            slot.lock().unwrap().doing = "making a table".into();
            let (alice, bob, id) = new_table(&http, &bases, on).await?;
            let players = [
                Player::join(alice.clone(), &id, &bases, on).await?,
                Player::join(bob, &id, &bases, (on + 1) % bases.len()).await?,
            ];
            let mut duel = Duel::new(players, Some(n as u64 + 1));
            let mut finished = false;
            let mut seen = 0;
            while !finished {
                if !stop.load(Ordering::Relaxed) {
                    tokio::time::sleep(PACE).await;
                }
                let next = duel.ply + 1;
                slot.lock().unwrap().doing = format!(
                    "game {id} at ply {}, players on instances {} and {}",
                    duel.ply, duel.players[0].on, duel.players[1].on
                );
                let result = duel.play_until(Some(next), &bases, &[]).await;
                let mut s = slot.lock().unwrap();
                s.acks
                    .extend(duel.acknowledged[seen..].iter().map(|a| a.acknowledged));
                seen = duel.acknowledged.len();
                finished = result?;
            }
            slot.lock().unwrap().played.push(verify::Played {
                id,
                cookie: alice,
                acks: duel.acknowledged,
                finished,
                error: None,
                resumed: duel.players.iter().map(|p| p.resumed).sum(),
            });
            if stop.load(Ordering::Relaxed) {
                return anyhow::Ok(());
            }
        }
    };
    if let Err(e) = outcome.await {
        slot.lock().unwrap().error = Some(format!("slot {n}: {e:#}"));
    }
}

/// Waits until every slot had a move acknowledged after `healed` (or gave up); the longest
/// wait of a slot from `healed` to its first such move.
async fn longest_gap(slots: &[Arc<Mutex<Slot>>], healed: Instant, what: &str) -> Duration {
    let limit = healed + HEALED_WITHIN + Duration::from_secs(5);
    loop {
        let firsts: Vec<Option<Instant>> = slots
            .iter()
            .map(|s| {
                let s = s.lock().unwrap();
                if let Some(e) = &s.error {
                    panic!("{what}: {e}");
                }
                s.acks.iter().copied().find(|&t| t > healed)
            })
            .collect();
        if firsts.iter().all(Option::is_some) || Instant::now() > limit {
            let gap = firsts
                .iter()
                .map(|f| f.map_or(Instant::now(), |t| t) - healed)
                .max()
                .unwrap_or_default();
            for (s, first) in slots.iter().zip(&firsts) {
                if first.is_none() {
                    eprintln!("fault: {what}: no move since: {}", s.lock().unwrap().doing);
                }
            }
            eprintln!("fault: {what}: every game moved again within {gap:?} of the healing");
            return gap;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The longest time some game went without an acknowledged move between `from` and `to`:
/// a fault that held no game up tested nothing.
fn longest_stall(slots: &[Arc<Mutex<Slot>>], from: Instant, to: Instant) -> Duration {
    slots
        .iter()
        .map(|s| {
            let s = s.lock().unwrap();
            let mut marks = vec![from];
            marks.extend(s.acks.iter().copied().filter(|&t| from < t && t < to));
            marks.push(to);
            marks
                .windows(2)
                .map(|w| w[1] - w[0])
                .max()
                .unwrap_or_default()
        })
        .max()
        .unwrap_or_default()
}

/// Sets `faults` on `proxies` for `held`, then heals them; when they healed.
async fn for_a_while(proxies: &[(&FaultProxy, Faults)], held: Duration) -> Instant {
    for (p, f) in proxies {
        p.set(*f);
    }
    tokio::time::sleep(held).await;
    for (p, _) in proxies {
        p.heal();
    }
    Instant::now()
}

/// Games the instance at `base` took over from a dead one, by its own /metrics.
async fn takeovers(base: &str) -> f64 {
    let text = reqwest::get(format!("{base}/metrics"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("pyramidion_lease_takeovers_total "))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no take-over count in {base}/metrics"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_faults_no_move_is_lost_and_every_game_comes_back_within_10_s() {
    let libfaketime = libfaketime();
    let direct = fresh_database("pyramidion_faults_test").await;
    let (a, b) = tokio::task::spawn_blocking({
        let direct = direct.clone();
        move || {
            let a = Node::new("a", &direct, vec![]);
            // An hour ahead, monotonic time too (tokio's timers): a skew the database's
            // clock must absorb (issue 53, "one clock").
            let b = Node::new(
                "b",
                &direct,
                vec![("LD_PRELOAD", libfaketime), ("FAKETIME", "+1h".into())],
            );
            (a, b)
        }
    })
    .await
    .unwrap();
    let bases = vec![a.base(), b.base()];
    let stop = Arc::new(AtomicBool::new(false));
    let slots: Vec<Arc<Mutex<Slot>>> = (0..GAMES).map(|_| Arc::default()).collect();
    let drivers: Vec<_> = slots
        .iter()
        .enumerate()
        .map(|(n, s)| tokio::spawn(drive(n, bases.clone(), stop.clone(), s.clone())))
        .collect();
    // Every game under way before the first fault (not a fault: not held to the 10 s).
    longest_gap(&slots, Instant::now(), "start").await;
    let mut gaps = Vec::new();

    let slow = Faults {
        latency: Duration::from_millis(150),
        ..Faults::default()
    };
    let healed = for_a_while(
        &[
            (&a.inbound, slow),
            (&b.inbound, slow),
            (&a.database, slow),
            (&b.database, slow),
        ],
        Duration::from_secs(3),
    )
    .await;
    gaps.push((
        "latency 150 ms",
        longest_gap(&slots, healed, "latency").await,
    ));

    let mut stalls = Vec::new();
    let began = Instant::now();
    let healed = for_a_while(
        &[(&a.inbound, Faults::HELD), (&b.inbound, Faults::HELD)],
        Duration::from_secs(4),
    )
    .await;
    stalls.push(("partition both ways", longest_stall(&slots, began, healed)));
    gaps.push((
        "partition a-b both ways",
        longest_gap(&slots, healed, "partition both ways").await,
    ));

    // Every byte from a to b held, on a's connections to b and on b's to a; b to a flows.
    let up = Faults {
        hold_up: true,
        ..Faults::default()
    };
    let down = Faults {
        hold_down: true,
        ..Faults::default()
    };
    let began = Instant::now();
    let healed = for_a_while(
        &[(&b.inbound, up), (&a.inbound, down)],
        Duration::from_secs(4),
    )
    .await;
    stalls.push(("partition one way", longest_stall(&slots, began, healed)));
    gaps.push((
        "partition a to b only",
        longest_gap(&slots, healed, "partition one way").await,
    ));

    let reset = Faults {
        reset: true,
        ..Faults::default()
    };
    let healed = for_a_while(
        &[
            (&a.database, reset),
            (&a.inbound, reset),
            (&b.inbound, reset),
        ],
        Duration::from_secs(1),
    )
    .await;
    gaps.push((
        "dropped connections",
        longest_gap(&slots, healed, "dropped connections").await,
    ));

    // Past b's life (4 s): a may take b's games over while b's queries hang.
    let began = Instant::now();
    let healed = for_a_while(&[(&b.database, Faults::HELD)], Duration::from_secs(6)).await;
    stalls.push(("black hole", longest_stall(&slots, began, healed)));
    gaps.push((
        "b's database connections black-holed 6 s",
        longest_gap(&slots, healed, "black hole").await,
    ));

    // SIGKILL, and a stays down past its life: its games move again only once b, an hour
    // ahead, took them over with their clocks running. Counted from the kill itself.
    let mut a = a;
    let old = a.instance.take().unwrap();
    let killed = Instant::now();
    tokio::task::spawn_blocking(move || {
        let mut old = old;
        old.kill();
    })
    .await
    .unwrap();
    gaps.push((
        "a killed (SIGKILL), counted from the kill",
        longest_gap(&slots, killed, "kill -9").await,
    ));
    let takeovers = takeovers(&bases[1]).await;
    assert!(takeovers > 0.0, "b took none of a's games over");
    let a = tokio::task::spawn_blocking(move || {
        a.start();
        a
    })
    .await
    .unwrap();
    let healed = Instant::now();
    stalls.push(("kill -9", longest_stall(&slots, killed, healed)));
    gaps.push(("a restarted", longest_gap(&slots, healed, "restart").await));

    // Every game to its end (at full speed), so that every record can be replayed.
    stop.store(true, Ordering::Relaxed);
    for d in drivers {
        tokio::time::timeout(Duration::from_secs(120), d)
            .await
            .expect("every game ends within 2 min")
            .unwrap();
    }
    let played: Vec<verify::Played> = slots
        .iter()
        .flat_map(|s| {
            let mut s = s.lock().unwrap();
            if let Some(e) = &s.error {
                panic!("{e}");
            }
            std::mem::take(&mut s.played)
        })
        .collect();
    let http = reqwest::Client::new();
    let checked = verify::check(&http, &bases[0], &played).await;
    eprintln!(
        "fault: {} games, {} acknowledged moves checked, {} records replayed",
        played.len(),
        checked.acknowledged,
        checked.replayed
    );
    assert!(checked.acknowledged > 0);
    assert!(
        checked.lost.is_empty(),
        "acknowledged moves lost: {:?}",
        checked.lost
    );
    assert!(
        checked.bad.is_empty(),
        "records that do not replay: {:?}",
        checked.bad
    );
    assert_eq!(
        checked.replayed,
        played.len(),
        "every game finished and replayed"
    );

    // No clock ran out: the hour b is ahead never counted as thinking time.
    let mut c = db(&direct).await;
    for game in &played {
        let by_bot: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM moves WHERE game_id = $1 AND by_bot = 1")
                .bind(&game.id)
                .fetch_one(&mut c)
                .await
                .unwrap();
        assert_eq!(
            by_bot, 0,
            "game {}: a stand-in played a timed-out turn",
            game.id
        );
        let clock: Option<String> =
            sqlx::query_scalar("SELECT clock_state FROM games WHERE id = $1")
                .bind(&game.id)
                .fetch_one(&mut c)
                .await
                .unwrap();
        assert!(clock.is_some(), "game {} ran without a clock", game.id);
    }

    // Each fault that cuts games off held some game up for at least half of it.
    for (what, stall) in &stalls {
        eprintln!("fault: {what}: the longest stall of a game while it lasted {stall:?}");
        assert!(
            *stall >= Duration::from_secs(2),
            "{what} held no game up ({stall:?}): the fault did not bite"
        );
    }
    for (what, gap) in &gaps {
        eprintln!("fault: {what}: longest gap after healing {gap:?}");
    }
    let (worst, gap) = gaps.iter().max_by_key(|(_, g)| *g).unwrap();
    assert!(
        *gap <= HEALED_WITHIN,
        "after {worst}, a game took {gap:?} to move again (at most {HEALED_WITHIN:?})"
    );
    drop((a, b));
}
