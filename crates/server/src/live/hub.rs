//! Pushes that are not about one game a connection follows: "it is (no longer) your turn" to
//! every connection of a user, and table changes to the connections that watch the lobby.
//! Messages are offered without waiting: a connection whose queue is full misses them (its
//! page reads the list again when it reconnects or reopens the page).
use crate::live::protocol::ServerMsg;
use crate::live::room_cmd::Outbox;
use crate::reach::{Away, Kind};
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

/// A push for `user`'s connections (none: the lobby's), passed to the other instances of a
/// cluster (`crate::live::fanout`).
pub struct Push {
    pub user: Option<String>,
    pub msg: ServerMsg,
}

#[derive(Default)]
pub struct Hub {
    /// Connections per user id.
    users: Mutex<HashMap<String, Vec<(u64, Outbox)>>>,
    /// Connections that watch the lobby.
    lobby: Mutex<Vec<(u64, Outbox)>>,
    /// Where events for players away go (`crate::reach`); set once at start.
    away: OnceLock<tokio::sync::mpsc::UnboundedSender<Away>>,
    /// (user, game) where the user is known to be to move: "your move" reaches a player
    /// away once per turn, not once per move of a turn or per room rebuilt.
    to_move: Mutex<HashSet<(String, String)>>,
    /// With several instances, every push also goes to the others (`crate::live::fanout`).
    fanout: OnceLock<tokio::sync::mpsc::UnboundedSender<Push>>,
    /// With several instances: where users' connections are recorded, so that a player on
    /// another instance counts as on the site.
    cluster: OnceLock<std::sync::Arc<crate::cluster::Cluster>>,
}

impl Hub {
    fn users(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<(u64, Outbox)>>> {
        self.users.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lobby(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Outbox)>> {
        self.lobby.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Users' connections count on every instance of `cluster` from now on.
    pub fn in_cluster(&self, cluster: std::sync::Arc<crate::cluster::Cluster>) {
        let _ = self.cluster.set(cluster);
    }

    /// Connection `conn` of `user` hears of that user's turns.
    pub fn add_user(&self, user: &str, conn: u64, out: Outbox) {
        if let Some(cluster) = self.cluster.get() {
            cluster.connections_changed(user, 1);
        }
        self.users()
            .entry(user.to_string())
            .or_default()
            .push((conn, out));
    }

    /// Connection `conn` watches the lobby (or stops).
    pub fn watch_lobby(&self, conn: u64, out: Option<Outbox>) {
        let mut lobby = self.lobby();
        lobby.retain(|(c, _)| *c != conn);
        if let Some(out) = out {
            lobby.push((conn, out));
        }
    }

    /// Forgets a closed connection.
    pub fn remove(&self, conn: u64, user: Option<&str>) {
        if let Some(user) = user {
            if let Some(cluster) = self.cluster.get() {
                cluster.connections_changed(user, -1);
            }
            let mut users = self.users();
            if let Some(conns) = users.get_mut(user) {
                conns.retain(|(c, _)| *c != conn);
                if conns.is_empty() {
                    users.remove(user);
                }
            }
        }
        self.watch_lobby(conn, None);
    }

    /// Offers `msg` to every connection of `user` (on every instance).
    pub fn to_user(&self, user: &str, msg: &ServerMsg) {
        self.spread(Some(user), msg);
        self.to_user_here(user, msg);
    }

    /// Pushes go to the other instances through `tx` from now on.
    pub fn fan_out_with(&self, tx: tokio::sync::mpsc::UnboundedSender<Push>) {
        let _ = self.fanout.set(tx);
    }

    fn spread(&self, user: Option<&str>, msg: &ServerMsg) {
        if let Some(tx) = self.fanout.get() {
            let _ = tx.send(Push {
                user: user.map(str::to_string),
                msg: msg.clone(),
            });
        }
    }

    /// Offers `msg` to the connections of `user` on this instance.
    pub fn to_user_here(&self, user: &str, msg: &ServerMsg) {
        if let Some(conns) = self.users().get(user) {
            for (_, out) in conns {
                let _ = out.try_send(msg.clone());
            }
        }
    }

    /// Events for players away go to `tx` from now on.
    pub fn reach_with(&self, tx: tokio::sync::mpsc::UnboundedSender<Away>) {
        let _ = self.away.set(tx);
    }

    /// Whether `user` has an open connection (is on the site).
    pub fn connected(&self, user: &str) -> bool {
        self.users().get(user).is_some_and(|c| !c.is_empty())
    }

    /// Tells `user` of `kind` in `game` by push and e-mail if they have no open connection.
    pub fn away(&self, user: &str, game: &str, kind: Kind) {
        if self.connected(user) {
            return;
        }
        let Some(tx) = self.away.get().cloned() else {
            return;
        };
        let away = Away {
            user: user.to_string(),
            game: game.to_string(),
            kind,
        };
        match self.cluster.get().cloned() {
            // Connected to another instance is on the site too.
            Some(cluster) => {
                tokio::spawn(async move {
                    match cluster.present(&away.user).await {
                        Ok(true) => {}
                        Ok(false) => {
                            let _ = tx.send(away);
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, "cannot tell whether a player is on the site: told as away");
                            let _ = tx.send(away);
                        }
                    }
                });
            }
            None => {
                let _ = tx.send(away);
            }
        }
    }

    /// Whether `user` is to move in a turn-based `game` now: the first time it is (this
    /// turn), a player away hears of it if `announce` (not when a room is rebuilt).
    pub fn turn_based(&self, user: &str, game: &str, your_turn: bool, announce: bool) {
        let key = (user.to_string(), game.to_string());
        let mut to_move = self.to_move.lock().unwrap_or_else(|e| e.into_inner());
        if !your_turn {
            to_move.remove(&key);
            return;
        }
        if to_move.insert(key) && announce {
            drop(to_move);
            self.away(user, game, Kind::YourMove);
        }
    }

    /// Whether `user` is known to be to move in turn-based `game` (told since this server
    /// started).
    pub fn knows_turn(&self, user: &str, game: &str) -> bool {
        self.to_move
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(&(user.to_string(), game.to_string()))
    }

    /// Offers `msg` to every connection that watches the lobby (on every instance).
    pub fn to_lobby(&self, msg: &ServerMsg) {
        self.spread(None, msg);
        self.to_lobby_here(msg);
    }

    /// Offers `msg` to the connections of this instance that watch the lobby.
    pub fn to_lobby_here(&self, msg: &ServerMsg) {
        for (_, out) in self.lobby().iter() {
            let _ = out.try_send(msg.clone());
        }
    }
}
