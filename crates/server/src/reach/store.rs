//! Storage for reaching players who are away: push subscriptions, e-mail addresses, the
//! events each user wants, and the e-mail batches (migration 0008).
use crate::db::error::Result;
use crate::db::store::Store;
use crate::wall_clock::now_ms;
use sqlx::Row;

/// One browser's push subscription.
#[derive(Clone, Debug)]
pub struct Subscription {
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
    pub lang: String,
    /// How its deliveries went (read, never written by [`Store::add_subscription`]).
    pub health: PushHealth,
}

/// How a subscription's deliveries went (migration 0011).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PushHealth {
    /// Its push service once took a notification for it.
    pub delivered: bool,
    /// Failed deliveries since the last one taken…
    pub failures: i64,
    /// …the first of them at (ms).
    pub failing_since: Option<i64>,
}

/// An account's e-mail address.
#[derive(Clone, Debug)]
pub struct Email {
    pub address: String,
    pub verified: bool,
    pub unsubscribe: String,
    pub lang: String,
}

/// What a bound on mail counts (`mail_log`): the mails of one kind to one address, asked by
/// one sender, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailScope {
    Address,
    Sender,
    Pair,
}

/// One bound: at most `cap` mails of the scope sent after `since` (ms).
#[derive(Clone, Copy, Debug)]
pub struct MailBound {
    pub scope: MailScope,
    pub since: i64,
    pub cap: i64,
}

impl Store {
    /// Counts one more mail of `kind` to `address` (a key: `mail::address_key`) asked by
    /// `sender`, at `now`, if every bound leaves room for it; the first bound that does not,
    /// and nothing counted, otherwise. One check-and-count on the writer's connection, so two
    /// requests at once cannot both take the last one.
    pub async fn take_mail_slot(
        &self,
        kind: &'static str,
        address: &str,
        sender: Option<&str>,
        now: i64,
        bounds: &[MailBound],
    ) -> Result<Option<MailScope>> {
        let (address, sender, bounds) = (
            address.to_string(),
            sender.map(str::to_string),
            bounds.to_vec(),
        );
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    for b in &bounds {
                        let query = match b.scope {
                            MailScope::Address => sqlx::query(
                                "SELECT COUNT(*) AS n FROM mail_log
                                 WHERE kind = $1 AND address = $2 AND sent_at > $3",
                            )
                            .bind(kind)
                            .bind(&address)
                            .bind(b.since),
                            MailScope::Sender => sqlx::query(
                                "SELECT COUNT(*) AS n FROM mail_log
                                 WHERE kind = $1 AND sender = $2 AND sent_at > $3",
                            )
                            .bind(kind)
                            .bind(sender.clone().unwrap_or_default())
                            .bind(b.since),
                            MailScope::Pair => sqlx::query(
                                "SELECT COUNT(*) AS n FROM mail_log
                                 WHERE kind = $1 AND address = $2 AND sender = $3 AND sent_at > $4",
                            )
                            .bind(kind)
                            .bind(&address)
                            .bind(sender.clone().unwrap_or_default())
                            .bind(b.since),
                        };
                        let n: i64 = query.fetch_one(&mut *c).await?.try_get("n")?;
                        if n >= b.cap {
                            return Ok(Some(b.scope));
                        }
                    }
                    sqlx::query(
                        "INSERT INTO mail_log (address, kind, sender, sent_at) VALUES ($1, $2, $3, $4)",
                    )
                    .bind(&address)
                    .bind(kind)
                    .bind(sender)
                    .bind(now)
                    .execute(&mut *c)
                    .await?;
                    Ok(None)
                })
            })
            .await
    }

    /// Forgets the mails counted at or before `before` (ms): no bound looks that far back.
    pub async fn sweep_mail_log(&self, before: i64) -> Result<()> {
        self.writer
            .execute(sqlx::query("DELETE FROM mail_log WHERE sent_at <= $1").bind(before))
            .await
    }

    /// Stores (or moves to `user_id`) a subscription, then keeps only the user's `keep`
    /// newest ones (a browser that subscribed again replaces its old row by endpoint).
    pub async fn add_subscription(
        &self,
        user_id: &str,
        sub: &Subscription,
        keep: usize,
    ) -> Result<()> {
        let (user, sub) = (user_id.to_string(), sub.clone());
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
                        .bind(&sub.endpoint)
                        .execute(&mut *c)
                        .await?;
                    sqlx::query(
                        "INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth, lang, created_at)
                         VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(&sub.endpoint)
                    .bind(&user)
                    .bind(&sub.p256dh)
                    .bind(&sub.auth)
                    .bind(&sub.lang)
                    .bind(now_ms())
                    .execute(&mut *c)
                    .await?;
                    let rows = sqlx::query(
                        "SELECT endpoint FROM push_subscriptions WHERE user_id = $1
                         ORDER BY created_at DESC, endpoint",
                    )
                    .bind(&user)
                    .fetch_all(&mut *c)
                    .await?;
                    for r in rows.iter().skip(keep) {
                        let endpoint: String = r.try_get("endpoint")?;
                        sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
                            .bind(endpoint)
                            .execute(&mut *c)
                            .await?;
                    }
                    Ok(())
                })
            })
            .await
    }

    /// Deletes a subscription of `user_id` (`None`: of anyone, when its push service says it
    /// is gone). True if there was one.
    pub async fn remove_subscription(&self, user_id: Option<&str>, endpoint: &str) -> Result<bool> {
        let (user, endpoint) = (user_id.map(str::to_string), endpoint.to_string());
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    let done = match user {
                        Some(user) => sqlx::query(
                            "DELETE FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2",
                        )
                        .bind(endpoint)
                        .bind(user)
                        .execute(c)
                        .await?,
                        None => {
                            sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
                                .bind(endpoint)
                                .execute(c)
                                .await?
                        }
                    };
                    Ok(done.rows_affected() > 0)
                })
            })
            .await
    }

    pub async fn subscriptions(&self, user_id: &str) -> Result<Vec<Subscription>> {
        let rows = sqlx::query(
            "SELECT endpoint, p256dh, auth, lang, delivered_at, failures, failing_since
             FROM push_subscriptions WHERE user_id = $1 ORDER BY created_at DESC",
        )
        .bind(user_id)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Subscription {
                    endpoint: r.try_get("endpoint")?,
                    p256dh: r.try_get("p256dh")?,
                    auth: r.try_get("auth")?,
                    lang: r.try_get("lang")?,
                    health: PushHealth {
                        delivered: r.try_get::<Option<i64>, _>("delivered_at")?.is_some(),
                        failures: r.try_get("failures")?,
                        failing_since: r.try_get("failing_since")?,
                    },
                })
            })
            .collect()
    }

    /// The push service of `endpoint` took a notification at `now` (ms).
    pub async fn push_delivered(&self, endpoint: &str, now: i64) -> Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "UPDATE push_subscriptions SET delivered_at = $1, failures = 0,
                     failing_since = NULL WHERE endpoint = $2",
                )
                .bind(now)
                .bind(endpoint.to_string()),
            )
            .await
    }

    /// A delivery to `endpoint` failed at `now` (ms).
    pub async fn push_failed(&self, endpoint: &str, now: i64) -> Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "UPDATE push_subscriptions SET failures = failures + 1,
                     failing_since = COALESCE(failing_since, $1) WHERE endpoint = $2",
                )
                .bind(now)
                .bind(endpoint.to_string()),
            )
            .await
    }

    /// The user's preferences as stored (JSON), if any.
    pub async fn notify_prefs(&self, user_id: &str) -> Result<Option<String>> {
        let row = sqlx::query("SELECT prefs FROM notify_prefs WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("prefs")?),
            None => None,
        })
    }

    pub async fn set_notify_prefs(&self, user_id: &str, prefs: &str) -> Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO notify_prefs (user_id, prefs) VALUES ($1, $2)
                     ON CONFLICT (user_id) DO UPDATE SET prefs = excluded.prefs",
                )
                .bind(user_id.to_string())
                .bind(prefs.to_string()),
            )
            .await
    }

    pub async fn email(&self, user_id: &str) -> Result<Option<Email>> {
        let row = sqlx::query(
            "SELECT address, verified, unsubscribe, lang FROM emails WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(&mut *self.read().await?)
        .await?;
        row.map(|r| {
            Ok(Email {
                address: r.try_get("address")?,
                verified: r.try_get::<i64, _>("verified")? == 1,
                unsubscribe: r.try_get("unsubscribe")?,
                lang: r.try_get("lang")?,
            })
        })
        .transpose()
    }

    /// Sets the user's (unverified) address; it is verified by the token whose hash is
    /// `verify_hash`.
    pub async fn set_email(
        &self,
        user_id: &str,
        address: &str,
        verify_hash: &str,
        unsubscribe: &str,
        lang: &str,
    ) -> Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO emails (user_id, address, verified, verify_hash, unsubscribe, lang, created_at)
                     VALUES ($1, $2, 0, $3, $4, $5, $6)
                     ON CONFLICT (user_id) DO UPDATE SET address = excluded.address,
                       verified = 0, verify_hash = excluded.verify_hash,
                       unsubscribe = excluded.unsubscribe, lang = excluded.lang,
                       created_at = excluded.created_at",
                )
                .bind(user_id.to_string())
                .bind(address.to_string())
                .bind(verify_hash.to_string())
                .bind(unsubscribe.to_string())
                .bind(lang.to_string())
                .bind(now_ms()),
            )
            .await
    }

    pub async fn delete_email(&self, user_id: &str) -> Result<bool> {
        let user = user_id.to_string();
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    let done = sqlx::query("DELETE FROM emails WHERE user_id = $1")
                        .bind(user)
                        .execute(c)
                        .await?;
                    Ok(done.rows_affected() > 0)
                })
            })
            .await
    }

    /// Marks the address whose verification token hashes to `verify_hash` verified; the
    /// user's id, or `None` for an unknown token.
    pub async fn verify_email(&self, verify_hash: &str) -> Result<Option<String>> {
        let hash = verify_hash.to_string();
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    let row = sqlx::query("SELECT user_id FROM emails WHERE verify_hash = $1")
                        .bind(&hash)
                        .fetch_optional(&mut *c)
                        .await?;
                    let Some(row) = row else { return Ok(None) };
                    let user: String = row.try_get("user_id")?;
                    sqlx::query(
                        "UPDATE emails SET verified = 1, verify_hash = NULL WHERE user_id = $1",
                    )
                    .bind(&user)
                    .execute(&mut *c)
                    .await?;
                    Ok(Some(user))
                })
            })
            .await
    }

    /// The user whose mails carry the unsubscribe token `token`.
    pub async fn user_of_unsubscribe(&self, token: &str) -> Result<Option<String>> {
        let row = sqlx::query("SELECT user_id FROM emails WHERE unsubscribe = $1")
            .bind(token)
            .fetch_optional(&mut *self.read().await?)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("user_id")?),
            None => None,
        })
    }

    /// (when the last mail about the game left, the kinds waiting) for `user_id`.
    pub async fn mail_batch(
        &self,
        user_id: &str,
        game_id: &str,
    ) -> Result<Option<(Option<i64>, Option<String>)>> {
        let row = sqlx::query(
            "SELECT last_sent_at, pending FROM mail_batches WHERE user_id = $1 AND game_id = $2",
        )
        .bind(user_id)
        .bind(game_id)
        .fetch_optional(&mut *self.read().await?)
        .await?;
        row.map(|r| Ok((r.try_get("last_sent_at")?, r.try_get("pending")?)))
            .transpose()
    }

    pub async fn set_mail_batch(
        &self,
        user_id: &str,
        game_id: &str,
        last_sent_at: Option<i64>,
        pending: Option<&str>,
    ) -> Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO mail_batches (user_id, game_id, last_sent_at, pending)
                     VALUES ($1, $2, $3, $4)
                     ON CONFLICT (user_id, game_id) DO UPDATE SET
                       last_sent_at = excluded.last_sent_at, pending = excluded.pending",
                )
                .bind(user_id.to_string())
                .bind(game_id.to_string())
                .bind(last_sent_at)
                .bind(pending.map(str::to_string)),
            )
            .await
    }

    /// Batches with events waiting whose hour has passed by `now` (ms): (user, game).
    pub async fn mail_batches_due(&self, now: i64, hour_ms: i64) -> Result<Vec<(String, String)>> {
        let rows = sqlx::query(
            "SELECT user_id, game_id FROM mail_batches
             WHERE pending IS NOT NULL AND (last_sent_at IS NULL OR last_sent_at <= $1)",
        )
        .bind(now - hour_ms)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("user_id")?, r.try_get("game_id")?)))
            .collect()
    }

    /// Deletes the subscriptions, addresses and choices of users that no longer exist (the
    /// sweep deletes expired guests), and the e-mail batches with nothing waiting whose hour
    /// had passed by `now` (ms): without them the next mail leaves at once all the same.
    pub async fn sweep_subscriptions(&self, now: i64, hour_ms: i64) -> Result<()> {
        self.writer
            .run(move |c| {
                Box::pin(async move {
                    sqlx::query(
                        "DELETE FROM mail_batches WHERE pending IS NULL AND last_sent_at <= $1",
                    )
                    .bind(now - hour_ms)
                    .execute(&mut *c)
                    .await?;
                    for sql in [
                        "DELETE FROM push_subscriptions WHERE NOT EXISTS
                           (SELECT 1 FROM users WHERE users.id = push_subscriptions.user_id)",
                        "DELETE FROM emails WHERE NOT EXISTS
                           (SELECT 1 FROM users WHERE users.id = emails.user_id)",
                        "DELETE FROM notify_prefs WHERE NOT EXISTS
                           (SELECT 1 FROM users WHERE users.id = notify_prefs.user_id)",
                        "DELETE FROM mail_batches WHERE NOT EXISTS
                           (SELECT 1 FROM users WHERE users.id = mail_batches.user_id)",
                    ] {
                        sqlx::query(sql).execute(&mut *c).await?;
                    }
                    Ok(())
                })
            })
            .await
    }
}
