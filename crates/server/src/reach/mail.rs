//! E-mail over SMTP (`lettre`): the verification link of a new address, and the events of
//! players away, batched: at most one mail per game and hour, later events wait for the
//! hour to pass and leave together. Bounds count the recipient's address, not a game or a
//! table (issue 54: a rematch loop made a new table, so a new game, each time): at most
//! `MailLimits::per_address_hour` notification mails an hour to one address (more wait in
//! their batches), and one rematch offer per asker and address a period (later offers are
//! not mailed: the loop is one conversation). Every event mail carries a one-click unsubscribe link
//! (in the text, and as RFC 8058 `List-Unsubscribe` headers for mail clients).
use super::away::{Away, Kind, MailLimits, Prefs, ReachConfig};
use super::error::{ReachError, Result};
use super::store::{MailBound, MailScope};
use super::text;
use crate::db::store::Store;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, Message};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use pyramidion_games::GameKind;

/// At most one mail per game this often.
pub const BATCH_MS: i64 = 3600 * 1000;

pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    public_url: String,
    /// One batch change at a time (the delivery task and the hourly flusher both send).
    batches: tokio::sync::Mutex<()>,
    limits: MailLimits,
}

/// The form of `address` that bounds count: lower case, without the `+tag` of its local part
/// (`Anna+x@Example.org` and `anna@example.org` reach one mailbox).
pub fn address_key(address: &str) -> String {
    let address = address.trim().to_lowercase();
    match address.rsplit_once('@') {
        Some((local, domain)) => {
            let local = local.split('+').next().unwrap_or(local);
            format!("{local}@{domain}")
        }
        None => address,
    }
}

/// Whether `address` is one the server can send to (`bad_email` otherwise).
pub fn valid_address(address: &str) -> bool {
    address.len() <= 254 && address == address.trim() && address.parse::<lettre::Address>().is_ok()
}

impl Mailer {
    pub fn new(url: &str, config: &ReachConfig) -> Result<Mailer> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(ReachError::SmtpUrl)?
            .timeout(Some(std::time::Duration::from_secs(30)))
            .build();
        let from = config
            .mail_from
            .parse()
            .map_err(|error| ReachError::MailFrom {
                address: config.mail_from.clone(),
                error,
            })?;
        Ok(Mailer {
            transport,
            from,
            public_url: config.public_url.trim_end_matches('/').to_string(),
            batches: tokio::sync::Mutex::new(()),
            limits: config.mail_limits,
        })
    }

    fn link(&self, path: &str) -> String {
        format!("{}{path}", self.public_url)
    }

    /// The mail whose link verifies `address`.
    pub async fn send_verification(&self, address: &str, lang: &str, token: &str) -> Result<()> {
        let body = format!(
            "{}\n\n{}\n",
            text::t(lang, "notify.verify_body", &[]),
            self.link(&format!("/#/verify-email/{token}")),
        );
        let message = Message::builder()
            .from(self.from.clone())
            .to(address.parse()?)
            .subject(text::t(lang, "notify.verify_subject", &[]))
            .header(ContentType::TEXT_PLAIN)
            .body(body)?;
        self.transport.send(message).await?;
        Ok(())
    }

    /// Mails `event` now, or adds it to its game's batch if a mail about that game left
    /// less than an hour before `now`.
    pub async fn queue(
        &self,
        store: &Store,
        event: &Away,
        game_kind: GameKind,
        now: i64,
    ) -> Result<()> {
        let Some(email) = store.email(&event.user).await?.filter(|e| e.verified) else {
            return Ok(());
        };
        if event.kind == Kind::Rematch && !self.first_offer(store, event, &email, now).await? {
            return Ok(());
        }
        let _one = self.batches.lock().await;
        let (last, pending) = store
            .mail_batch(&event.user, &event.game)
            .await?
            .unwrap_or_default();
        let mut kinds = parse_kinds(pending.as_deref());
        if !kinds.contains(&event.kind) {
            kinds.push(event.kind);
        }
        if last.is_some_and(|at| now - at < BATCH_MS) {
            let pending = serde_json::to_string(&kinds)?;
            return store
                .set_mail_batch(&event.user, &event.game, last, Some(&pending))
                .await
                .map_err(Into::into);
        }
        self.send_batch(
            store,
            &email,
            &event.user,
            &event.game,
            game_kind,
            last,
            kinds,
            now,
        )
        .await
    }

    /// Whether this rematch offer is the first its asker (the new table's creator) makes to
    /// `email`'s address within `MailLimits::offer_every` (then it is counted): each ask of a
    /// loop makes a new table, so the offers are one conversation, mailed once.
    async fn first_offer(
        &self,
        store: &Store,
        event: &Away,
        email: &super::store::Email,
        now: i64,
    ) -> Result<bool> {
        let Some(asker) = store.game(&event.game).await?.map(|g| g.created_by) else {
            return Ok(false);
        };
        let bound = MailBound {
            scope: MailScope::Pair,
            since: now - self.limits.offer_every.as_millis() as i64,
            cap: 1,
        };
        let refused = store
            .take_mail_slot(
                "offer",
                &address_key(&email.address),
                Some(&asker),
                now,
                &[bound],
            )
            .await?;
        if refused.is_some() {
            tracing::info!(user = %event.user, table = %event.game, "a rematch offer not mailed: its asker's offer was mailed lately");
        }
        Ok(refused.is_none())
    }

    /// Sends every batch whose hour has passed by `now`.
    pub async fn flush(&self, store: &Store, now: i64) -> Result<()> {
        for (user, game) in store.mail_batches_due(now, BATCH_MS).await? {
            let _one = self.batches.lock().await;
            let Some((last, Some(pending))) = store.mail_batch(&user, &game).await? else {
                continue;
            };
            if last.is_some_and(|at| now - at < BATCH_MS) {
                continue;
            }
            let kinds = parse_kinds(Some(&pending));
            let email = store.email(&user).await?.filter(|e| e.verified);
            let game_kind = store.game(&game).await?.map(|g| g.kind);
            let (Some(email), Some(game_kind), false) = (email, game_kind, kinds.is_empty()) else {
                // Nobody to send it to any more (address removed, game gone): forget it.
                store.set_mail_batch(&user, &game, last, None).await?;
                continue;
            };
            let prefs = Prefs::of(store, &user).await?;
            let kinds: Vec<Kind> = kinds.into_iter().filter(|k| prefs.email_on(*k)).collect();
            if kinds.is_empty() {
                store.set_mail_batch(&user, &game, last, None).await?;
                continue;
            }
            self.send_batch(store, &email, &user, &game, game_kind, last, kinds, now)
                .await?;
        }
        Ok(())
    }

    /// Sends one mail about `kinds` in `game`; stored as sent at `now` once it left, kept
    /// waiting (to be tried again by the flusher) if it could not be sent.
    #[allow(clippy::too_many_arguments)]
    async fn send_batch(
        &self,
        store: &Store,
        email: &super::store::Email,
        user: &str,
        game: &str,
        game_kind: GameKind,
        last: Option<i64>,
        kinds: Vec<Kind>,
        now: i64,
    ) -> Result<()> {
        let bound = MailBound {
            scope: MailScope::Address,
            since: now - BATCH_MS,
            cap: self.limits.per_address_hour as i64,
        };
        let full = store
            .take_mail_slot("event", &address_key(&email.address), None, now, &[bound])
            .await?;
        if full.is_some() {
            // The address had its mails of the hour: the batch waits (the flusher tries it
            // again every minute) and leaves once the hour leaves room.
            tracing::info!(user = %user, game = %game, "an address at its hourly mail bound: the batch waits");
            let pending = serde_json::to_string(&kinds)?;
            store
                .set_mail_batch(user, game, last, Some(&pending))
                .await?;
            return Ok(());
        }
        let message = self.compose(email, game, game_kind, &kinds)?;
        match self.transport.send(message).await {
            Ok(_) => {
                store.set_mail_batch(user, game, Some(now), None).await?;
                Ok(())
            }
            Err(e) => {
                let pending = serde_json::to_string(&kinds)?;
                store
                    .set_mail_batch(user, game, last, Some(&pending))
                    .await?;
                Err(ReachError::Send(e))
            }
        }
    }

    fn compose(
        &self,
        email: &super::store::Email,
        game: &str,
        game_kind: GameKind,
        kinds: &[Kind],
    ) -> Result<Message> {
        let lang = email.lang.as_str();
        let name = text::t(lang, &format!("game.{game_kind}"), &[]);
        let mut body = String::new();
        for kind in kinds {
            body.push_str(&text::t(
                lang,
                &format!("notify.{}_body", kind.key()),
                &[("game", &name)],
            ));
            body.push('\n');
        }
        let page = if kinds == [Kind::Rematch] {
            format!("/#/table/{game}")
        } else {
            format!("/#/game/{game}")
        };
        let unsubscribe = self.link(&format!("/#/unsubscribe/{}", email.unsubscribe));
        body.push_str(&format!(
            "\n{}\n{}\n\n--\n{}\n{}\n{}\n{}\n",
            text::t(lang, "notify.mail_open", &[]),
            self.link(&page),
            text::t(lang, "notify.mail_unsubscribe", &[]),
            unsubscribe,
            text::t(lang, "notify.mail_settings", &[]),
            self.link("/#/settings"),
        ));
        let one_click = self.link(&format!("/api/notify/unsubscribe/{}", email.unsubscribe));
        Ok(Message::builder()
            .from(self.from.clone())
            .to(email.address.parse()?)
            .subject(text::t(lang, "notify.mail_subject", &[("game", &name)]))
            .header(ContentType::TEXT_PLAIN)
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe"),
                format!("<{one_click}>"),
            ))
            .raw_header(HeaderValue::new(
                HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                "List-Unsubscribe=One-Click".to_string(),
            ))
            .body(body)?)
    }
}

fn parse_kinds(pending: Option<&str>) -> Vec<Kind> {
    pending
        .and_then(|p| serde_json::from_str(p).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::address_key;

    #[test]
    fn an_address_is_counted_by_its_mailbox() {
        assert_eq!(address_key("Anna+games@Example.ORG"), "anna@example.org");
        assert_eq!(address_key("anna@example.org"), "anna@example.org");
        assert_eq!(address_key("nobody"), "nobody");
    }
}
