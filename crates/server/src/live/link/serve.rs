//! The owner's side of internal links: every game a peer forwards here, each on the room
//! that runs it (a game not run here is answered `closed`, so the peer's followers find the
//! game's owner anew).
use super::frames::{Back, BackFrame, Forward, ForwardFrame, answered};
use crate::LiveContext as Context;
use crate::link_metrics::Side;
use crate::live::protocol::ServerMsg;
use crate::live::room_cmd::{ChatCmd, Outbox, RoomCmd};
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

/// Most commands of one game waiting for its room.
const GAME_QUEUE: usize = 1024;

/// `GET /internal/link`: another instance of the cluster forwards its players' commands for
/// the games this one runs. Only an instance that knows the cluster's secret may.
pub async fn accept(
    State(state): State<Context>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(cluster) = state.cluster.clone() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    if !crate::cluster::carries_secret(&headers, &cluster.secret) {
        return StatusCode::NOT_FOUND.into_response();
    }
    // Who forwards (for the figures only: the secret is what admits it).
    let peer = headers
        .get(super::peer::PEER_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    upgrade.on_upgrade(move |socket| async move {
        state.metrics.links.opened(Side::In, &peer);
        serve_peer(state.clone(), socket).await;
        state.metrics.links.closed(Side::In, &peer, false);
    })
}

/// What a game's service sends back: tagged with its game for the link's writer.
#[derive(Clone)]
struct ToPeer {
    game: String,
    tx: mpsc::Sender<BackFrame>,
}

impl ToPeer {
    async fn send(&self, back: Back) -> Result<(), ()> {
        let frame = BackFrame {
            game: self.game.clone(),
            back,
        };
        self.tx.send(frame).await.map_err(|_| ())
    }
}

/// Serves one peer's link: its frames go to each game's service, in order per game.
async fn serve_peer(state: Context, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (to_peer, mut outgoing) = mpsc::channel::<BackFrame>(4096);
    let metrics = state.metrics.clone();
    tokio::spawn(async move {
        while let Some(frame) = outgoing.recv().await {
            let text = serde_json::to_string(&frame).expect("messages serialise");
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
            metrics.links.sent(Side::In);
        }
        let _ = sink.close().await;
    });
    let mut games: HashMap<String, mpsc::Sender<Forward>> = HashMap::new();
    while let Some(frame) = stream.next().await {
        let text = match frame {
            Ok(Message::Text(t)) => t,
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => continue,
        };
        state.metrics.links.received(Side::In);
        let Ok(ForwardFrame { game, cmd }) = serde_json::from_str(&text) else {
            tracing::error!("an unreadable command on the internal link");
            break;
        };
        let running = games.get(&game).filter(|tx| !tx.is_closed()).cloned();
        let tx = match running {
            Some(tx) => tx,
            // Nothing to leave: the game's service already ended.
            None if matches!(cmd, Forward::Leave) => {
                games.remove(&game);
                continue;
            }
            None => {
                let (tx, rx) = mpsc::channel(GAME_QUEUE);
                let peer = ToPeer {
                    game: game.clone(),
                    tx: to_peer.clone(),
                };
                tokio::spawn(serve_game(state.clone(), peer, rx));
                games.insert(game, tx.clone());
                tx
            }
        };
        let _ = tx.send(cmd).await;
        // Services that ended leave the map now and then.
        if games.len() >= 64 && games.len().is_power_of_two() {
            games.retain(|_, tx| !tx.is_closed());
        }
    }
    // Each game's service unsubscribes the peer's connections as its channel closes.
}

/// One game forwarded by a peer: its commands run on the room here, until the peer leaves
/// it, the link closes, or the room ends (then `closed`).
async fn serve_game(state: Context, to_peer: ToPeer, mut commands: mpsc::Receiver<Forward>) {
    let game = to_peer.game.clone();
    let room = match state.rooms.get_owned(&state, &game).await {
        Ok(Some(room)) => room,
        other => {
            let reason = match other {
                Err(e) => format!("cannot open the game: {e}"),
                _ => "not_owner".to_string(),
            };
            let _ = to_peer.send(Back::Closed { reason }).await;
            return;
        }
    };
    // The forwarding instance's connections, as connections of this one.
    let mut conns: HashMap<u64, u64> = HashMap::new();
    let queue = state.config.limits.ws_queue;
    loop {
        let forward = tokio::select! {
            forward = commands.recv() => forward,
            _ = room.tx.closed() => {
                let _ = to_peer.send(Back::Closed { reason: "room_ended".into() }).await;
                break;
            }
        };
        let Some(forward) = forward.filter(|f| !matches!(f, Forward::Leave)) else {
            break;
        };
        let Some(cmd) = room_command(forward, &mut conns, &to_peer, queue) else {
            continue;
        };
        if room.tx.send(cmd).await.is_err() {
            let _ = to_peer
                .send(Back::Closed {
                    reason: "room_ended".into(),
                })
                .await;
            break;
        }
    }
    for local in conns.into_values() {
        let _ = room.tx.send(RoomCmd::Unsubscribe { conn: local }).await;
    }
}

/// The command for the owner's room that a forwarded one becomes: the forwarding instance's
/// connection `conn` is a connection of this one (`conns`), whose messages and answers go
/// back to the peer. None for an unsubscription of a connection not known here.
fn room_command(
    forward: Forward,
    conns: &mut HashMap<u64, u64>,
    to_peer: &ToPeer,
    queue: usize,
) -> Option<RoomCmd> {
    let mut local = |conn: u64| {
        *conns
            .entry(conn)
            .or_insert_with(crate::live::room_cmd::next_conn)
    };
    Some(match forward {
        Forward::Subscribe {
            conn,
            user,
            last_event,
        } => RoomCmd::Subscribe {
            conn: local(conn),
            user,
            out: relay(conn, to_peer.clone(), queue),
            last_event,
        },
        Forward::Unsubscribe { conn } => RoomCmd::Unsubscribe {
            conn: conns.remove(&conn)?,
        },
        // `serve_game` ends on it.
        Forward::Leave => return None,
        Forward::Move {
            conn,
            user,
            state_id,
            text,
        } => RoomCmd::Move {
            conn: local(conn),
            user,
            state_id,
            text,
            received: Instant::now(),
        },
        Forward::Chat {
            conn,
            user,
            name,
            text,
            phrase,
        } => RoomCmd::Chat(ChatCmd {
            conn: local(conn),
            user,
            name,
            text,
            phrase,
        }),
        Forward::Progress { req } => {
            let (reply, answer) = oneshot::channel();
            let to_peer = to_peer.clone();
            tokio::spawn(async move {
                if let Ok((stage, moves)) = answer.await {
                    let _ = to_peer.send(Back::Progress { req, stage, moves }).await;
                }
            });
            RoomCmd::Progress(reply)
        }
        Forward::Act { req, user, action } => {
            let (reply, answer) = oneshot::channel::<crate::live::endings::Answer>();
            let to_peer = to_peer.clone();
            tokio::spawn(async move {
                let back = match answer.await {
                    Ok(answer) => answered(req, answer),
                    Err(_) => Back::Answer {
                        req,
                        ok: None,
                        error: None,
                    },
                };
                let _ = to_peer.send(back).await;
            });
            RoomCmd::Act {
                user,
                action,
                reply,
            }
        }
    })
}

/// An outbox whose messages go back over the link for the forwarding instance's `conn`.
fn relay(conn: u64, to_peer: ToPeer, queue: usize) -> Outbox {
    let (out, mut messages) = crate::queue::channel::<ServerMsg>(queue.max(1));
    tokio::spawn(async move {
        while let Some(msg) = messages.recv().await {
            let Ok(raw) = serde_json::value::to_raw_value(&msg) else {
                continue;
            };
            if to_peer.send(Back::Msg { conn, msg: raw }).await.is_err() {
                break;
            }
        }
    });
    out
}
