//! The internal link: how an instance serves a player whose game another instance runs.
//!
//! The instance the player reached keeps a *remote room* for the game: it takes the same
//! commands as a room (`RoomCmd`), so the WebSocket and HTTP code do not know the difference,
//! and passes them over one internal WebSocket per game to the owner, which runs them on its
//! room for a connection of its own per player. What the room says to that connection comes
//! back over the link in order and is passed on as it is (`ServerMsg::Relayed`): the owner
//! computes every view for the player's own seat, so nothing hidden is exposed by the relay.
//!
//! When the link breaks (the owner died, drained or let the game go), every follower is told
//! it no longer follows (`lagging`) and subscribes again with its last event: that
//! subscription finds the game's owner anew (this instance, once the old owner is dead), and
//! the moves it missed come from the database, so none is skipped.
use crate::cluster::{Cluster, SECRET_HEADER};
use crate::error::ApiError;
use crate::error_code::ApiErrorCode;
use crate::live::context::Context;
use crate::live::endings::Action;
use crate::live::protocol::ServerMsg;
use crate::live::room_cmd::{ChatCmd, Outbox, RoomCmd, RoomHandle};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// A command for the owner's room, from a connection of the instance that forwards it.
#[derive(Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Forward {
    Subscribe {
        conn: u64,
        user: Option<String>,
        last_event: Option<u64>,
    },
    Unsubscribe {
        conn: u64,
    },
    Move {
        conn: u64,
        user: String,
        state_id: u64,
        text: String,
    },
    Chat {
        conn: u64,
        user: String,
        name: String,
        text: Option<String>,
        phrase: Option<String>,
    },
    Progress {
        req: u64,
    },
    Act {
        req: u64,
        user: Option<String>,
        action: Action,
    },
}

/// What the owner sends back. Externally tagged: a raw message inside an internally tagged
/// enum cannot be read back (serde buffers such an enum's content, and a `RawValue` cannot
/// come from a buffer).
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Back {
    /// A message of the room for connection `conn` of the forwarding instance.
    Msg {
        conn: u64,
        msg: Box<RawValue>,
    },
    Progress {
        req: u64,
        stage: u8,
        moves: u64,
    },
    Answer {
        req: u64,
        ok: Option<crate::live::endings::Done>,
        error: Option<RefusedAct>,
    },
    /// The owner no longer runs the game here (it ended, or another instance owns it).
    Closed {
        reason: String,
    },
}

#[derive(Serialize, Deserialize)]
struct RefusedAct {
    status: u16,
    code: String,
    message: String,
}

/// A code that came over a link: one of the server's, or a rules crate's code (the stable
/// names the UI translates), interned once.
fn intern(code: &str) -> crate::error_code::Code {
    if let Some(known) = ApiErrorCode::parse(code) {
        return known.into();
    }
    static CODES: std::sync::LazyLock<std::sync::Mutex<std::collections::HashSet<&'static str>>> =
        std::sync::LazyLock::new(Default::default);
    let mut codes = CODES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(known) = codes.get(code) {
        return crate::error_code::Code::Rules(known);
    }
    let leaked: &'static str = Box::leak(code.to_string().into_boxed_str());
    codes.insert(leaked);
    crate::error_code::Code::Rules(leaked)
}

fn unavailable(game: &str) -> ApiError {
    ApiError::new(
        ApiErrorCode::Unavailable,
        format!("the server running game {game} is changing: try again in a few seconds"),
    )
}

// ---- the forwarding side ------------------------------------------------------------------

/// Starts a remote room for `game`, run by instance `owner` at `address`.
pub fn remote_room(
    state: Context,
    cluster: Arc<Cluster>,
    game: String,
    owner: String,
    address: String,
) -> RoomHandle {
    let (tx, rx) = crate::queue::channel(1024);
    tokio::spawn(forward(state, cluster, game, owner, address, rx));
    RoomHandle {
        tx,
        local: false,
        epoch: None,
    }
}

/// How soon a forwarder that cannot reach a game's owner reads the game's lease again.
const RECHECK: Duration = Duration::from_millis(250);

type LinkFrame = tokio_tungstenite::tungstenite::Message;

type LinkSocket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The internal link to `owner`'s room of `game`, at `address`; none when the game is run
/// elsewhere now, or its owner died, or it stays out of reach while alive.
///
/// An owner that refuses connections is not waited out: it may be an instance just started
/// that claimed the game before its port was open (a restart at once), or one dying. Its
/// lease says which: while the same alive instance holds it at the same address, it is
/// tried again; once it changes hands or its holder dies, the followers subscribe again and
/// find the new owner (or take the game over).
async fn connect(cluster: &Cluster, game: &str, owner: &str, address: &str) -> Option<LinkSocket> {
    let url = format!("{}/internal/link/{game}", address.replacen("http", "ws", 1));
    let until = tokio::time::Instant::now() + crate::cluster::LIFE + 2 * crate::cluster::HEARTBEAT;
    let mut warned = false;
    loop {
        let request =
            tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
                url.as_str(),
            )
            .map(|mut r| {
                if let Ok(v) = cluster.secret.parse() {
                    r.headers_mut().insert(SECRET_HEADER, v);
                }
                r
            });
        let request = match request {
            Ok(r) => r,
            // A malformed address is not cured by waiting.
            Err(e) => {
                tracing::error!(%game, %owner, %address, error = %e, "the address of the instance that runs this game is not a WebSocket URL");
                return None;
            }
        };
        let attempt = tokio::time::timeout(
            Duration::from_secs(3),
            tokio_tungstenite::connect_async(request),
        );
        tokio::pin!(attempt);
        // An owner that takes the connection but does not answer (stopped, or starting) is
        // not waited on past the moment its lease changes.
        let error = loop {
            tokio::select! {
                done = &mut attempt => match done {
                    Ok(Ok((socket, _))) => return Some(socket),
                    Ok(Err(e)) => break e.to_string(),
                    Err(_) => break "timed out".to_string(),
                },
                _ = tokio::time::sleep(RECHECK) => {
                    if !still_holds(cluster, game, owner, address).await {
                        return None;
                    }
                }
            }
        };
        if !warned {
            tracing::warn!(%game, %owner, error = %error, "cannot reach the instance that runs this game: reading its lease again");
            warned = true;
        }
        if tokio::time::Instant::now() >= until {
            return None;
        }
        tokio::time::sleep(RECHECK).await;
        if !still_holds(cluster, game, owner, address).await {
            return None;
        }
    }
}

/// Whether `owner`, at `address`, is still the alive holder of `game`'s lease by the
/// database; when the database cannot say, whether the heartbeat last saw it alive.
async fn still_holds(cluster: &Cluster, game: &str, owner: &str, address: &str) -> bool {
    match cluster.holder(game).await {
        Ok(Some((holder, at))) if holder == owner && at == address => true,
        Ok(_) => {
            tracing::info!(%game, %owner, "the game changed hands or its instance died: its followers subscribe again");
            false
        }
        Err(e) => {
            tracing::warn!(%game, error = %e, "cannot read the lease of a game");
            cluster.is_alive(owner)
        }
    }
}

enum Waiting {
    Progress(oneshot::Sender<(u8, u64)>),
    Act(oneshot::Sender<crate::live::endings::Answer>),
}

/// A remote room's own state: its followers (the forwarding instance's connections, by id)
/// and the requests waiting for the owner's answer.
struct Forwarder {
    game: String,
    followers: HashMap<u64, Outbox>,
    waiting: HashMap<u64, Waiting>,
    next_req: u64,
}

/// What to do with a message the owner sent back.
enum Heard {
    Go,
    /// A follower fell behind: the owner is told to unsubscribe it.
    Drop(Forward),
    /// The owner closed the game's link.
    Closed,
}

impl Forwarder {
    fn new(game: String) -> Self {
        Forwarder {
            game,
            followers: HashMap::new(),
            waiting: HashMap::new(),
            next_req: 0,
        }
    }

    /// The command for the owner that a room command becomes; none for what only the
    /// owner's room does (bots play, and leases are checked, there).
    fn command(&mut self, cmd: RoomCmd) -> Option<Forward> {
        Some(match cmd {
            RoomCmd::Subscribe {
                conn,
                user,
                out,
                last_event,
            } => {
                self.followers.insert(conn, out);
                Forward::Subscribe {
                    conn,
                    user,
                    last_event,
                }
            }
            RoomCmd::Unsubscribe { conn } => {
                self.followers.remove(&conn);
                Forward::Unsubscribe { conn }
            }
            RoomCmd::Move {
                conn,
                user,
                state_id,
                text,
                ..
            } => Forward::Move {
                conn,
                user,
                state_id,
                text,
            },
            RoomCmd::Chat(c) => Forward::Chat {
                conn: c.conn,
                user: c.user,
                name: c.name,
                text: c.text,
                phrase: c.phrase,
            },
            RoomCmd::Progress(reply) => Forward::Progress {
                req: self.wait(Waiting::Progress(reply)),
            },
            RoomCmd::Act {
                user,
                action,
                reply,
            } => Forward::Act {
                req: self.wait(Waiting::Act(reply)),
                user,
                action,
            },
            RoomCmd::BotMove(_) | RoomCmd::CheckLease => return None,
        })
    }

    fn wait(&mut self, w: Waiting) -> u64 {
        self.next_req += 1;
        self.waiting.insert(self.next_req, w);
        self.next_req
    }

    /// Passes on what the owner sent back: a message to its follower, or an answer to its
    /// request.
    fn heard(&mut self, back: Back) -> Heard {
        match back {
            Back::Msg { conn, msg } => {
                let Some(out) = self.followers.get(&conn) else {
                    return Heard::Go;
                };
                if out.try_send(ServerMsg::Relayed(msg)).is_ok() {
                    return Heard::Go;
                }
                // Like a room's subscriber that cannot keep up.
                crate::live::moves::tell_dropped(out, &self.game, None);
                self.followers.remove(&conn);
                Heard::Drop(Forward::Unsubscribe { conn })
            }
            Back::Progress { req, stage, moves } => {
                if let Some(Waiting::Progress(reply)) = self.waiting.remove(&req) {
                    let _ = reply.send((stage, moves));
                }
                Heard::Go
            }
            Back::Answer { req, ok, error } => {
                if let Some(Waiting::Act(reply)) = self.waiting.remove(&req) {
                    let _ = reply.send(answer(&self.game, ok, error));
                }
                Heard::Go
            }
            Back::Closed { reason } => {
                tracing::debug!(game = %self.game, reason, "the owner closed the link");
                Heard::Closed
            }
        }
    }

    /// Every follower, and every command still queued, starts again on whoever runs the
    /// game now (see the module's comment).
    fn give_up(mut self, rx: &mut crate::queue::Receiver<RoomCmd>) {
        let game = &self.game;
        rx.close();
        for out in self.followers.values() {
            crate::live::moves::tell_dropped(out, game, None);
        }
        for (_, w) in self.waiting.drain() {
            if let Waiting::Act(reply) = w {
                let _ = reply.send(Err(unavailable(game)));
            }
        }
        while let Ok(cmd) = rx.try_recv() {
            match cmd {
                RoomCmd::Subscribe { out, .. } => {
                    crate::live::moves::tell_dropped(&out, game, None)
                }
                RoomCmd::Move { conn, .. } | RoomCmd::Chat(ChatCmd { conn, .. }) => {
                    if let Some(out) = self.followers.get(&conn) {
                        let _ = out.try_send(ServerMsg::error(
                            ApiErrorCode::Unavailable,
                            "the server running this game is changing: try again in a few seconds",
                            Some(game),
                        ));
                    }
                }
                RoomCmd::Act { reply, .. } => {
                    let _ = reply.send(Err(unavailable(game)));
                }
                _ => {}
            }
        }
    }
}

/// The answer to an action the owner ran (or could not).
fn answer(
    game: &str,
    ok: Option<crate::live::endings::Done>,
    error: Option<RefusedAct>,
) -> crate::live::endings::Answer {
    match (ok, error) {
        (Some(v), _) => Ok(v),
        (None, Some(e)) => Err(ApiError::with_status(
            StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            intern(&e.code),
            e.message,
        )),
        (None, None) => Err(unavailable(game)),
    }
}

/// A remote room's task: connects to the owner, then passes commands one way and messages
/// back the other until the link breaks, the owner goes, or nobody follows for a while.
async fn forward(
    state: Context,
    cluster: Arc<Cluster>,
    game: String,
    owner: String,
    address: String,
    mut rx: crate::queue::Receiver<RoomCmd>,
) {
    let mut forwarder = Forwarder::new(game.clone());
    match connect(&cluster, &game, &owner, &address).await {
        // The owner was not reached (it died, the game changed hands, or it stayed out of
        // reach while alive): its followers subscribe again.
        None => state.metrics.forward_failed("connect"),
        Some(socket) => {
            let link = Link {
                state: &state,
                cluster: &cluster,
                owner: &owner,
            };
            link.run(socket, &mut forwarder, &mut rx).await;
        }
    }
    forwarder.give_up(&mut rx);
}

/// One game's internal WebSocket to its owner.
struct Link<'a> {
    state: &'a Context,
    cluster: &'a Cluster,
    owner: &'a str,
}

/// What one turn of the link's loop saw.
enum Turn {
    Go,
    End,
}

impl Link<'_> {
    async fn run(
        &self,
        socket: LinkSocket,
        forwarder: &mut Forwarder,
        rx: &mut crate::queue::Receiver<RoomCmd>,
    ) {
        let (mut sink, mut stream) = socket.split();
        let mut check = tokio::time::interval(crate::cluster::HEARTBEAT);
        // The first tick is now: the owner was just found alive.
        check.reset();
        let mut idle_since = Some(Instant::now());
        loop {
            let turn = tokio::select! {
                cmd = rx.recv() => match cmd {
                    None => Turn::End,
                    Some(cmd) => {
                        let turn = self.send(&mut sink, forwarder.command(cmd)).await;
                        idle_since = forwarder.followers.is_empty().then(Instant::now);
                        turn
                    }
                },
                frame = stream.next() => self.receive(&mut sink, forwarder, frame).await,
                _ = check.tick() => self.check(forwarder, idle_since),
            };
            if let Turn::End = turn {
                break;
            }
        }
        let _ = sink.close().await;
    }

    async fn send(
        &self,
        sink: &mut (impl futures_util::Sink<LinkFrame> + Unpin),
        forward: Option<Forward>,
    ) -> Turn {
        let Some(forward) = forward else {
            return Turn::Go;
        };
        let text = serde_json::to_string(&forward).expect("commands serialise");
        if sink.send(LinkFrame::Text(text.into())).await.is_err() {
            self.state.metrics.forward_failed("broken");
            return Turn::End;
        }
        self.state.metrics.forwarded();
        Turn::Go
    }

    async fn receive(
        &self,
        sink: &mut (impl futures_util::Sink<LinkFrame> + Unpin),
        forwarder: &mut Forwarder,
        frame: Option<Result<LinkFrame, tokio_tungstenite::tungstenite::Error>>,
    ) -> Turn {
        let text = match frame {
            Some(Ok(LinkFrame::Text(t))) => t,
            Some(Ok(LinkFrame::Close(_))) => return Turn::End,
            None | Some(Err(_)) => {
                self.state.metrics.forward_failed("broken");
                return Turn::End;
            }
            Some(Ok(_)) => return Turn::Go,
        };
        let Ok(back) = serde_json::from_str::<Back>(&text) else {
            tracing::error!(game = %forwarder.game, "an unreadable message on the internal link");
            self.state.metrics.forward_failed("broken");
            return Turn::End;
        };
        match forwarder.heard(back) {
            Heard::Go => Turn::Go,
            Heard::Closed => Turn::End,
            Heard::Drop(unsubscribe) => {
                let text = serde_json::to_string(&unsubscribe).expect("commands serialise");
                let _ = sink.send(LinkFrame::Text(text.into())).await;
                Turn::Go
            }
        }
    }

    /// An owner paused or cut off does not close its link: its life ending in the database
    /// is what tells. A link nobody has followed for a while closes.
    fn check(&self, forwarder: &Forwarder, idle_since: Option<Instant>) -> Turn {
        if !self.cluster.is_alive(self.owner) {
            tracing::info!(game = %forwarder.game, owner = %self.owner, "the instance running this game is gone: its followers subscribe again");
            self.state.metrics.forward_failed("owner_gone");
            return Turn::End;
        }
        let idle_after = self.state.config.limits.room_idle;
        if forwarder.followers.is_empty() && idle_since.is_some_and(|t| t.elapsed() >= idle_after) {
            return Turn::End;
        }
        Turn::Go
    }
}

// ---- the owner's side ----------------------------------------------------------------------

/// `GET /internal/link/{game}`: another instance of the cluster forwards its players' commands
/// for `game`. Only an instance that knows the cluster's secret may; the game must run here.
pub async fn accept(
    State(state): State<Context>,
    Path(game): Path<String>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(cluster) = state.cluster.clone() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let secret = headers.get(SECRET_HEADER).and_then(|v| v.to_str().ok());
    if secret != Some(cluster.secret.as_str()) {
        return StatusCode::NOT_FOUND.into_response();
    }
    upgrade.on_upgrade(move |socket| serve_link(state, game, socket))
}

async fn serve_link(state: Context, game: String, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (to_peer, mut outgoing) = mpsc::channel::<Back>(1024);
    let writer = tokio::spawn(async move {
        while let Some(back) = outgoing.recv().await {
            let text = serde_json::to_string(&back).expect("messages serialise");
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let room = match state.rooms.get_owned(&state, &game).await {
        Ok(Some(room)) => room,
        other => {
            let reason = match other {
                Err(e) => format!("cannot open the game: {e}"),
                _ => "not_owner".to_string(),
            };
            let _ = to_peer.send(Back::Closed { reason }).await;
            drop(to_peer);
            let _ = writer.await;
            return;
        }
    };
    // The forwarding instance's connections, as connections of this one.
    let mut conns: HashMap<u64, u64> = HashMap::new();
    let queue = state.config.limits.ws_queue;
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            _ = room.tx.closed() => {
                let _ = to_peer.send(Back::Closed { reason: "room_ended".into() }).await;
                break;
            }
        };
        let text = match frame {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
            Some(Ok(_)) => continue,
        };
        let Ok(forward) = serde_json::from_str::<Forward>(&text) else {
            tracing::error!(%game, "an unreadable command on the internal link");
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
    drop(to_peer);
    let _ = writer.await;
}

/// The command for the owner's room that a forwarded one becomes: the forwarding instance's
/// connection `conn` is a connection of this one (`conns`), whose messages and answers go
/// back to the peer. None for an unsubscription of a connection not known here.
fn room_command(
    forward: Forward,
    conns: &mut HashMap<u64, u64>,
    to_peer: &mpsc::Sender<Back>,
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

/// An action's answer, as it goes back over the link.
fn answered(req: u64, answer: crate::live::endings::Answer) -> Back {
    match answer {
        Ok(v) => Back::Answer {
            req,
            ok: Some(v),
            error: None,
        },
        Err(e) => Back::Answer {
            req,
            ok: None,
            error: Some(RefusedAct {
                status: e.status.as_u16(),
                code: e.code.to_string(),
                message: e.message,
            }),
        },
    }
}

/// An outbox whose messages go back over the link for the forwarding instance's `conn`.
fn relay(conn: u64, to_peer: mpsc::Sender<Back>, queue: usize) -> Outbox {
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
