//! Several real instances on one PostgreSQL database (issue 28): players on different
//! instances play one game; the owner is killed (`kill -9`) or paused past its lease
//! (`SIGSTOP`) mid-game; no acknowledged move is lost, none is committed twice, and the game
//! goes on from another instance.
use crate::cluster_support::*;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Two players, each on a different instance of three, play a game of Pyramids to its end;
/// after a few moves the instance running the game is killed with SIGKILL. Every move a
/// player saw acknowledged is stored, at its place, and the record replays.
#[tokio::test]
async fn players_on_two_instances_play_on_after_the_owner_is_killed() {
    let database = fresh_database("pyramidion_cluster_kill_test").await;
    let (mut instances, bases) = start_all(&database, &["a", "b", "c"], &[]);
    let http = reqwest::Client::new();
    let (alice, bob, game) = two_guests_at(
        &http,
        [&bases[0], &bases[1]],
        json!({"game": "pyramids", "options": {"players": 2}}),
    )
    .await;
    let mut players = [
        Player::join(alice, &game, &bases, 0).await.unwrap(),
        Player::join(bob, &game, &bases, 1).await.unwrap(),
    ];
    let mut dead: Vec<usize> = Vec::new();
    // (ply, move) of every move whose player saw the next state.
    let mut acknowledged: Vec<(u64, String)> = Vec::new();
    let mut ply = 0;
    let mut failover: Option<Instant> = None;
    loop {
        let states = [
            players[0].state(ply, &bases, &dead).await.unwrap(),
            players[1].state(ply, &bases, &dead).await.unwrap(),
        ];
        let newest = states
            .iter()
            .map(|s| s["state_id"].as_u64().unwrap())
            .max()
            .unwrap();
        if newest > ply {
            ply = newest;
            continue;
        }
        if states.iter().any(|s| s["finished"] == true) {
            break;
        }
        // Who is to move plays its first legal move.
        let mover = (0..2)
            .find(|&p| !states[p]["legal"].as_array().unwrap().is_empty())
            .expect("someone is to move in a game between two people");
        let text = states[mover]["legal"][0]["text"]
            .as_str()
            .unwrap()
            .to_string();
        players[mover].send_move(ply, &text).await;
        let after = players[mover].state(ply + 1, &bases, &dead).await.unwrap();
        if after["last_move"]["ply"].as_u64() == Some(ply) {
            acknowledged.push((ply, text));
        }
        if let Some(killed) = failover
            && after["state_id"].as_u64() > Some(ply)
        {
            eprintln!(
                "the game went on {:?} after its owner was killed",
                killed.elapsed()
            );
            failover = None;
        }
        if ply == 6 && dead.is_empty() {
            let running = owner(&database, &game)
                .await
                .expect("a live game has an owner");
            let i = instances.iter().position(|i| i.name == running).unwrap();
            instances[i].kill();
            dead.push(i);
            failover = Some(Instant::now());
        }
    }
    assert!(
        !dead.is_empty(),
        "the game was long enough to kill its owner"
    );
    let stored = stored_moves(&database, &game).await;
    for (ply, text) in &acknowledged {
        assert_eq!(
            stored.get(*ply as usize),
            Some(text),
            "acknowledged move {ply} is stored at its place"
        );
    }
    let alive = (0..3).find(|i| !dead.contains(i)).unwrap();
    let record: Value = http
        .get(format!("{}/api/games/{game}/record", bases[alive]))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(record["moves"].as_array().unwrap().len(), stored.len());
    assert!(!record["result"].is_null(), "the game ended: {record}");
    assert!(
        players.iter().any(|p| p.resumed > 0),
        "a player had to follow the game again after its owner died"
    );
}

/// An owner paused past its lease (SIGSTOP) takes in a move while paused; meanwhile the game
/// moves to another instance, where the player plays another move at the same point. Resumed
/// (SIGCONT), the paused instance does not commit its move: the other one stands.
#[tokio::test]
async fn an_owner_paused_past_its_lease_commits_nothing() {
    let database = fresh_database("pyramidion_cluster_pause_test").await;
    let a = Instance::start(&database, "a", &[]);
    let b = Instance::start(&database, "b", &[]);
    let bases = vec![a.base.clone(), b.base.clone()];
    let http = reqwest::Client::new();
    let (solo, game) = solo_game(&http, &bases[1]).await;
    // On b, which runs the game.
    let mut on_b = Player::join(solo.clone(), &game, &bases, 1).await.unwrap();
    let state = on_b.state(0, &bases, &[]).await.unwrap();
    let state = play_first_moves(&mut on_b, state, 3, &bases).await;
    assert_eq!(owner(&database, &game).await.as_deref(), Some("b"));
    let at = state["state_id"].as_u64().unwrap();
    let legal = state["legal"].as_array().unwrap().clone();
    assert!(legal.len() >= 2, "two different moves to tell apart");
    let (late, played) = (
        legal[0]["text"].as_str().unwrap().to_string(),
        legal[1]["text"].as_str().unwrap().to_string(),
    );
    b.pause();
    // Taken in by the paused instance's socket, not read yet.
    on_b.send_move(at, &late).await;
    // The same player on a: the game is taken over once b's life ends.
    let mut on_a = Player::join(solo, &game, &bases, 0).await.unwrap();
    let now = on_a.state(at, &bases, &[1]).await.unwrap();
    assert_eq!(now["state_id"].as_u64(), Some(at), "{now}");
    // A resubscription still under way (b could not be reached at first) may bring the state
    // back before the move: the player then plays it again, as a person would.
    let mut after = now;
    for _ in 0..10 {
        if after["state_id"].as_u64() > Some(at) {
            break;
        }
        on_a.send_move(at, &played).await;
        after = on_a.state(at + 1, &bases, &[1]).await.unwrap();
    }
    assert_eq!(after["state_id"].as_u64(), Some(at + 1));
    assert_eq!(owner(&database, &game).await.as_deref(), Some("a"));
    b.signal("-CONT");
    // Whatever b does with its late move, it is never committed; the player on b is told
    // to follow again, and then sees the move played on a.
    let seen = on_b.state(at + 1, &bases, &[]).await.unwrap();
    assert_eq!(seen["last_move"]["ply"].as_u64(), Some(at), "{seen}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let stored = stored_moves(&database, &game).await;
    assert_eq!(stored.get(at as usize), Some(&played), "{stored:?}");
    assert_eq!(
        stored.len() as u64,
        at + 1,
        "nothing after the move played on a"
    );
    let log = std::fs::read_to_string(&b.log).unwrap_or_default();
    assert!(
        log.contains("no longer owns"),
        "b met its fence when it woke up:\n{log}"
    );
}

/// A turn's time runs out while the instance running the game is dead: another takes the
/// game over and plays the time-out, once (one stand-in move, one time-out counted).
#[tokio::test]
async fn a_time_out_fires_once_after_its_owner_died() {
    let database = fresh_database("pyramidion_cluster_timeout_test").await;
    let clock = ["--clocks", "quick=3+0"];
    let (mut instances, bases) = start_all(&database, &["a", "b"], &clock);
    let http = reqwest::Client::new();
    let (solo, game) = guest_game(
        &http,
        &bases[0],
        json!({"game": "forgotten-treasures", "options": {"players": 1, "solo": "the-legend"},
               "seats": [{"type": "me"}], "clock": "quick"}),
    )
    .await;
    let mut player = Player::join(solo, &game, &bases, 0).await.unwrap();
    let state = player.state(0, &bases, &[]).await.unwrap();
    assert_eq!(owner(&database, &game).await.as_deref(), Some("a"));
    let at = state["state_id"].as_u64().unwrap();
    // The player thinks; the instance running the game dies.
    instances[0].kill();
    // Each resubscription (the socket closed, then the game changed instance) brings the
    // state as it is then: read on until the time-out's move.
    let mut after = player.state(at + 1, &bases, &[0]).await.unwrap();
    for _ in 0..10 {
        if after["state_id"].as_u64() > Some(at) {
            break;
        }
        after = player.state(at + 1, &bases, &[0]).await.unwrap();
    }
    assert_eq!(after["last_move"]["ply"].as_u64(), Some(at), "{after}");
    assert_eq!(owner(&database, &game).await.as_deref(), Some("b"));
    let mut c = db(&database).await;
    let by_bot: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT ply, by_bot FROM moves WHERE game_id = $1 AND by_bot = 1 ORDER BY ply",
    )
    .bind(&game)
    .fetch_all(&mut c)
    .await
    .unwrap();
    assert_eq!(
        by_bot.first(),
        Some(&(at as i64, 1)),
        "the stand-in played the turn"
    );
    let clock: String = sqlx::query_scalar("SELECT clock_state FROM games WHERE id = $1")
        .bind(&game)
        .fetch_one(&mut c)
        .await
        .unwrap();
    let clock: Value = serde_json::from_str(&clock).unwrap();
    // One time-out for the turn, however many moves the stand-in plays in it (a turn of
    // Forgotten Treasures has several) and however many instances saw it run out; the next
    // turn starts with a fresh minimum of 30 s, far beyond this test.
    assert_eq!(clock["timeouts"][0].as_u64(), Some(1), "{clock} {by_bot:?}");
}

/// A finished game's analysis asked of three instances at once runs on one of them.
#[tokio::test]
async fn an_analysis_asked_of_every_instance_runs_once() {
    let database = fresh_database("pyramidion_cluster_analysis_test").await;
    // The subject is where the analysis runs, not its depth: a bounded budget (as the browser
    // tests give) keeps it to seconds, where the judge's full budget took minutes of a debug
    // build beside the other test lanes.
    let quick = ["--bot-pace-ms", "0", "--analysis-budget", "150000"];
    let (instances, bases) = start_all(&database, &["a", "b", "c"], &quick);
    let http = reqwest::Client::new();
    let (me, game) = guest_game(
        &http,
        &bases[0],
        json!({"game": "pyramids", "options": {"players": 2},
               "seats": [{"type": "me"}, {"type": "bot", "level": "greedy"}]}),
    )
    .await;
    let mut player = Player::join(me.clone(), &game, &bases, 1).await.unwrap();
    let mut ply = 0;
    loop {
        let state = player.state(ply, &bases, &[]).await.unwrap();
        ply = state["state_id"].as_u64().unwrap();
        if state["finished"] == true {
            break;
        }
        let legal = state["legal"].as_array().unwrap();
        if let Some(m) = legal.first() {
            player.send_move(ply, m["text"].as_str().unwrap()).await;
        }
        ply += 1;
    }
    let asks = bases.iter().map(|base| {
        let http = http.clone();
        let (url, me) = (format!("{base}/api/games/{game}/analysis"), me.clone());
        async move {
            http.post(url)
                .header("cookie", me)
                .json(&json!({}))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    });
    let statuses = futures_util::future::join_all(asks).await;
    assert!(
        statuses.iter().all(|s| *s == 202 || *s == 200),
        "{statuses:?}"
    );
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let v: Value = http
            .get(format!("{}/api/games/{game}/analysis", bases[2]))
            .header("cookie", &me)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if v["status"] == "done" {
            break;
        }
        assert_ne!(v["status"], "failed", "{v}");
        assert!(
            Instant::now() < deadline,
            "the analysis is done within 5 minutes"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let started: usize = instances
        .iter()
        .map(|i| {
            std::fs::read_to_string(&i.log)
                .unwrap_or_default()
                .lines()
                .filter(|l| l.contains("analysis started") && l.contains(&game))
                .count()
        })
        .sum();
    assert_eq!(started, 1, "one instance ran the analysis");
}

/// Two players reach three instances only through HAProxy (deploy/haproxy.cfg), with no
/// stickiness. Mid-game the instance running the game is drained (SIGTERM: a rolling
/// restart), later the next one is killed (SIGKILL); the players only reconnect, and every
/// acknowledged move is stored at its place.
#[tokio::test]
async fn through_the_proxy_a_game_survives_a_drain_and_a_kill() {
    let database = fresh_database("pyramidion_cluster_proxy_test").await;
    let (mut instances, _) = start_all(&database, &["a", "b", "c"], &[]);
    let (haproxy, proxy) = proxy(&instances.iter().collect::<Vec<_>>());
    let bases = vec![proxy.clone()];
    let http = reqwest::Client::new();
    let (alice, bob, game) = two_guests_at_a_table(&http, &proxy, "pyramids").await;
    let mut duel = Duel::new(
        [
            Player::join(alice, &game, &bases, 0).await.unwrap(),
            Player::join(bob, &game, &bases, 0).await.unwrap(),
        ],
        None,
    );
    assert!(!duel.play_until(Some(6), &bases, &[]).await.unwrap());
    let running = owner(&database, &game).await.expect("an owner");
    let drained = instances.iter().position(|i| i.name == running).unwrap();
    instances[drained].signal("-TERM");
    let status = instances[drained].child.wait().unwrap();
    assert!(
        status.success(),
        "a drained instance exits cleanly: {status}"
    );
    assert!(!duel.play_until(Some(14), &bases, &[]).await.unwrap());
    let running = owner(&database, &game).await.expect("an owner");
    assert_ne!(running, instances[drained].name, "the game moved on");
    let killed = instances.iter().position(|i| i.name == running).unwrap();
    instances[killed].kill();
    assert!(
        duel.play_until(None, &bases, &[]).await.unwrap(),
        "the game ends"
    );
    let stored = stored_moves(&database, &game).await;
    for a in &duel.acknowledged {
        assert_eq!(stored.get(a.ply as usize), Some(&a.text), "move {}", a.ply);
    }
    assert!(duel.players.iter().any(|p| p.resumed > 0));
    drop(haproxy);
}

/// Issue 53: an owner paused past its lease (SIGSTOP) while the game goes on from another
/// instance (four moves) stops serving the game it lost once resumed (SIGCONT): within
/// seconds the player still connected to it is told to follow again and sees the current
/// state, and a new subscriber sent to it gets the current state (from the new owner, over
/// the link), never the one the game left behind.
#[tokio::test]
async fn an_owner_paused_past_its_lease_stops_serving_the_game_it_lost() {
    let database = fresh_database("pyramidion_cluster_stale_test").await;
    let a = Instance::start(&database, "a", &[]);
    let b = Instance::start(&database, "b", &[]);
    let bases = vec![a.base.clone(), b.base.clone()];
    let http = reqwest::Client::new();
    let (solo, game) = solo_game(&http, &bases[0]).await;
    let mut on_a = Player::join(solo.clone(), &game, &bases, 0).await.unwrap();
    let state = on_a.state(0, &bases, &[]).await.unwrap();
    let state = play_first_moves(&mut on_a, state, 2, &bases).await;
    assert_eq!(owner(&database, &game).await.as_deref(), Some("a"));
    let at = state["state_id"].as_u64().unwrap();
    a.pause();
    // The same player on b: the game is taken over once a's life ends, and goes on there.
    let mut on_b = Player::join(solo.clone(), &game, &bases, 1).await.unwrap();
    let mut now = on_b.state(at, &bases, &[0]).await.unwrap();
    for _ in 0..40 {
        let id = now["state_id"].as_u64().unwrap();
        if id >= at + 4 {
            break;
        }
        // A resubscription under way (a could not be reached at first) may answer a move
        // with the state before it: the player plays it again, as a person would.
        let text = now["legal"][0]["text"].as_str().unwrap().to_string();
        on_b.send_move(id, &text).await;
        now = on_b.state(id + 1, &bases, &[0]).await.unwrap();
    }
    let current = now["state_id"].as_u64().unwrap();
    assert!(current >= at + 4, "the game went on from b: {now}");
    assert_eq!(owner(&database, &game).await.as_deref(), Some("b"));
    a.signal("-CONT");
    let resumed = Instant::now();
    // The player whose socket stayed on a is told to follow again, and then sees the state
    // the game is at (on main before issue 53 it saw nothing for minutes).
    let seen = tokio::time::timeout(Duration::from_secs(20), on_a.state(current, &bases, &[]))
        .await
        .expect("the player on the resumed instance sees the game go on within 20 s")
        .unwrap();
    eprintln!(
        "the old socket on the resumed owner saw the current state {:?} after SIGCONT",
        resumed.elapsed()
    );
    assert_eq!(seen["state_id"].as_u64(), Some(current), "{seen}");
    assert!(on_a.resumed > 0, "the old socket was told to follow again");
    // A new subscriber sent to a gets the current state, never the stale one.
    let mut fresh = Player::join(solo, &game, &bases, 0).await.unwrap();
    let first = tokio::time::timeout(Duration::from_secs(20), fresh.state(0, &bases, &[]))
        .await
        .expect("a new subscriber on the resumed instance gets a state within 20 s")
        .unwrap();
    assert_eq!(first["state_id"].as_u64(), Some(current), "{first}");
    assert_eq!(fresh.on, 0, "it was served by a");
    assert_eq!(owner(&database, &game).await.as_deref(), Some("b"));
    let log = std::fs::read_to_string(&a.log).unwrap_or_default();
    assert!(
        log.contains("its room stops serving it"),
        "a dropped the room of the game it lost:\n{log}"
    );
}

/// Issue 53: the instance running a game is killed (SIGKILL), then drained (SIGTERM), and
/// each time restarted at once on its port, while its players, on the two other instances,
/// play on through it. The restarted
/// instance takes connections before it claims games, and a forwarder refused by it reads
/// the lease again rather than waiting out its life: the players see at most a reconnect.
/// The longest gap between two acknowledged moves is printed; it is asserted only against
/// the ~6 s wait (a life and two heartbeats) that this case cost before.
#[tokio::test]
async fn an_owner_restarted_at_once_holds_its_game_up_no_longer_than_its_restart() {
    let database = fresh_database("pyramidion_cluster_restart_test").await;
    let bind = format!("127.0.0.1:{}", free_port());
    let mut a = Instance::start_at(&database, "a", &bind, &[]);
    let (others, _) = start_all(&database, &["b", "c"], &[]);
    let bases = vec![
        a.base.clone(),
        others[0].base.clone(),
        others[1].base.clone(),
    ];
    let http = reqwest::Client::new();
    let (alice, bob, game) = two_guests_at_a_table(&http, &bases[0], "forgotten-treasures").await;
    // Followed on a first, a runs the game; the players then follow it from b and c.
    let mut watcher = Player::join(alice.clone(), &game, &bases, 0).await.unwrap();
    watcher.state(0, &bases, &[]).await.unwrap();
    assert_eq!(owner(&database, &game).await.as_deref(), Some("a"));
    let mut duel = Duel::new(
        [
            Player::join(alice, &game, &bases, 1).await.unwrap(),
            Player::join(bob, &game, &bases, 2).await.unwrap(),
        ],
        None,
    );
    assert!(!duel.play_until(Some(6), &bases, &[]).await.unwrap());
    assert_eq!(owner(&database, &game).await.as_deref(), Some("a"));
    drop(watcher);
    // Restarted while the players play on: they follow the game again at once, while the
    // new a starts (a test that waited for the restart first would only meet an instance
    // already serving). First killed (SIGKILL), then drained (SIGTERM, a rolling restart).
    let mut longest = Duration::ZERO;
    for signal in ["-KILL", "-TERM"] {
        let owned = owner(&database, &game).await;
        let database = database.clone();
        let bind = bind.clone();
        let restarter = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            let restart = Instant::now();
            a.signal(signal);
            let _ = a.child.wait();
            let a = Instance::start_at(&database, "a", &bind, &[]);
            (a, restart.elapsed())
        });
        let ((restarted, took), gap) = play_through(&mut duel, &bases, restarter, 4).await;
        a = restarted;
        eprintln!(
            "kill {signal} of a (the game's owner then: {owned:?}), restarted in {took:?}: \
             the longest gap between two moves {gap:?}"
        );
        longest = longest.max(gap);
    }
    assert!(
        longest < Duration::from_secs(5),
        "a restart at once held the game up {longest:?}:\n{}",
        std::fs::read_to_string(&others[0].log).unwrap_or_default()
    );
    let stored = stored_moves(&database, &game).await;
    for ack in &duel.acknowledged {
        assert_eq!(
            stored.get(ack.ply as usize),
            Some(&ack.text),
            "move {}",
            ack.ply
        );
    }
    drop(a);
}
