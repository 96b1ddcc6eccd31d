//! Tests on paused time: nothing waits for real. The server starts on real time (its
//! database connections open then); then the clock is paused and only the test moves it
//! (`advance`). A blocking task held open until the guard is dropped keeps tokio's
//! auto-advance off: it would otherwise jump to the next timer whenever the runtime waits on
//! another thread (the database's, the bots'), and so run out timeouts that are not part of
//! the test.
use super::*;
use futures_util::StreamExt;
use pyramidion_server::time_control::parse_profiles;
use serde_json::Value;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

pub const LONG: Duration = Duration::from_secs(400 * 24 * 3600);

/// A server whose clock profiles are `clocks`, whose own timeouts (pings, idle sockets, slow
/// requests) never fire while time jumps ahead.
pub async fn server_on_paused_time(name: &str, clocks: &str) -> TestServer {
    let profiles = parse_profiles(clocks).unwrap();
    start_sqlite_with(name, |c| {
        c.clocks = profiles;
        let l = &mut c.limits;
        (l.ws_ping_every, l.ws_idle_timeout, l.ws_send_timeout) = (LONG, LONG, LONG);
        (l.header_timeout, l.body_timeout, l.sweep_every, l.room_idle) = (LONG, LONG, LONG, LONG);
    })
    .await
}

/// The next text message, with no timeout of its own (time is paused: a timeout would fire
/// as soon as the server is busy).
pub async fn next_untimed(ws: &mut Socket) -> Value {
    loop {
        match ws.ws.next().await.expect("socket open").expect("no error") {
            Message::Text(t) => return ws.decode(&t),
            _ => continue,
        }
    }
}

/// Pauses the clock; from now on, until the guard is dropped, time moves only by [`advance`].
#[must_use]
pub fn freeze() -> std::sync::mpsc::Sender<()> {
    tokio::time::pause();
    let (guard, dropped) = std::sync::mpsc::channel::<()>();
    tokio::task::spawn_blocking(move || {
        let _ = dropped.recv();
    });
    guard
}

pub async fn advance(by: Duration) {
    tokio::time::advance(by).await;
}

/// Lets the server's other threads (the database's, the bots') work for `ms` of real time
/// while the game's time stands still.
pub async fn let_threads_run(ms: u64) {
    tokio::task::spawn_blocking(move || std::thread::sleep(Duration::from_millis(ms)))
        .await
        .unwrap();
}

/// The text messages already received, decoded (logged as `next` logs them), without waiting.
pub fn ready_messages(ws: &mut Socket) -> Vec<Value> {
    use futures_util::FutureExt;
    let mut out = Vec::new();
    while let Some(Some(Ok(msg))) = ws.ws.next().now_or_never() {
        if let Message::Text(text) = msg {
            out.push(ws.decode(&text));
        }
    }
    out
}
