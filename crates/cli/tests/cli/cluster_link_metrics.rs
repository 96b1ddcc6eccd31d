//! Issue 53: the internal links' figures on `/metrics` (`pyramidion_links_open`,
//! `pyramidion_link_frames_total`, …), read from two real instances while a game is played
//! across them.
use crate::cluster_support::*;

/// The value of the series `series` (name and labels, as written) in `text`.
fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

async fn metrics(http: &reqwest::Client, base: &str) -> String {
    // Loopback: allowed by default.
    http.get(format!("{base}/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_game_played_across_two_instances_shows_on_their_link_metrics() {
    let database = fresh_database("pyramidion_ops_link_metrics_test").await;
    let (instances, bases) = start_all(&database, &["a", "b"], &[]);
    let http = reqwest::Client::new();
    let (alice, bob, game) = two_guests_at_a_table(&http, &bases[0], "pyramids").await;
    // One player on each instance: one of them forwards to the other, which runs the game.
    let mut duel = Duel::new(
        [
            Player::join(alice, &game, &bases, 0).await.unwrap(),
            Player::join(bob, &game, &bases, 1).await.unwrap(),
        ],
        None,
    );
    assert!(!duel.play_until(Some(4), &bases, &[]).await.unwrap());
    let running = owner(&database, &game).await.expect("an owner");
    let owner_at = instances.iter().position(|i| i.name == running).unwrap();
    let forwarder_at = 1 - owner_at;
    let forwarder = &instances[forwarder_at].name;
    let on_owner = metrics(&http, &bases[owner_at]).await;
    let on_forwarder = metrics(&http, &bases[forwarder_at]).await;
    let out = format!("pyramidion_links_open{{side=\"out\",peer=\"{running}\"}}");
    assert_eq!(value(&on_forwarder, &out), Some(1.0), "{on_forwarder}");
    let into = format!("pyramidion_links_open{{side=\"in\",peer=\"{forwarder}\"}}");
    assert_eq!(value(&on_owner, &into), Some(1.0), "{on_owner}");
    // The forwarder's commands (a subscription, its player's moves) went out, the owner's
    // states came back; the owner read those commands and answered.
    let frames = |text: &str, side: &str, direction: &str| {
        value(
            text,
            &format!("pyramidion_link_frames_total{{side=\"{side}\",direction=\"{direction}\"}}"),
        )
        .unwrap_or_default()
    };
    assert!(
        frames(&on_forwarder, "out", "sent") >= 2.0,
        "{on_forwarder}"
    );
    assert!(
        frames(&on_forwarder, "out", "received") >= 4.0,
        "{on_forwarder}"
    );
    assert!(frames(&on_owner, "in", "received") >= 2.0, "{on_owner}");
    assert!(frames(&on_owner, "in", "sent") >= 4.0, "{on_owner}");
    // Nothing lagged, nothing failed.
    for text in [&on_owner, &on_forwarder] {
        assert_eq!(
            value(text, "pyramidion_link_games_dropped_total"),
            Some(0.0)
        );
        assert_eq!(
            value(text, "pyramidion_link_connects_total{result=\"failed\"}"),
            Some(0.0)
        );
        assert_eq!(value(text, "pyramidion_link_reconnects_total"), Some(0.0));
    }
    assert_eq!(
        value(
            &on_forwarder,
            "pyramidion_link_connects_total{result=\"ok\"}"
        ),
        Some(1.0),
        "one link for the game (and any other game to that owner)"
    );
}
