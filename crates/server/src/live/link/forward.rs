//! The forwarding side of a game: its remote room, which passes the room commands of this
//! instance's connections to the game's owner over the shared link (`peer`), and the owner's
//! answers back to them.
use super::frames::{Back, Forward, ForwardFrame, answer, unavailable};
use super::peer::{LinkState, Out, PeerLink, game_channel};
use crate::LiveContext as Context;
use crate::cluster::Cluster;
use crate::error_code::ApiErrorCode;
use crate::live::protocol::ServerMsg;
use crate::live::room_cmd::{ChatCmd, Outbox, RoomCmd, RoomHandle};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

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

/// A remote room's task: finds the link to the owner, then passes commands one way and
/// messages back the other until the link breaks, the owner goes, the game leaves it, or
/// nobody follows for a while.
async fn forward(
    state: Context,
    cluster: Arc<Cluster>,
    game: String,
    owner: String,
    address: String,
    mut rx: crate::queue::Receiver<RoomCmd>,
) {
    let mut forwarder = Forwarder::new(game.clone());
    match join(&state, &cluster, &game, &owner, &address).await {
        // The owner was not reached (it died, the game changed hands, or it stayed out of
        // reach while alive): its followers subscribe again.
        None => state.metrics.forward_failed("connect"),
        Some((link, back)) => {
            let session = Session {
                state: &state,
                cluster: &cluster,
                owner: &owner,
                link,
            };
            session.run(back, &mut forwarder, &mut rx).await;
        }
    }
    forwarder.give_up(&mut rx);
}

/// `game` joined to the link to `owner` at `address`: the link, and where the owner's
/// answers for the game arrive. None when the game is run elsewhere now, or its owner died,
/// or it stays out of reach while alive.
///
/// An owner that refuses connections is not waited out: it may be an instance just started
/// that claimed the game before its port was open (a restart at once), or one dying. Its
/// lease says which: while the same alive instance holds it at the same address, it is
/// tried again; once it changes hands or its holder dies, the followers subscribe again and
/// find the new owner (or take the game over).
async fn join(
    state: &Context,
    cluster: &Cluster,
    game: &str,
    owner: &str,
    address: &str,
) -> Option<(PeerLink, mpsc::Receiver<Back>)> {
    let until = tokio::time::Instant::now() + crate::cluster::LIFE + 2 * crate::cluster::HEARTBEAT;
    let mut warned = false;
    loop {
        let link = state
            .links
            .link(owner, address, &cluster.me, &cluster.secret, &state.metrics);
        let mut link_state = link.state.clone();
        // An owner that takes the connection but does not answer (stopped, or starting) is
        // not waited on past the moment its lease changes.
        let up = loop {
            tokio::select! {
                s = async { link_state.wait_for(|s| *s != LinkState::Connecting).await.map(|s| *s).ok() } => {
                    break s == Some(LinkState::Up);
                }
                _ = tokio::time::sleep(RECHECK) => {
                    if !still_holds(cluster, game, owner, address).await {
                        return None;
                    }
                }
            }
        };
        if up {
            let (back_tx, back) = game_channel();
            let joined = link.tx.send(Out::Join {
                game: game.to_string(),
                back: back_tx,
            });
            if joined.await.is_ok() {
                return Some((link, back));
            }
        }
        if !warned {
            tracing::warn!(%game, %owner, "cannot reach the instance that runs this game: reading its lease again");
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

/// One game on its owner's link.
struct Session<'a> {
    state: &'a Context,
    cluster: &'a Cluster,
    owner: &'a str,
    link: PeerLink,
}

/// What one turn of the session's loop saw.
enum Turn {
    Go,
    End,
}

impl Session<'_> {
    async fn run(
        &self,
        mut back: mpsc::Receiver<Back>,
        forwarder: &mut Forwarder,
        rx: &mut crate::queue::Receiver<RoomCmd>,
    ) {
        let mut check = tokio::time::interval(crate::cluster::HEARTBEAT);
        // The first tick is now: the owner was just found alive.
        check.reset();
        let mut idle_since = Some(Instant::now());
        let mut left = false;
        loop {
            let turn = tokio::select! {
                cmd = rx.recv() => match cmd {
                    None => Turn::End,
                    Some(cmd) => {
                        let forward = forwarder.command(cmd);
                        let turn = self.send(&forwarder.game, forward).await;
                        idle_since = forwarder.followers.is_empty().then(Instant::now);
                        turn
                    }
                },
                heard = back.recv() => match heard {
                    // The link broke, or this game was dropped from it.
                    None => {
                        self.state.metrics.forward_failed("broken");
                        left = true;
                        Turn::End
                    }
                    Some(heard) => match forwarder.heard(heard) {
                        Heard::Go => Turn::Go,
                        Heard::Closed => {
                            left = true;
                            Turn::End
                        }
                        Heard::Drop(unsubscribe) => self.send(&forwarder.game, Some(unsubscribe)).await,
                    },
                },
                _ = check.tick() => self.check(forwarder, idle_since),
            };
            if let Turn::End = turn {
                break;
            }
        }
        if !left {
            let _ = self.link.tx.try_send(Out::Frame(ForwardFrame {
                game: forwarder.game.clone(),
                cmd: Forward::Leave,
            }));
        }
    }

    async fn send(&self, game: &str, forward: Option<Forward>) -> Turn {
        let Some(cmd) = forward else {
            return Turn::Go;
        };
        let frame = ForwardFrame {
            game: game.to_string(),
            cmd,
        };
        if self.link.tx.send(Out::Frame(frame)).await.is_err() {
            self.state.metrics.forward_failed("broken");
            return Turn::End;
        }
        self.state.metrics.forwarded();
        Turn::Go
    }

    /// An owner paused or cut off does not close its link: its life ending in the database
    /// is what tells. A game nobody has followed for a while leaves the link.
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
