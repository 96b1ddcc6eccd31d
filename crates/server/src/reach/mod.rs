//! Reaching a player who is away (no open connection): a Web Push notification to each of
//! their subscribed browsers, and a mail to their verified address (batched: at most one
//! per game and hour). Three events do: it became their move in a turn-based game (an hour
//! or more per turn), a rematch was offered to them, a table they sit at filled (its game
//! started). Each user chooses which events reach them, and how (docs/protocol.md,
//! "Notifications").
pub mod api;
pub mod mail;
pub mod push;
pub mod store;
pub mod text;

use crate::db::store::Store;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::mpsc;

/// A clock with this much time per turn or more makes a game turn-based enough to reach a
/// player away from the site when it becomes their move.
pub const TURN_BASED_MS: i64 = 3600 * 1000;

/// What happened that a player away should hear of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    YourMove,
    Rematch,
    TableFull,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::YourMove, Kind::Rematch, Kind::TableFull];

    pub fn key(self) -> &'static str {
        match self {
            Kind::YourMove => "your_move",
            Kind::Rematch => "rematch",
            Kind::TableFull => "table_full",
        }
    }
}

/// One event for one user.
#[derive(Clone, Debug)]
pub struct Away {
    pub user: String,
    /// The game (for a rematch: the new table).
    pub game: String,
    pub kind: Kind,
}

/// Which events reach a user, by push and by e-mail (every one, both ways, by default).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prefs {
    pub push: BTreeMap<Kind, bool>,
    pub email: BTreeMap<Kind, bool>,
}

impl Default for Prefs {
    fn default() -> Self {
        let all: BTreeMap<Kind, bool> = Kind::ALL.iter().map(|k| (*k, true)).collect();
        Prefs {
            push: all.clone(),
            email: all,
        }
    }
}

impl Prefs {
    pub fn push_on(&self, kind: Kind) -> bool {
        self.push.get(&kind).copied().unwrap_or(true)
    }
    pub fn email_on(&self, kind: Kind) -> bool {
        self.email.get(&kind).copied().unwrap_or(true)
    }
}

/// How the server reaches players away.
#[derive(Clone, Debug, Default)]
pub struct ReachConfig {
    /// `smtp://…` / `smtps://…` (lettre's URL form); none: e-mail is off.
    pub smtp: Option<String>,
    /// The sender of every mail.
    pub mail_from: String,
    /// The site's address as players reach it (links in mails; the VAPID subject).
    pub public_url: String,
    /// Push endpoints may be plain `http://` (tests stand one up on loopback); browsers'
    /// push services are always HTTPS.
    pub allow_http_push: bool,
}

/// The notifier: keys, transports, and the task that delivers events.
pub struct Reach {
    pub config: ReachConfig,
    pub store: Store,
    pub push: push::Pusher,
    pub mail: Option<mail::Mailer>,
    /// When each user was last sent a verification mail (ms).
    verifications: std::sync::Mutex<std::collections::HashMap<String, i64>>,
}

impl Reach {
    /// Reads (or draws and stores, at first start) the VAPID keys and starts the delivery
    /// task and the hourly mail batches' flusher. Events sent to the returned channel are
    /// delivered in order.
    pub async fn start(
        config: ReachConfig,
        store: Store,
    ) -> anyhow::Result<(Arc<Reach>, mpsc::UnboundedSender<Away>)> {
        let push = push::Pusher::load(&store, &config).await?;
        let mail = match &config.smtp {
            Some(url) => Some(mail::Mailer::new(url, &config)?),
            None => None,
        };
        let reach = Arc::new(Reach {
            config,
            store,
            push,
            mail,
            verifications: Default::default(),
        });
        let (tx, mut rx) = mpsc::unbounded_channel::<Away>();
        // Pushes and mails go out from tasks of their own, each in order: a slow SMTP server
        // does not hold back pushes.
        let (mails, mut mail_rx) = mpsc::unbounded_channel::<(Away, String)>();
        let worker = reach.clone();
        tokio::spawn(async move {
            while let Some(event) = rx.recv().await {
                worker.deliver(&event, &mails).await;
            }
        });
        let mailer = reach.clone();
        tokio::spawn(async move {
            while let Some((event, game_kind)) = mail_rx.recv().await {
                if let Some(mail) = &mailer.mail
                    && let Err(e) = mail
                        .queue(&mailer, &event, &game_kind, crate::wall_clock::now_ms())
                        .await
                {
                    tracing::warn!(error = %e, user = %event.user, game = %event.game, "cannot mail an event");
                }
            }
        });
        if reach.mail.is_some() {
            let flusher = reach.clone();
            tokio::spawn(async move {
                let mut every = tokio::time::interval(std::time::Duration::from_secs(60));
                loop {
                    every.tick().await;
                    flusher.flush_mail(crate::wall_clock::now_ms()).await;
                }
            });
        }
        Ok((reach, tx))
    }

    /// Whether `user` may be sent a verification mail at `now` (none in the last `every`
    /// ms); if so, `now` is remembered as the last one.
    pub fn verification_allowed(&self, user: &str, now: i64, every: i64) -> bool {
        let mut sent = self.verifications.lock().unwrap_or_else(|e| e.into_inner());
        sent.retain(|_, at| now - *at < every);
        if sent.contains_key(user) {
            return false;
        }
        sent.insert(user.to_string(), now);
        true
    }

    pub async fn prefs(&self, user: &str) -> anyhow::Result<Prefs> {
        Ok(match self.store.notify_prefs(user).await? {
            Some(json) => serde_json::from_str(&json).unwrap_or_default(),
            None => Prefs::default(),
        })
    }

    /// Sends what `event` calls for; failures are logged (an event is a courtesy: the
    /// game goes on, and the "your move" list still shows it).
    async fn deliver(&self, event: &Away, mails: &mpsc::UnboundedSender<(Away, String)>) {
        if let Err(e) = self.try_deliver(event, mails).await {
            tracing::warn!(error = %e, user = %event.user, game = %event.game, "cannot notify");
        }
    }

    async fn try_deliver(
        &self,
        event: &Away,
        mails: &mpsc::UnboundedSender<(Away, String)>,
    ) -> anyhow::Result<()> {
        let prefs = self.prefs(&event.user).await?;
        let Some(game) = self.store.game(&event.game).await? else {
            return Ok(());
        };
        if prefs.push_on(event.kind) {
            self.push.send_all(&self.store, event, &game.kind).await?;
        }
        if prefs.email_on(event.kind) && self.mail.is_some() {
            let _ = mails.send((event.clone(), game.kind));
        }
        Ok(())
    }

    /// Sends the batched mails whose hour has passed by `now` (ms). Runs every minute; tests
    /// call it with a later `now` instead of waiting an hour.
    pub async fn flush_mail(&self, now: i64) {
        if let Some(mailer) = &self.mail
            && let Err(e) = mailer.flush(self, now).await
        {
            tracing::warn!(error = %e, "cannot send the batched mails");
        }
    }
}
