//! The forwarding side's links: one internal WebSocket per owner instance, shared by every
//! game forwarded to it. Opened when a game first needs it; closed once no game has used it
//! for [`IDLE`]; after a failure (refused, broken) it is gone, every game on it is told (its
//! answers' channel closes) and the next game to need the owner opens a new one.
use super::frames::{Back, BackFrame, ForwardFrame};
use crate::cluster::SECRET_HEADER;
use crate::link_metrics::Side;
use crate::metrics::Metrics;
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::Message as Frame;

/// Names the forwarding instance to the owner (its figures per peer: `link_metrics`).
pub(super) const PEER_HEADER: &str = "x-pyramidion-peer";

/// How long a link no game uses stays open.
pub const IDLE: Duration = Duration::from_secs(60);

/// Longest wait for an owner to take a link.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);

/// Most messages for one game waiting to be read by its remote room: a game whose remote room
/// falls this far behind is dropped from the link (its followers subscribe again), so that it
/// never holds up the others.
const GAME_QUEUE: usize = 1024;

/// Where a link is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LinkState {
    Connecting,
    Up,
    /// Refused, broken or closed: never up again (a new link replaces it).
    Down,
}

/// What a game sends into its link: joining it (where its answers go), a command, leaving.
pub(super) enum Out {
    Join {
        game: String,
        back: mpsc::Sender<Back>,
    },
    Frame(ForwardFrame),
}

/// A link to one owner, as the games that use it hold it.
#[derive(Clone)]
pub struct PeerLink {
    pub(super) tx: mpsc::Sender<Out>,
    pub(super) state: watch::Receiver<LinkState>,
}

/// The links of this instance, by owner (its id and address).
#[derive(Default)]
pub struct Peers {
    links: Mutex<HashMap<(String, String), PeerLink>>,
}

impl Peers {
    /// The link to `owner` at `address`: the open one, or one opened now.
    pub(super) fn link(
        self: &Arc<Self>,
        owner: &str,
        address: &str,
        me: &str,
        secret: &str,
        metrics: &Arc<Metrics>,
    ) -> PeerLink {
        let key = (owner.to_string(), address.to_string());
        let mut links = self.links.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(link) = links.get(&key)
            && *link.state.borrow() != LinkState::Down
            && !link.tx.is_closed()
        {
            return link.clone();
        }
        let (tx, rx) = mpsc::channel(4096);
        let (state_tx, state) = watch::channel(LinkState::Connecting);
        let link = PeerLink { tx, state };
        links.insert(key.clone(), link.clone());
        let task = LinkTask {
            peers: self.clone(),
            key,
            me: me.to_string(),
            secret: secret.to_string(),
            metrics: metrics.clone(),
            state: state_tx,
        };
        tokio::spawn(task.run(rx));
        link
    }

    /// Links open (or opening) now.
    pub fn open(&self) -> usize {
        self.links.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Drops `key`'s entry if it is still the link of `state` (a newer one is kept).
    fn forget(&self, key: &(String, String), state: &watch::Sender<LinkState>) {
        let mut links = self.links.lock().unwrap_or_else(|e| e.into_inner());
        if links
            .get(key)
            .is_some_and(|l| l.state.same_channel(&state.subscribe()))
        {
            links.remove(key);
        }
    }
}

type LinkSocket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The task of one link.
struct LinkTask {
    peers: Arc<Peers>,
    key: (String, String),
    /// This instance's id, told to the owner.
    me: String,
    secret: String,
    metrics: Arc<Metrics>,
    state: watch::Sender<LinkState>,
}

impl LinkTask {
    async fn run(self, mut rx: mpsc::Receiver<Out>) {
        match self.connect().await {
            Ok(socket) => {
                self.state.send_replace(LinkState::Up);
                let links = &self.metrics.links;
                links.opened(Side::Out, &self.key.0);
                let failed = self.serve(socket, &mut rx).await;
                links.closed(Side::Out, &self.key.0, failed);
            }
            Err(error) => {
                self.metrics.links.connect_failed(&self.key.0);
                tracing::debug!(owner = %self.key.0, %error, "cannot open a link to an instance");
            }
        }
        // Down: no new game joins it; the games on it see their answers' channel close.
        self.state.send_replace(LinkState::Down);
        self.peers.forget(&self.key, &self.state);
        rx.close();
    }

    async fn connect(&self) -> Result<LinkSocket, String> {
        let url = format!("{}/internal/link", self.key.1.replacen("http", "ws", 1));
        let mut request =
            tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
                url.as_str(),
            )
            .map_err(|e| e.to_string())?;
        if let Ok(v) = self.secret.parse() {
            request.headers_mut().insert(SECRET_HEADER, v);
        }
        if let Ok(v) = self.me.parse() {
            request.headers_mut().insert(PEER_HEADER, v);
        }
        match tokio::time::timeout(CONNECT_TIMEOUT, tokio_tungstenite::connect_async(request)).await
        {
            Ok(Ok((socket, _))) => Ok(socket),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("timed out".into()),
        }
    }

    /// Passes the games' commands to the owner and its answers to each game, until the link
    /// breaks (true) or no game has used it for [`IDLE`] (false).
    async fn serve(&self, socket: LinkSocket, rx: &mut mpsc::Receiver<Out>) -> bool {
        let links = &self.metrics.links;
        let mut failed = false;
        let (mut sink, mut stream) = socket.split();
        let mut games: HashMap<String, mpsc::Sender<Back>> = HashMap::new();
        let mut idle = tokio::time::interval(IDLE);
        idle.reset();
        let mut used = false;
        loop {
            tokio::select! {
                out = rx.recv() => {
                    used = true;
                    let Some(out) = out else { break };
                    match out {
                        Out::Join { game, back } => {
                            games.insert(game, back);
                        }
                        Out::Frame(frame) => {
                            if matches!(frame.cmd, super::frames::Forward::Leave) {
                                games.remove(&frame.game);
                            }
                            let text = serde_json::to_string(&frame).expect("commands serialise");
                            if sink.send(Frame::Text(text.into())).await.is_err() {
                                self.metrics.forward_failed("broken");
                                failed = true;
                                break;
                            }
                            links.sent(Side::Out);
                        }
                    }
                }
                frame = stream.next() => {
                    used = true;
                    let text = match frame {
                        Some(Ok(Frame::Text(t))) => t,
                        Some(Ok(Frame::Close(_))) | None | Some(Err(_)) => {
                            self.metrics.forward_failed("broken");
                            failed = true;
                            break;
                        }
                        Some(Ok(_)) => continue,
                    };
                    links.received(Side::Out);
                    let Ok(BackFrame { game, back }) = serde_json::from_str(&text) else {
                        tracing::error!(owner = %self.key.0, "an unreadable message on the internal link");
                        self.metrics.forward_failed("broken");
                        failed = true;
                        break;
                    };
                    let Some(to_game) = games.get(&game) else { continue };
                    if let Err(e) = to_game.try_send(back) {
                        if matches!(e, mpsc::error::TrySendError::Full(_)) {
                            links.game_dropped();
                        }
                        // Gone, or too far behind: the game leaves the link (its remote room
                        // sees its channel close and sends its followers to subscribe again).
                        games.remove(&game);
                        let leave = ForwardFrame { game, cmd: super::frames::Forward::Leave };
                        let text = serde_json::to_string(&leave).expect("commands serialise");
                        if sink.send(Frame::Text(text.into())).await.is_err() {
                            failed = true;
                            break;
                        }
                        links.sent(Side::Out);
                    }
                }
                _ = idle.tick() => {
                    games.retain(|_, back| !back.is_closed());
                    if games.is_empty() && !used {
                        tracing::debug!(owner = %self.key.0, "closing an idle link");
                        break;
                    }
                    used = false;
                }
            }
        }
        let _ = sink.close().await;
        failed
    }
}

/// The capacity of a game's answers' channel.
pub(super) fn game_channel() -> (mpsc::Sender<Back>, mpsc::Receiver<Back>) {
    mpsc::channel(GAME_QUEUE)
}
