//! E-mail over SMTP (`lettre`): the verification link of a new address, and the events of
//! players away, batched: at most one mail per game and hour, later events wait for the
//! hour to pass and leave together. Bounds count the recipient's address, not a game or a
//! table (issue 54: a rematch loop made a new table, so a new game, each time): at most
//! `MailLimits::per_address_hour` notification mails an hour to one address (more wait in
//! their batches), and one rematch offer per asker and address a period (later offers are
//! not mailed: the loop is one conversation). Every event mail carries a one-click unsubscribe link
//! (in the text, and as RFC 8058 `List-Unsubscribe` headers for mail clients) and a
//! `Message-ID` on the server's own domain (`--public-url`). A mail says what happened: its
//! subject and text per event, naming the others at the table and, for a move, when the
//! turn's time runs out, in the recipient's language (issue 46).
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
    /// The domain of `Message-ID`s: `public_url`'s host.
    domain: String,
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
            domain: url_host(&config.public_url),
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
            .message_id(Some(message_id(&self.domain)))
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
        if matches!(event.kind, Kind::Rematch | Kind::Challenge)
            && !self.first_offer(store, event, &email, now).await?
        {
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

    /// Whether this rematch offer (or challenge: `Kind::Challenge`) is the first its asker (the new table's creator) makes to
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
        let message = self
            .compose(store, email, user, game, game_kind, &kinds, now)
            .await?;
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

    /// The mail about `kinds` in `game` for `user`: its subject tells the main event (a move
    /// first: it is what waits for them) and whom it is with; its text tells each event, the
    /// others at the table, and for a move when the turn's time runs out (as of `now`).
    #[allow(clippy::too_many_arguments)]
    async fn compose(
        &self,
        store: &Store,
        email: &super::store::Email,
        user: &str,
        game: &str,
        game_kind: GameKind,
        kinds: &[Kind],
        now: i64,
    ) -> Result<Message> {
        let lang = email.lang.as_str();
        let name = text::t(lang, &format!("game.{game_kind}"), &[]);
        let others = others_at(store, lang, user, game).await?;
        let asker = match store.game(game).await? {
            Some(row) if row.created_by != user => store
                .user(&row.created_by)
                .await?
                .map(|u| crate::identity::display_name(&u.id, u.name.as_deref())),
            _ => None,
        }
        .unwrap_or_else(|| others.clone());
        let deadline = if kinds.contains(&Kind::YourMove) {
            store.deadline_of(game).await?.filter(|at| *at > now)
        } else {
            None
        };
        let params = [
            ("game", name.as_str()),
            ("opponents", others.as_str()),
            ("asker", asker.as_str()),
        ];
        let mut body = String::new();
        for kind in kinds {
            body.push_str(&text::t(
                lang,
                &format!("notify.mail_{}_body", kind.key()),
                &params,
            ));
            body.push('\n');
            if *kind == Kind::YourMove
                && let Some(at) = deadline
            {
                body.push_str(&text::t(
                    lang,
                    "notify.mail_deadline",
                    &[
                        ("deadline", &when(lang, at)),
                        ("left", &time_left(lang, at - now)),
                    ],
                ));
                body.push('\n');
            }
        }
        let main = if kinds.contains(&Kind::YourMove) {
            Kind::YourMove
        } else {
            kinds.first().copied().unwrap_or(Kind::YourMove)
        };
        let page = if kinds == [Kind::Rematch] || kinds == [Kind::Challenge] {
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
            .subject(text::t(
                lang,
                &format!("notify.mail_{}_subject", main.key()),
                &params,
            ))
            .message_id(Some(message_id(&self.domain)))
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

/// The others at `game`'s table than `user`, by name (players and bots, seats kept for a
/// rematch included), in seat order: "anna, Greedy bot".
async fn others_at(store: &Store, lang: &str, user: &str, game: &str) -> Result<String> {
    use crate::db::rows::SeatKind;
    let mut names = Vec::new();
    for seat in store.seats(game).await? {
        match seat {
            SeatKind::Human(id) | SeatKind::Reserved(id) if id != user => {
                let name = store.user(&id).await?.and_then(|u| u.name);
                names.push(crate::identity::display_name(&id, name.as_deref()));
            }
            SeatKind::Bot(level) => {
                let key = format!("bot.{level}");
                let shown = text::t(lang, &key, &[]);
                names.push(if shown == key {
                    text::t(lang, "notify.mail_a_bot", &[])
                } else {
                    shown
                });
            }
            _ => {}
        }
    }
    Ok(if names.is_empty() {
        text::t(lang, "notify.mail_nobody", &[])
    } else {
        names.join(", ")
    })
}

/// `at` (ms since the epoch) as a date and time in UTC, written the way of `lang`.
fn when(lang: &str, at: i64) -> String {
    let secs = at.div_euclid(1000);
    let (year, month, day) = civil_from_days(secs.div_euclid(86_400));
    let minute_of_day = secs.rem_euclid(86_400) / 60;
    text::t(
        lang,
        "notify.mail_date",
        &[
            ("year", &year.to_string()),
            ("month", &format!("{month:02}")),
            ("day", &format!("{day:02}")),
            ("hour", &format!("{:02}", minute_of_day / 60)),
            ("minute", &format!("{:02}", minute_of_day % 60)),
        ],
    )
}

/// `ms` left, in whole hours and minutes ("23 h 59 min").
fn time_left(lang: &str, ms: i64) -> String {
    let minutes = ms.max(0) / 60_000;
    text::t(
        lang,
        "notify.mail_left",
        &[
            ("hours", &(minutes / 60).to_string()),
            ("minutes", &(minutes % 60).to_string()),
        ],
    )
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The host of `public_url` (without scheme, user, port or path): the domain of the server's
/// `Message-ID`s.
fn url_host(public_url: &str) -> String {
    let rest = public_url
        .split_once("://")
        .map_or(public_url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host.starts_with('[') {
        host.split_inclusive(']').next().unwrap_or(host)
    } else {
        host.split(':').next().unwrap_or(host)
    };
    if host.is_empty() {
        "localhost".to_string()
    } else {
        host.to_ascii_lowercase()
    }
}

/// A new `Message-ID` on `domain`: 128 random bits, so unique among every mail sent.
fn message_id(domain: &str) -> String {
    let mut bytes = [0u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        // No randomness (never on the platforms served): the time and a counter then.
        static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        bytes[..8].copy_from_slice(&crate::wall_clock::now_ms().to_be_bytes());
        bytes[8..].copy_from_slice(&n.to_be_bytes());
    }
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("<{hex}@{domain}>")
}

fn parse_kinds(pending: Option<&str>) -> Vec<Kind> {
    pending
        .and_then(|p| serde_json::from_str(p).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{address_key, civil_from_days, message_id, url_host};

    #[test]
    fn a_message_id_is_unique_on_the_public_domain() {
        assert_eq!(url_host("https://play.example.org/"), "play.example.org");
        assert_eq!(
            url_host("http://user@Pyramidion.test:8080/x"),
            "pyramidion.test"
        );
        assert_eq!(url_host("http://[::1]:3000"), "[::1]");
        assert_eq!(url_host(""), "localhost");
        let a = message_id("play.example.org");
        assert!(
            a.starts_with('<') && a.ends_with("@play.example.org>"),
            "{a}"
        );
        assert_ne!(a, message_id("play.example.org"));
    }

    #[test]
    fn days_are_dated() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn an_address_is_counted_by_its_mailbox() {
        assert_eq!(address_key("Anna+games@Example.ORG"), "anna@example.org");
        assert_eq!(address_key("anna@example.org"), "anna@example.org");
        assert_eq!(address_key("nobody"), "nobody");
    }
}
