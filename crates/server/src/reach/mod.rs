//! Reaching a player who is away (no open connection): a Web Push notification to each of
//! their subscribed browsers, and a mail to their verified address (batched: at most one
//! per game and hour, at most `--mail-per-address` an hour to one address, one rematch offer
//! per asker and address a period: `mail`). Three events do: it became their move in a
//! turn-based game (an hour or more per turn), a rematch was offered to them, a table they
//! sit at filled (its game started). Each user chooses which events reach them, and how (docs/protocol.md,
//! "Notifications").
mod away;
pub mod error;
pub mod mail;
pub mod push;
pub mod store;
pub mod text;

// The events, preferences and settings have a module of their own, below the notifier and
// its transports (`mail`, `push`), which use them and not the notifier.
use crate::db::store::Store;
pub use away::{Away, Kind, MailLimits, Prefs, ReachConfig, TURN_BASED_MS};
use error::ReachError;
use pyramidion_games::GameKind;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use tokio::sync::{Semaphore, mpsc};

/// The notifier: keys, transports, and the tasks that deliver events.
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
    /// tasks and the hourly mail batches' flusher. Events sent to the returned channel are
    /// delivered in order for each user (see `dispatch`).
    pub async fn start(
        config: ReachConfig,
        store: Store,
    ) -> Result<(Arc<Reach>, mpsc::UnboundedSender<Away>), ReachError> {
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
        let (tx, rx) = mpsc::unbounded_channel::<Away>();
        // Mails go out from a task of their own, in order: a slow SMTP server does not hold
        // back pushes.
        let (mails, mut mail_rx) = mpsc::unbounded_channel::<(Away, GameKind)>();
        tokio::spawn(dispatch(reach.clone(), rx, mails));
        let mailer = reach.clone();
        tokio::spawn(async move {
            while let Some((event, game_kind)) = mail_rx.recv().await {
                if let Some(mail) = &mailer.mail
                    && let Err(e) = mail
                        .queue(
                            &mailer.store,
                            &event,
                            game_kind,
                            crate::wall_clock::now_ms(),
                        )
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

    pub async fn prefs(&self, user: &str) -> Result<Prefs, ReachError> {
        Ok(Prefs::of(&self.store, user).await?)
    }

    /// Sends what `event` calls for; failures are logged (an event is a courtesy: the
    /// game goes on, and the "your move" list still shows it).
    async fn deliver(&self, event: &Away, mails: &mpsc::UnboundedSender<(Away, GameKind)>) {
        if let Err(e) = self.try_deliver(event, mails).await {
            tracing::warn!(error = %e, user = %event.user, game = %event.game, "cannot notify");
        }
    }

    async fn try_deliver(
        &self,
        event: &Away,
        mails: &mpsc::UnboundedSender<(Away, GameKind)>,
    ) -> Result<(), ReachError> {
        let prefs = self.prefs(&event.user).await?;
        let Some(game) = self.store.game(&event.game).await? else {
            return Ok(());
        };
        if prefs.push_on(event.kind) {
            self.push.send_all(&self.store, event, game.kind).await?;
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
            && let Err(e) = mailer.flush(&self.store, now).await
        {
            tracing::warn!(error = %e, "cannot send the batched mails");
        }
    }
}

/// Events waiting for one user at most; more are dropped (a notification is a courtesy, and a
/// user's queue only grows while their own endpoints are slow).
const QUEUED_PER_USER: usize = 64;

/// Each user's events, waiting their turn; a user is here while a task delivers theirs.
type Queues = Arc<std::sync::Mutex<HashMap<String, VecDeque<Away>>>>;

/// Hands each event to its user's queue. A user's events leave in order, one at a time, from
/// a task of that user's; the tasks take turns at `push_workers` slots (each event takes a
/// slot anew, so a user with many events waits behind the others), and one push is bounded by
/// `push_timeout`. So one user's slow endpoints hold one slot for a while, never the others'
/// notices (all of them used to leave from one task, one after another).
async fn dispatch(
    reach: Arc<Reach>,
    mut rx: mpsc::UnboundedReceiver<Away>,
    mails: mpsc::UnboundedSender<(Away, GameKind)>,
) {
    let slots = Arc::new(Semaphore::new(reach.config.push_workers.max(1)));
    let queues: Queues = Default::default();
    while let Some(event) = rx.recv().await {
        let mut waiting = queues.lock().unwrap_or_else(|e| e.into_inner());
        match waiting.get_mut(&event.user) {
            Some(queue) if queue.len() >= QUEUED_PER_USER => {
                tracing::warn!(user = %event.user, game = %event.game, "too many notifications waiting for one user: one dropped");
            }
            Some(queue) => queue.push_back(event),
            None => {
                let user = event.user.clone();
                waiting.insert(user.clone(), VecDeque::from([event]));
                tokio::spawn(drain(
                    reach.clone(),
                    queues.clone(),
                    slots.clone(),
                    user,
                    mails.clone(),
                ));
            }
        }
    }
}

/// Delivers `user`'s queue, then leaves it (under the lock that `dispatch` takes, so an event
/// is either seen here or starts a new task).
async fn drain(
    reach: Arc<Reach>,
    queues: Queues,
    slots: Arc<Semaphore>,
    user: String,
    mails: mpsc::UnboundedSender<(Away, GameKind)>,
) {
    loop {
        let next = {
            let mut waiting = queues.lock().unwrap_or_else(|e| e.into_inner());
            let next = waiting.get_mut(&user).and_then(VecDeque::pop_front);
            if next.is_none() {
                waiting.remove(&user);
            }
            next
        };
        let Some(event) = next else {
            return;
        };
        // The semaphore is never closed.
        let Ok(_slot) = slots.acquire().await else {
            return;
        };
        reach.deliver(&event, &mails).await;
    }
}
