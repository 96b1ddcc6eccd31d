//! Pushes that are not about one game a connection follows: "it is (no longer) your turn" to
//! every connection of a user, and table changes to the connections that watch the lobby.
//! Messages are offered without waiting: a connection whose queue is full misses them (its
//! page reads the list again when it reconnects or reopens the page).
use crate::protocol::ServerMsg;
use crate::room::Outbox;
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Default)]
pub struct Hub {
    /// Connections per user id.
    users: Mutex<HashMap<String, Vec<(u64, Outbox)>>>,
    /// Connections that watch the lobby.
    lobby: Mutex<Vec<(u64, Outbox)>>,
}

impl Hub {
    fn users(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<(u64, Outbox)>>> {
        self.users.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lobby(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Outbox)>> {
        self.lobby.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Connection `conn` of `user` hears of that user's turns.
    pub fn add_user(&self, user: &str, conn: u64, out: Outbox) {
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

    /// Offers `msg` to every connection of `user`.
    pub fn to_user(&self, user: &str, msg: &ServerMsg) {
        if let Some(conns) = self.users().get(user) {
            for (_, out) in conns {
                let _ = out.try_send(msg.clone());
            }
        }
    }

    /// Offers `msg` to every connection that watches the lobby.
    pub fn to_lobby(&self, msg: &ServerMsg) {
        for (_, out) in self.lobby().iter() {
            let _ = out.try_send(msg.clone());
        }
    }
}
