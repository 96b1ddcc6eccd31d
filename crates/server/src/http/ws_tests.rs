//! The socket loop over channels, without a network (issue 47, item 6): what a client sends
//! in, what the server answers out.
use super::{Hold, connection};
use crate::AppState;
use crate::db::rows::{GameRow, SeatKind};
use crate::identity::Identity;
use axum::extract::ws::Message;
use serde_json::{Value, json};
use std::convert::Infallible;
use std::time::Duration;
use tokio::sync::mpsc;

/// A client's ends of a socket served by [`connection`]: what it sends, what it receives,
/// and the loop's task.
struct Client {
    to_server: mpsc::Sender<Result<Message, Infallible>>,
    from_server: mpsc::Receiver<Message>,
    served: tokio::task::JoinHandle<()>,
}

impl Client {
    async fn send(&self, msg: Value) {
        let text = Message::Text(msg.to_string().into());
        self.to_server.send(Ok(text)).await.unwrap();
    }

    /// The next text message (pings skipped).
    async fn recv(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(20), self.from_server.recv())
                .await
                .expect("the server answers")
                .expect("the socket is open");
            if let Message::Text(t) = m {
                return serde_json::from_str(&t).unwrap();
            }
        }
    }

    /// The next message of `kind`, others skipped.
    async fn recv_type(&mut self, kind: &str) -> Value {
        loop {
            let m = self.recv().await;
            if m["type"] == kind {
                return m;
            }
        }
    }
}

/// A server state on a fresh SQLite database.
async fn state() -> AppState {
    let dir = std::env::temp_dir().join(format!(
        "pyramidion-ws-loop-{}-{}",
        std::process::id(),
        crate::secret::random_hex(6)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = crate::Config::new(format!(
        "sqlite://{}?mode=rwc",
        dir.join("test.db").display()
    ));
    config.bot_pace = Duration::ZERO;
    AppState::new(config).await.expect("the server opens")
}

/// Serves a socket for `identity` on `state`, over channels.
fn open(state: &AppState, identity: Option<Identity>) -> Client {
    let (to_server, incoming) = mpsc::channel::<Result<Message, Infallible>>(64);
    let (outgoing, from_server) = mpsc::channel::<Message>(64);
    let sink = Box::pin(futures_util::sink::unfold(
        outgoing,
        async |out: mpsc::Sender<Message>, m: Message| out.send(m).await.map(|_| out),
    ));
    let stream = Box::pin(futures_util::stream::unfold(incoming, async |mut rx| {
        rx.recv().await.map(|m| (m, rx))
    }));
    let ip = std::net::IpAddr::from([127, 0, 0, 1]);
    let served = tokio::spawn(connection(
        state.clone(),
        identity,
        None,
        (sink, stream),
        ip,
        Hold::default(),
        false,
    ));
    Client {
        to_server,
        from_server,
        served,
    }
}

/// A live two-player game (the first registered game that seats two): `user` at seat 0, a
/// random bot at seat 1.
async fn live_game(state: &AppState, user: &str) -> String {
    state
        .store
        .create_user(user, Some(user), None, false)
        .await
        .unwrap();
    let id = crate::secret::random_hex(8);
    let row = GameRow {
        id: id.clone(),
        kind: *pyramidion_games::GameKind::ALL
            .iter()
            .find(|k| k.descriptor().seats.contains(2))
            .expect("a two-player game"),
        options: json!({"players": 2}).to_string(),
        seed: 7,
        status: crate::game_status::GameStatus::Live,
        listed: true,
        invite: crate::secret::random_hex(12),
        clock: None,
        clock_state: None,
        to_move: None,
        created_by: user.to_string(),
        result: None,
        created_at: crate::wall_clock::now_ms(),
        rated: false,
        finished_at: None,
    };
    let seats = [
        SeatKind::Human(user.to_string()),
        SeatKind::Bot("random".parse().unwrap()),
    ];
    state.store.create_game(&row, &seats).await.unwrap();
    id
}

fn player(user: &str) -> Identity {
    Identity {
        user_id: user.to_string(),
        name: Some(user.to_string()),
        guest: false,
    }
}

#[tokio::test]
async fn a_subscription_then_a_move_is_answered_with_the_next_state() {
    let state = state().await;
    let game = live_game(&state, "ada").await;
    let mut client = open(&state, Some(player("ada")));
    assert_eq!(client.recv().await["type"], "hello");
    // Seat 0's turn: the bot plays first when the seed says so, then it is the player's.
    let ours = loop {
        client
            .send(json!({"type": "subscribe", "game": game}))
            .await;
        let s = client.recv_type("state").await;
        assert_eq!(s["seat"], 0, "{s}");
        if s["to_move"] == 0 {
            break s;
        }
        client
            .send(json!({"type": "unsubscribe", "game": game}))
            .await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let played = ours["legal"][0]["text"].as_str().expect("a legal move");
    let state_id = ours["state_id"].as_u64().unwrap();
    client
        .send(json!({"type": "move", "game": game, "state_id": state_id, "move": played}))
        .await;
    let next = loop {
        let m = client.recv().await;
        assert_ne!(m["type"], "error", "{m}");
        if m["type"] == "patch" || m["type"] == "state" {
            break m;
        }
    };
    assert_eq!(next["game"], game.as_str());
    assert!(next["state_id"].as_u64().unwrap() > state_id, "{next}");
    // A move on a state that is gone is refused, and says so.
    client
        .send(json!({"type": "move", "game": game, "state_id": state_id, "move": played}))
        .await;
    let refused = client.recv_type("error").await;
    assert_eq!(refused["game"], game.as_str(), "{refused}");
}

#[tokio::test]
async fn a_ping_is_answered_and_bad_input_is_refused_without_closing() {
    let state = state().await;
    let mut client = open(&state, None);
    client.send(json!({"type": "ping", "id": 7})).await;
    assert_eq!(client.recv().await, json!({"type": "pong", "id": 7}));
    client.send(json!({"type": "no_such_message"})).await;
    assert_eq!(client.recv().await["code"], "bad_request");
    // Without an identity a move is refused; the socket still answers afterwards.
    client
        .send(json!({"type": "move", "game": "g", "state_id": 0, "move": "x"}))
        .await;
    assert_eq!(client.recv().await["code"], "unauthorized");
    client.send(json!({"type": "ping"})).await;
    assert_eq!(client.recv().await["type"], "pong");
}

#[tokio::test]
async fn a_close_ends_the_loop_and_the_server_says_goodbye() {
    let state = state().await;
    let mut client = open(&state, None);
    client.send(json!({"type": "ping", "id": 1})).await;
    client.recv_type("pong").await;
    assert_eq!(
        state
            .metrics
            .connections
            .load(std::sync::atomic::Ordering::Relaxed),
        1
    );
    client
        .to_server
        .send(Ok(Message::Close(None)))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(10), &mut client.served)
        .await
        .expect("the loop ends")
        .unwrap();
    let mut last = None;
    while let Ok(m) = client.from_server.try_recv() {
        last = Some(m);
    }
    assert!(matches!(last, Some(Message::Close(_))), "{last:?}");
    assert_eq!(
        state
            .metrics
            .connections
            .load(std::sync::atomic::Ordering::Relaxed),
        0
    );
}
