//! Issue 53: a rolling restart — every instance of three drained (SIGTERM) and started again
//! at once on its port, one after another (the next once it is ready), while two players play
//! through HAProxy (deploy/haproxy.cfg), a long game (Forgotten Treasures). The players see at
//! most a reconnect: the game never stops for longer than a drain's hand-over and a
//! reconnect, and every acknowledged move is stored.
use crate::cluster_support::*;
use std::time::{Duration, Instant};

#[tokio::test]
async fn a_rolling_restart_through_the_proxy_shows_players_at_most_a_reconnect() {
    let database = fresh_database("pyramidion_cluster_rolling_test").await;
    let binds: Vec<String> = (0..3)
        .map(|_| format!("127.0.0.1:{}", free_port()))
        .collect();
    let names = ["a", "b", "c"];
    let mut instances: Vec<Option<Instance>> = names
        .iter()
        .zip(&binds)
        .map(|(n, b)| Some(Instance::start_at(&database, n, b, &[])))
        .collect();
    let (haproxy, proxy) = proxy(&instances.iter().flatten().collect::<Vec<_>>());
    let bases = vec![proxy.clone()];
    let http = reqwest::Client::new();
    let (alice, bob, game) = two_guests_at_a_table(&http, &proxy, "forgotten-treasures").await;
    let mut duel = Duel::new(
        [
            Player::join(alice, &game, &bases, 0).await.unwrap(),
            Player::join(bob, &game, &bases, 0).await.unwrap(),
        ],
        None,
    );
    assert!(!duel.play_until(Some(4), &bases, &[]).await.unwrap());
    let mut longest = Duration::ZERO;
    for (i, name) in names.iter().enumerate() {
        let owned = owner(&database, &game).await;
        let old = instances[i].take().unwrap();
        let (database, bind, name) = (database.clone(), binds[i].clone(), name.to_string());
        // Drained and started again at once, while the players play on.
        let restarter = std::thread::spawn(move || {
            let mut old = old;
            let restart = Instant::now();
            old.signal("-TERM");
            let status = old.child.wait().unwrap();
            assert!(
                status.success(),
                "a drained instance exits cleanly: {status}"
            );
            let new = Instance::start_at(&database, &name, &bind, &[]);
            // As docs/deploy.md restarts them: the next one once this one answers /readyz.
            // Draining the next before cut the cluster to one instance, or none.
            wait_ready(&new.base);
            (new, restart.elapsed())
        });
        let ((new, took), gap) = play_through(&mut duel, &bases, restarter, 3).await;
        instances[i] = Some(new);
        eprintln!(
            "instance {} restarted (the game's owner then: {owned:?}) in {took:?}: the longest \
             gap between two moves {gap:?}",
            names[i]
        );
        longest = longest.max(gap);
    }
    assert!(
        duel.play_until(None, &bases, &[]).await.unwrap(),
        "the game ends"
    );
    // Before issue 53 a restart froze games for ~7 s (a life and two heartbeats): a drain's
    // hand-over now takes a notice, so only the reconnect is left.
    assert!(
        longest < Duration::from_secs(5),
        "a rolling restart held the game up {longest:?}"
    );
    let stored = stored_moves(&database, &game).await;
    for a in &duel.acknowledged {
        assert_eq!(stored.get(a.ply as usize), Some(&a.text), "move {}", a.ply);
    }
    assert!(duel.players.iter().any(|p| p.resumed > 0));
    drop(haproxy);
}
