//! Quick pairing across several real instances on one PostgreSQL database: players asking
//! on different instances are paired, presence counts across instances, the internal
//! endpoints refuse a client, and the queue outlives the instance that held it.
use crate::cluster_support::*;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Quick pairing across instances: two players asking on different instances sit at one
/// table, and the one who waited hears of it on their own instance's socket.
#[tokio::test]
async fn players_asking_on_different_instances_are_paired() {
    use futures_util::StreamExt;
    let database = fresh_database("pyramidion_cluster_pairing_test").await;
    let (_instances, bases) = start_all(&database, &["a", "b"], &[]);
    let http = reqwest::Client::new();
    let first = guest(&http, &bases[0]).await.unwrap();
    let second = guest(&http, &bases[1]).await.unwrap();
    let mut socket = Player::join(first.clone(), "none", &bases, 0)
        .await
        .unwrap()
        .socket
        .take()
        .unwrap();
    let ask = json!({"game": "pyramids", "players": 2});
    let waiting = http
        .post(format!("{}/api/pairing", bases[0]))
        .header("cookie", &first)
        .json(&ask)
        .send()
        .await
        .unwrap();
    assert_eq!(waiting.status().as_u16(), 202);
    let seated = post(&http, format!("{}/api/pairing", bases[1]), &second, ask)
        .await
        .unwrap();
    assert_eq!(seated["status"], "seated", "{seated}");
    let table = seated["table"]["id"].as_str().unwrap().to_string();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let msg = tokio::time::timeout_at(deadline, socket.next())
            .await
            .expect("the waiting player hears of the table")
            .expect("socket open")
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "pairing" && v["table"] == table.as_str() {
                break;
            }
        }
    }
}

/// A player connected to any instance is on the site (no push or mail for their turn): each
/// instance records its users' open connections, and a closed one is forgotten.
#[tokio::test]
async fn a_player_connected_to_another_instance_counts_as_present() {
    let database = fresh_database("pyramidion_cluster_presence_test").await;
    let (_instances, bases) = start_all(&database, &["a", "b"], &[]);
    let http = reqwest::Client::new();
    let cookie = guest(&http, &bases[1]).await.unwrap();
    let user = user_id(&http, &bases[1], &cookie).await;
    let presence = async |user: &str| -> Vec<(String, i64)> {
        let mut c = db(&database).await;
        sqlx::query_as("SELECT instance, conns FROM presence WHERE user_id = $1")
            .bind(user)
            .fetch_all(&mut c)
            .await
            .unwrap()
    };
    let mut player = Player::join(cookie, "none", &bases, 1).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while presence(&user).await != vec![("b".to_string(), 1)] {
        assert!(Instant::now() < deadline, "{:?}", presence(&user).await);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(player.socket.take());
    while !presence(&user).await.is_empty() {
        assert!(Instant::now() < deadline, "{:?}", presence(&user).await);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The instances' own endpoints answer only an instance of the cluster: without its secret
/// (or with a wrong one) they do not exist.
#[tokio::test]
async fn the_internal_endpoints_refuse_a_client() {
    let database = fresh_database("pyramidion_cluster_internal_test").await;
    let (_instances, bases) = start_all(&database, &["a"], &[]);
    let http = reqwest::Client::new();
    for secret in [None, Some("guess")] {
        let with = |r: reqwest::RequestBuilder| match secret {
            Some(s) => r.header("x-pyramidion-cluster", s),
            None => r,
        };
        let link = with(http.get(format!("{}/internal/link", bases[0])))
            .header("connection", "upgrade")
            .header("upgrade", "websocket")
            .header("sec-websocket-version", "13")
            .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
            .send()
            .await
            .unwrap();
        assert_eq!(link.status().as_u16(), 404, "{secret:?}");
        let pairing = with(http.post(format!("{}/internal/pairing", bases[0])))
            .header("x-pyramidion-user", "someone")
            .body(r#"{"game": "pyramids", "players": 2}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(pairing.status().as_u16(), 404, "{secret:?}");
    }
    // With the secret, an instance is answered (the routes exist).
    let mut c = db(&database).await;
    let secret: String =
        sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = 'cluster_link'")
            .fetch_one(&mut c)
            .await
            .unwrap();
    let me = guest(&http, &bases[0]).await.unwrap();
    let user = user_id(&http, &bases[0], &me).await;
    let pairing = http
        .post(format!("{}/internal/pairing", bases[0]))
        .header("x-pyramidion-cluster", &secret)
        .header("x-pyramidion-user", &user)
        .body(r#"{"game": "pyramids", "players": 2}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(pairing.status().as_u16(), 202);
}

/// The quick-pairing queue outlives the instance that holds it: a player asks through B while
/// A holds the queue (their row is in the database before the answer); A is killed (`kill
/// -9`); a second player asks through C, which takes the queue over from the database, and
/// both sit at one table. The "waiting" counts are right throughout.
#[tokio::test]
async fn the_pairing_queue_survives_the_death_of_its_holder() {
    use futures_util::StreamExt;
    let database = fresh_database("pyramidion_cluster_pairing_holder_test").await;
    let (mut instances, bases) = start_all(&database, &["a", "b", "c"], &[]);
    let http = reqwest::Client::new();
    // Asked first, A holds the queue.
    let counts = |base: String| {
        let http = http.clone();
        async move {
            // While its holder is dead but not yet known to be, the queue is "moving": the
            // page asks again, as this does.
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                let r = http
                    .get(format!("{base}/api/pairing"))
                    .send()
                    .await
                    .unwrap();
                if r.status().as_u16() != 503 {
                    assert_eq!(r.status().as_u16(), 200);
                    return r.json::<Value>().await.unwrap()["waiting"].clone();
                }
                assert!(Instant::now() < deadline, "the queue never found a holder");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    };
    assert_eq!(counts(bases[0].clone()).await, json!([]));
    assert_eq!(owner(&database, "~pairing").await.as_deref(), Some("a"));
    let first = guest(&http, &bases[1]).await.unwrap();
    let first_id = user_id(&http, &bases[1], &first).await;
    let mut socket = Player::join(first.clone(), "none", &bases, 1)
        .await
        .unwrap()
        .socket
        .take()
        .unwrap();
    let ask = json!({"game": "pyramids", "players": 2});
    let waiting = post(
        &http,
        format!("{}/api/pairing", bases[1]),
        &first,
        ask.clone(),
    )
    .await
    .unwrap();
    assert_eq!(
        waiting,
        json!({"status": "waiting", "waiting": 1, "other_kind": 0, "out_of_range": 0})
    );
    let one =
        json!([{"game": "pyramids", "players": 2, "clock": null, "rated": false, "waiting": 1}]);
    assert_eq!(counts(bases[2].clone()).await, one);
    let queued = async || -> Vec<String> {
        let mut c = db(&database).await;
        sqlx::query_scalar("SELECT user_id FROM pairing_queue")
            .fetch_all(&mut c)
            .await
            .unwrap()
    };
    assert_eq!(queued().await, vec![first_id.clone()]);

    instances[0].kill();
    let second = guest(&http, &bases[2]).await.unwrap();
    let second_id = user_id(&http, &bases[2], &second).await;
    let _second_socket = Player::join(second.clone(), "none", &bases, 2)
        .await
        .unwrap();
    // The new holder reads the queue from the database: the first player still waits.
    assert_eq!(counts(bases[2].clone()).await, one);
    assert_ne!(owner(&database, "~pairing").await.as_deref(), Some("a"));
    let seated = post(&http, format!("{}/api/pairing", bases[2]), &second, ask)
        .await
        .unwrap();
    assert_eq!(seated["status"], "seated", "{seated}");
    let table = seated["table"]["id"].as_str().unwrap().to_string();
    let mut c = db(&database).await;
    let seats: Vec<String> =
        sqlx::query_scalar("SELECT user_id FROM seats WHERE game_id = $1 ORDER BY seat")
            .bind(&table)
            .fetch_all(&mut c)
            .await
            .unwrap();
    assert_eq!(
        seats,
        vec![first_id, second_id],
        "the one who waited sits first"
    );
    assert!(queued().await.is_empty());
    assert_eq!(counts(bases[1].clone()).await, json!([]));
    // The first player hears of the table on their own instance's socket.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let msg = tokio::time::timeout_at(deadline, socket.next())
            .await
            .expect("the waiting player hears of the table")
            .expect("socket open")
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["type"] == "pairing" && v["table"] == table.as_str() {
                break;
            }
        }
    }
}

/// With `--internal-listen`, the cluster's routes are served there only: the public listener
/// answers them 404 even with the cluster's secret (issue 54), the internal one serves them.
#[tokio::test]
async fn with_an_internal_listener_the_public_one_refuses_internal_routes() {
    let database = fresh_database("pyramidion_cluster_internal_listen_test").await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let internal_at = format!("127.0.0.1:{port}");
    let (_instances, bases) = start_all(&database, &["a"], &["--internal-listen", &internal_at]);
    let internal = format!("http://{internal_at}");
    let http = reqwest::Client::new();
    let mut c = db(&database).await;
    let secret: String =
        sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = 'cluster_link'")
            .fetch_one(&mut c)
            .await
            .unwrap();
    let me = guest(&http, &bases[0]).await.unwrap();
    let user = user_id(&http, &bases[0], &me).await;
    let ask = |base: &str| {
        http.post(format!("{base}/internal/pairing"))
            .header("x-pyramidion-cluster", &secret)
            .header("x-pyramidion-user", &user)
            .body(r#"{"game": "pyramids", "players": 2}"#)
            .send()
    };
    assert_eq!(ask(&bases[0]).await.unwrap().status().as_u16(), 404);
    let link = http
        .get(format!("{}/internal/link", bases[0]))
        .header("x-pyramidion-cluster", &secret)
        .header("connection", "upgrade")
        .header("upgrade", "websocket")
        .header("sec-websocket-version", "13")
        .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
        .send()
        .await
        .unwrap();
    assert_eq!(link.status().as_u16(), 404);
    assert_eq!(ask(&internal).await.unwrap().status().as_u16(), 202);
    // The instance tells the others to reach it at the internal address.
    let address: String = sqlx::query_scalar("SELECT address FROM instances WHERE id = 'a'")
        .fetch_one(&mut c)
        .await
        .unwrap();
    assert_eq!(address, internal);
}
