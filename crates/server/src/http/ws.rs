//! One WebSocket per client: it subscribes to games and sends moves; rooms answer.
use crate::AppState;
use crate::error::ApiError;
use crate::error_code::ApiErrorCode;
use crate::http::client_ip::ClientIp;
use crate::http::listen::{ConnectionSlot, Held};
use crate::http::ws_reader::Reader;
use crate::identity::Identity;
use crate::live::protocol::{ClientMsg, ServerMsg};
use crate::live::room_cmd::{ChatCmd, Outbox, RoomCmd, RoomHandle};
use axum::Extension;
use axum::extract::ws::{Message, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use std::collections::HashSet;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::Ordering;
use std::time::Instant;
use tokio::sync::oneshot;

/// Largest message a client may send.
pub const MAX_MESSAGE: usize = 16 * 1024;

/// The `Origin` of a browser's WebSocket must be this server (or a configured origin):
/// another site cannot play with a visitor's cookies.
fn origin_allowed(state: &AppState, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok()) else {
        return true; // Not a browser: cookies are the client's own.
    };
    if state.config.allowed_origins.iter().any(|o| o == origin) {
        return true;
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    origin == format!("http://{host}") || origin == format!("https://{host}")
}

/// What a WebSocket holds until it closes: its connection's global permit and address slot
/// (hyper lets go of them at the upgrade), and behind a trusted proxy a slot of the client's
/// own address.
#[derive(Default)]
struct Hold {
    _connection: Option<Held>,
    _client: Option<ConnectionSlot>,
}

pub async fn upgrade(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    ClientIp(ip): ClientIp,
    held: Option<Extension<Held>>,
    headers: HeaderMap,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
    ws: WebSocketUpgrade,
) -> Response {
    // `?deflate=1`: large messages go deflated (`crate::live::wire`).
    let deflate = query.is_some_and(|q| q.split('&').any(|p| p == "deflate=1"));
    if !origin_allowed(&state, &headers) {
        return ApiError::new(
            ApiErrorCode::ForbiddenOrigin,
            "WebSocket from another origin",
        )
        .into_response();
    }
    // Behind a trusted proxy the accept loop counted the proxy, not the client.
    let client = if crate::http::client_ip::trusted(&state.config.trusted_proxies, peer.ip()) {
        let cap = state.config.limits.connections_per_ip;
        match state.connections.take(ip, cap) {
            Some(slot) => Some(slot),
            None => {
                return ApiError::new(
                    ApiErrorCode::TooManyConnections,
                    format!("at most {cap} connections per address"),
                )
                .into_response();
            }
        }
    } else {
        None
    };
    let hold = Hold {
        _connection: held.map(|Extension(h)| h),
        _client: client,
    };
    let identity = match Identity::from_headers(&state, &headers).await {
        Ok(i) => i,
        Err(e) => return e.into_response(),
    };
    if let Some(id) = &identity {
        state.bots.note_origin(&id.user_id, ip);
    }
    // The session this socket plays with: when it ends (logout, or a new sign-in), the
    // socket stops playing.
    let session = identity
        .as_ref()
        .and_then(|_| crate::http::auth::cookie_token(&headers))
        .map(|t| crate::secret::token_hash(&t));
    // Small read chunks: the default (128 KiB) is zeroed on every read, which dominated the
    // server's profile under load, and every socket keeps one; client messages are tiny.
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(1024)
        .on_upgrade(move |socket| {
            let (sink, stream) = socket.split();
            connection(state, identity, session, (sink, stream), ip, hold, deflate)
        })
}

/// What the socket's loop needs of the socket: a sink and a stream of messages. Axum's
/// WebSocket split in two in the server; channels in the tests, so that the loop is tested
/// without a network.
pub(crate) trait Outgoing: futures_util::Sink<Message> + Send + Unpin + 'static {}
impl<T: futures_util::Sink<Message> + Send + Unpin + 'static> Outgoing for T {}

/// The socket's timings (`Limits`), copied out: the loop keeps them for its life, not a copy
/// of every limit.
#[derive(Clone, Copy)]
struct Timings {
    idle: std::time::Duration,
    send: std::time::Duration,
    ping: std::time::Duration,
}

/// Serves one client's socket (`sink`, `stream`) until it closes, idles, signs out or the
/// instance drains.
async fn connection<E>(
    state: AppState,
    identity: Option<Identity>,
    session: Option<String>,
    (sink, mut stream): (
        impl Outgoing,
        impl futures_util::Stream<Item = Result<Message, E>> + Unpin,
    ),
    ip: IpAddr,
    hold: Hold,
    deflate: bool,
) {
    let _hold = hold;
    let conn = crate::live::room_cmd::next_conn();
    state.metrics.connections.fetch_add(1, Ordering::Relaxed);
    let l = &state.config.limits;
    let timings = Timings {
        idle: l.ws_idle_timeout,
        send: l.ws_send_timeout,
        ping: l.ws_ping_every,
    };
    let (out, outbox) = crate::queue::channel::<ServerMsg>(l.ws_queue.max(1));
    let (alive, mut writer_gone) = oneshot::channel::<()>();
    let (close, closing) = oneshot::channel::<()>();
    let writer = tokio::spawn(write(sink, outbox, timings, deflate, alive, closing));
    if let Some(id) = &identity {
        // Turn pushes for this user reach this connection from now on.
        state.hub.add_user(&id.user_id, conn, out.clone());
        let _ = out
            .send(ServerMsg::Hello {
                user: id.user_id.clone(),
                name: id.display_name(),
                guest: id.guest,
            })
            .await;
    }
    let mut reader = Reader {
        state: &state,
        session: session.as_deref(),
        out: &out,
        ip,
        checked: Instant::now(),
        signed_out: state.signed_out.subscribe(),
        draining: state.draining.subscribe(),
    };
    let mut subscribed: HashSet<String> = HashSet::new();
    while let Some(msg) = reader
        .next(&mut stream, &mut writer_gone, timings.idle)
        .await
    {
        // Boxed: a message's handling (database reads, a room rebuilt) would otherwise make
        // every idle socket's task as large as its largest step (several KiB each).
        Box::pin(handle(
            &state,
            conn,
            identity.as_ref(),
            &out,
            &mut subscribed,
            msg,
        ))
        .await;
    }
    state
        .hub
        .remove(conn, identity.as_ref().map(|i| i.user_id.as_str()));
    for game in subscribed {
        if let Some(room) = state.rooms.running(&game) {
            let _ = room.tx.send(RoomCmd::Unsubscribe { conn }).await;
        }
    }
    drop(out);
    let _ = close.send(());
    let _ = writer.await;
    state.metrics.connections.fetch_sub(1, Ordering::Relaxed);
}

/// The socket's writer: messages from the queue, and a ping now and then. A socket that does
/// not take a message within `ws_send_timeout` (its client does not read) is closed.
async fn write(
    mut sink: impl Outgoing,
    mut outbox: crate::queue::Receiver<ServerMsg>,
    timings: Timings,
    deflate: bool,
    alive: oneshot::Sender<()>,
    mut closing: oneshot::Receiver<()>,
) {
    let _alive = alive;
    let mut send = async |m: Message| {
        tokio::time::timeout(timings.send, sink.send(m))
            .await
            .is_ok_and(|sent| sent.is_ok())
    };
    let text = |m: ServerMsg| {
        let json = serde_json::to_string(&m).expect("messages serialise");
        if deflate && json.len() > crate::live::wire::DEFLATE_FROM {
            Message::Binary(crate::live::wire::deflate(&json).into())
        } else {
            Message::Text(json.into())
        }
    };
    let mut ping = tokio::time::interval(timings.ping);
    ping.tick().await;
    loop {
        let message = tokio::select! {
            m = outbox.recv() => match m {
                Some(m) => text(m),
                // Every sender gone: the reader is done and dropped its own before it said
                // so (`closing`), nothing is left to flush; say goodbye all the same.
                None => {
                    let _ = send(Message::Close(None)).await;
                    return;
                }
            },
            _ = ping.tick() => Message::Ping(Default::default()),
            _ = &mut closing => {
                // The reader is done: flush what is queued, then say goodbye.
                while let Ok(m) = outbox.try_recv() {
                    if !send(text(m)).await {
                        return;
                    }
                }
                let _ = send(Message::Close(None)).await;
                return;
            }
        };
        if !send(message).await {
            tracing::debug!("closing a WebSocket that does not take its messages");
            return;
        }
    }
}

/// The room of a started game (rebuilt from storage if it is not in memory).
async fn room_of(state: &AppState, game: &str) -> Result<RoomHandle, ServerMsg> {
    let not_found =
        || ServerMsg::error(ApiErrorCode::NotFound, "no started game with that id", None);
    if !crate::live::visibility::plausible_id(game) {
        return Err(not_found());
    }
    if let Some(refused) = crate::live::capacity::refuse_room(&state.live, game) {
        return Err(refused);
    }
    match state.rooms.get(&state.live, game).await {
        Ok(Some(room)) => Ok(room),
        Ok(None) => Err(ServerMsg::error(
            ApiErrorCode::NotFound,
            "no started game with that id",
            Some(game),
        )),
        Err(e) => {
            tracing::error!(error = %e, "cannot open room");
            Err(ServerMsg::error(
                ApiErrorCode::Internal,
                "cannot open that game",
                Some(game),
            ))
        }
    }
}

/// Hands `cmd` to the game's room. A room that ended just now (finished, or dropped from
/// memory) is rebuilt and asked again.
async fn to_room(state: &AppState, game: &str, mut cmd: RoomCmd) -> Result<(), ServerMsg> {
    for _ in 0..3 {
        match room_of(state, game).await?.tx.send(cmd).await {
            Ok(()) => return Ok(()),
            Err(crate::queue::SendError(back)) => cmd = back,
        }
    }
    Err(ServerMsg::error(
        ApiErrorCode::Internal,
        "cannot open that game",
        Some(game),
    ))
}

/// Follows `game` for a user who acts in it (a move, a chat message) without having
/// subscribed: within the socket's cap on rooms and behind the same gate as `subscribe`.
async fn follow_implicitly(
    state: &AppState,
    subscribed: &mut HashSet<String>,
    game: &str,
    conn: u64,
    id: &Identity,
    identity: Option<&Identity>,
    out: &Outbox,
) -> Result<(), ServerMsg> {
    if subscribed.contains(game) {
        return Ok(());
    }
    if let Some(refused) = room_cap(state, subscribed, game) {
        return Err(refused);
    }
    let cmd = RoomCmd::Subscribe {
        conn,
        user: Some(id.user_id.clone()),
        out: out.clone(),
        last_event: None,
    };
    daily_gate(state, game, identity, None).await?;
    to_room(state, game, cmd).await?;
    subscribed.insert(game.to_string());
    Ok(())
}

/// A daily challenge's game is followed only by its player until its day is over: the deal
/// is everyone's that day (`crate::live::daily_embargo::embargo`).
///
/// An unlisted game is followed only by its players and whoever holds its invite
/// (`crate::live::visibility`); to anyone else it does not exist.
async fn daily_gate(
    state: &AppState,
    game: &str,
    identity: Option<&Identity>,
    invite: Option<&str>,
) -> Result<(), ServerMsg> {
    let user = identity.map(|i| i.user_id.as_str());
    crate::live::daily_embargo::embargo(&state.live, game, user)
        .await
        .map_err(|e| ServerMsg::error(e.code, e.message, Some(game)))?;
    if !crate::live::visibility::plausible_id(game) {
        return Ok(()); // `room_of` answers not_found
    }
    let row = match state.store.game(game).await {
        Ok(Some(row)) => row,
        Ok(None) => return Ok(()), // likewise
        Err(e) => {
            tracing::error!(error = %e, "cannot read a game");
            return Err(ServerMsg::error(
                ApiErrorCode::Internal,
                "cannot open that game",
                Some(game),
            ));
        }
    };
    match crate::live::visibility::may_see(&state.live, &row, user, invite).await {
        Ok(true) => Ok(()),
        Ok(false) => Err(ServerMsg::error(
            ApiErrorCode::NotFound,
            "no started game with that id",
            Some(game),
        )),
        Err(e) => Err(ServerMsg::error(e.code, e.message, Some(game))),
    }
}

/// A socket follows at most `rooms_per_socket` games: each keeps a room in memory.
fn room_cap(state: &AppState, subscribed: &HashSet<String>, game: &str) -> Option<ServerMsg> {
    let cap = state.config.limits.rooms_per_socket;
    if subscribed.contains(game) || subscribed.len() < cap {
        return None;
    }
    Some(ServerMsg::error(
        ApiErrorCode::TooManyGames,
        format!("one connection follows at most {cap} games: unsubscribe from one first"),
        Some(game),
    ))
}

async fn handle(
    state: &AppState,
    conn: u64,
    identity: Option<&Identity>,
    out: &Outbox,
    subscribed: &mut HashSet<String>,
    msg: ClientMsg,
) {
    let result = match msg {
        ClientMsg::Ping { id } => {
            let _ = out.send(ServerMsg::Pong { id }).await;
            Ok(())
        }
        ClientMsg::WatchLobby => {
            state.hub.watch_lobby(conn, Some(out.clone()));
            Ok(())
        }
        ClientMsg::UnwatchLobby => {
            state.hub.watch_lobby(conn, None);
            Ok(())
        }
        ClientMsg::Subscribe {
            game,
            last_event,
            invite,
        } => {
            let cmd = RoomCmd::Subscribe {
                conn,
                user: identity.map(|i| i.user_id.clone()),
                out: out.clone(),
                last_event,
            };
            let sent = match room_cap(state, subscribed, &game) {
                None => daily_gate(state, &game, identity, invite.as_deref()).await,
                Some(e) => Err(e),
            };
            let sent = match sent {
                Ok(()) => to_room(state, &game, cmd).await,
                Err(e) => Err(e),
            };
            if sent.is_ok() {
                subscribed.insert(game);
            }
            sent
        }
        ClientMsg::Unsubscribe { game } => {
            if subscribed.remove(&game)
                && let Some(r) = state.rooms.running(&game)
            {
                let _ = r.tx.send(RoomCmd::Unsubscribe { conn }).await;
            }
            Ok(())
        }
        ClientMsg::Chat { game, text, phrase } => match identity {
            None => Err(ServerMsg::error(
                ApiErrorCode::Unauthorized,
                "sign in (or get a guest identity) to chat",
                Some(&game),
            )),
            Some(id) => {
                let mut sent =
                    follow_implicitly(state, subscribed, &game, conn, id, identity, out).await;
                if sent.is_ok()
                    && let Err((code, message)) =
                        crate::live::chat::within_daily_cap(&state.live, &id.user_id).await
                {
                    sent = Err(ServerMsg::error(code, message, Some(&game)));
                }
                if sent.is_ok() {
                    let cmd = RoomCmd::Chat(ChatCmd {
                        conn,
                        user: id.user_id.clone(),
                        name: id.display_name(),
                        text,
                        phrase,
                    });
                    sent = to_room(state, &game, cmd).await;
                }
                sent
            }
        },
        ClientMsg::Move {
            game,
            state_id,
            text,
        } => match identity {
            None => Err(ServerMsg::error(
                ApiErrorCode::Unauthorized,
                "sign in (or get a guest identity) to play",
                Some(&game),
            )),
            Some(id) => {
                let mut sent =
                    follow_implicitly(state, subscribed, &game, conn, id, identity, out).await;
                if sent.is_ok() {
                    let cmd = RoomCmd::Move {
                        conn,
                        user: id.user_id.clone(),
                        state_id,
                        text,
                        received: Instant::now(),
                    };
                    sent = to_room(state, &game, cmd).await;
                }
                sent
            }
        },
    };
    if let Err(e) = result {
        let _ = out.send(e).await;
    }
}

#[cfg(test)]
#[path = "ws_tests.rs"]
mod tests;
