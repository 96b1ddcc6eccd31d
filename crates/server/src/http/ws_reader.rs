//! The reading side of a client's WebSocket (`crate::http::ws`): what ends the socket
//! (idleness, the writer gone, a drain, its session ended here or elsewhere) and what refuses
//! one message (not text, over the address's rate, malformed, the session not checkable now).
use crate::AppState;
use crate::error_code::ApiErrorCode;
use crate::live::protocol::{ClientMsg, ServerMsg};
use crate::live::room_cmd::Outbox;
use axum::extract::ws::Message;
use futures_util::StreamExt;
use std::net::IpAddr;
use std::time::Instant;
use tokio::sync::oneshot;

/// Whether the socket's session still exists (it is checked before every move and
/// subscription, which also covers sessions ended on another server instance). A database
/// that cannot answer is an error, not "signed out": the session may well be there.
async fn signed_in(
    state: &AppState,
    session: Option<&str>,
) -> Result<bool, crate::db::error::StoreError> {
    match session {
        None => Ok(true),
        Some(hash) => Ok(state
            .store
            .session_user(hash, crate::http::auth::session_cutoff(state))
            .await?
            .is_some()),
    }
}

/// The reading side of a socket: what ends it (idleness, the writer gone, a drain, the
/// session ended) and what refuses one message (not text, over the rate, malformed, the
/// session not checkable now).
pub(crate) struct Reader<'a> {
    pub state: &'a AppState,
    pub session: Option<&'a str>,
    pub out: &'a Outbox,
    pub ip: IpAddr,
    /// When the session was last read from the database.
    pub checked: Instant,
    pub signed_out: tokio::sync::broadcast::Receiver<String>,
    pub draining: tokio::sync::watch::Receiver<bool>,
}

fn signed_out_msg() -> ServerMsg {
    ServerMsg::error(
        ApiErrorCode::Unauthorized,
        "the session of this connection has ended: connect again",
        None,
    )
}

impl Reader<'_> {
    /// The client's next message to handle; none once the socket is to close.
    pub async fn next<E>(
        &mut self,
        stream: &mut (impl futures_util::Stream<Item = Result<Message, E>> + Unpin),
        writer_gone: &mut oneshot::Receiver<()>,
        idle: std::time::Duration,
    ) -> Option<ClientMsg> {
        loop {
            let message = tokio::select! {
                // Anything (a pong too) counts as a sign of life.
                m = tokio::time::timeout(idle, stream.next()) => match m {
                    Ok(Some(Ok(m))) => m,
                    Ok(_) => return None,
                    Err(_) => {
                        tracing::debug!("closing an idle WebSocket");
                        return None;
                    }
                },
                _ = &mut *writer_gone => return None,
                // The instance drains (`crate::live::drain`): the client reconnects, to
                // another one.
                _ = async { drop(self.draining.wait_for(|d| *d).await) } => return None,
                ended = self.signed_out.recv() => {
                    if self.session_ended(ended).await {
                        let _ = self.out.send(signed_out_msg()).await;
                        return None;
                    }
                    continue;
                }
            };
            let text = match message {
                Message::Text(t) => t.to_string(),
                Message::Binary(_) => {
                    self.refuse(
                        ApiErrorCode::BadRequest,
                        "messages are JSON text".into(),
                        None,
                    )
                    .await;
                    continue;
                }
                Message::Close(_) => return None,
                _ => continue,
            };
            // One budget per address, shared by its sockets: more sockets are no more
            // messages.
            if !self.state.ws_limit.allow(self.ip) {
                self.refuse(
                    ApiErrorCode::RateLimited,
                    "too many messages: slow down".into(),
                    None,
                )
                .await;
                continue;
            }
            let msg: ClientMsg = match serde_json::from_str(&text) {
                Ok(m) => m,
                Err(e) => {
                    self.refuse(
                        ApiErrorCode::BadRequest,
                        format!("malformed message: {e}"),
                        None,
                    )
                    .await;
                    continue;
                }
            };
            match self.recheck(&msg).await {
                Recheck::Go => return Some(msg),
                Recheck::Refused => continue,
                Recheck::SignedOut => return None,
            }
        }
    }

    async fn refuse(&self, code: ApiErrorCode, message: String, game: Option<&str>) {
        let _ = self.out.send(ServerMsg::error(code, message, game)).await;
    }

    /// Whether a sign-out broadcast ends this socket's session.
    async fn session_ended(
        &self,
        ended: Result<String, tokio::sync::broadcast::error::RecvError>,
    ) -> bool {
        match ended {
            Ok(hash) => self.session == Some(hash.as_str()),
            // Missed sign-outs: read the session again (still signed in while the database
            // cannot tell; the next move checks again).
            Err(_) => matches!(
                Box::pin(signed_in(self.state, self.session)).await,
                Ok(false)
            ),
        }
    }

    /// A logout on this server closes the socket at once (`next`); one on another instance,
    /// or an expiry, is noticed here, within `limits.session_recheck`, before a message that
    /// plays.
    async fn recheck(&mut self, msg: &ClientMsg) -> Recheck {
        let game = match msg {
            ClientMsg::Move { game, .. }
            | ClientMsg::Subscribe { game, .. }
            | ClientMsg::Chat { game, .. } => game.as_str(),
            _ => return Recheck::Go,
        };
        if self.checked.elapsed() < self.state.config.limits.session_recheck {
            return Recheck::Go;
        }
        match Box::pin(signed_in(self.state, self.session)).await {
            Ok(true) => {
                self.checked = Instant::now();
                Recheck::Go
            }
            Ok(false) => {
                let _ = self.out.send(signed_out_msg()).await;
                Recheck::SignedOut
            }
            // The database cannot answer: this message is refused as `unavailable` (try
            // again), the socket stays signed in, and the next one checks again.
            Err(e) => {
                tracing::warn!(error = %e, "cannot check a socket's session: its message is refused as unavailable");
                self.refuse(
                    ApiErrorCode::Unavailable,
                    "the database cannot be reached just now: try again shortly".into(),
                    Some(game),
                )
                .await;
                Recheck::Refused
            }
        }
    }
}

/// What the session check says of a message.
enum Recheck {
    Go,
    Refused,
    SignedOut,
}
