//! The chat of a table (issue 27, item 4). Two channels: `players` (the seated players write;
//! everyone following the game reads) and `spectators` (everyone else writes; only spectators
//! read, so that nobody at the table is told what onlookers say). Messages are plain text
//! (clients show them as text, never as markup) or a quick phrase's key that each reader sees
//! in their own language. Every message is stored with the game and shown in its replay.
//! A reader may report a message: the report is stored for the server's operator
//! (`pyramidion moderation` lists them).
use crate::LiveContext as Context;
use crate::db::chat_message::ChatMessage;
use crate::db::store::Store;
use crate::error_code::ApiErrorCode;
use crate::wall_clock::now_ms;
use serde::Serialize;
use sqlx::Row;

/// Longest chat message, in characters.
pub const MAX_CHAT_CHARS: usize = 300;
/// Chat messages one user may send in one game: a burst of this many…
pub const CHAT_BURST: f64 = 5.0;
/// …then one per this many seconds.
pub const CHAT_EVERY_SECONDS: f64 = 3.0;

/// The window of the daily chat cap (`Limits::chat_per_day`).
pub const CHAT_DAY_MS: i64 = 24 * 3600 * 1000;

/// The quick phrases: keys each reader's client translates.
pub const PHRASES: &[&str] = &["hello", "good_game", "well_played", "thanks", "good_luck"];

/// Checks what a client sends: one of a text or a known phrase; the text is trimmed, not
/// empty, at most [`MAX_CHAT_CHARS`] characters, and holds no control characters.
pub fn check(text: Option<&str>, phrase: Option<&str>) -> Result<(), (ApiErrorCode, String)> {
    match (text, phrase) {
        (Some(_), Some(_)) | (None, None) => Err((
            ApiErrorCode::BadRequest,
            "a chat message has either `text` or `phrase`".into(),
        )),
        (None, Some(p)) if !PHRASES.contains(&p) => Err((
            ApiErrorCode::UnknownPhrase,
            format!("no quick phrase `{p}` (one of {})", PHRASES.join(", ")),
        )),
        (None, Some(_)) => Ok(()),
        (Some(t), None) => {
            let t = t.trim();
            if t.is_empty() {
                Err((ApiErrorCode::EmptyChat, "the message is empty".into()))
            } else if t.chars().count() > MAX_CHAT_CHARS {
                Err((
                    ApiErrorCode::ChatTooLong,
                    format!("a message has at most {MAX_CHAT_CHARS} characters"),
                ))
            } else if t.chars().any(|c| c.is_control() || reorders_or_breaks(c)) {
                Err((
                    ApiErrorCode::BadRequest,
                    "a message is one line of plain text (no control, direction or separator characters)".into(),
                ))
            } else if stacked_marks(t) > MAX_MARKS_IN_A_ROW {
                Err((
                    ApiErrorCode::BadRequest,
                    format!("at most {MAX_MARKS_IN_A_ROW} combining marks on one letter"),
                ))
            } else {
                Ok(())
            }
        }
    }
}

/// Combining marks on one letter: scripts such as Vietnamese or Devanagari stack two or three;
/// "Zalgo" text stacks dozens, spilling over the lines of the chat above and below it.
const MAX_MARKS_IN_A_ROW: usize = 3;

/// Characters that change how the text around them is shown rather than adding to it (issue
/// 54): the bidirectional overrides, embeddings, isolates and marks, which make a message read
/// in another order than it was written (and can reverse a name or a number beside it), and
/// the line and paragraph separators, which break the one line a message is.
fn reorders_or_breaks(c: char) -> bool {
    matches!(
        c,
        '\u{061C}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// The longest run of combining marks in `text` (after decomposition, so that a precomposed
/// letter counts its marks too).
fn stacked_marks(text: &str) -> usize {
    use unicode_normalization::UnicodeNormalization;
    use unicode_normalization::char::is_combining_mark;
    let (mut run, mut longest) = (0, 0);
    for c in text.nfd() {
        run = if is_combining_mark(c) { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

fn channel_of(name: &str) -> &'static str {
    if name == "players" {
        "players"
    } else {
        "spectators"
    }
}

impl Store {
    pub async fn add_chat(&self, m: &ChatMessage) -> crate::db::error::Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO chat_messages (id, game_id, channel, user_id, seat, text, phrase, ply, at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(m.id.clone())
                .bind(m.game.clone())
                .bind(m.channel)
                .bind(m.user.clone())
                .bind(m.seat.map(i64::from))
                .bind(m.text.clone())
                .bind(m.phrase.clone())
                .bind(m.ply as i64)
                .bind(m.at),
            )
            .await
    }

    /// How many messages `user_id` sent at or after `since` (ms), in every game.
    pub async fn chats_since(&self, user_id: &str, since: i64) -> crate::db::error::Result<i64> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM chat_messages WHERE user_id = $1 AND at >= $2")
                .bind(user_id)
                .bind(since)
                .fetch_one(&mut *self.read().await?)
                .await?;
        Ok(row.try_get("n")?)
    }

    /// A game's messages, oldest first; `spectators` also gives the spectators' channel.
    pub async fn chat(
        &self,
        game_id: &str,
        spectators: bool,
    ) -> crate::db::error::Result<Vec<ChatMessage>> {
        let rows = sqlx::query(
            "SELECT c.*, u.name AS user_name FROM chat_messages c
               LEFT JOIN users u ON u.id = c.user_id
             WHERE c.game_id = $1 AND (c.channel = 'players' OR $2 = 1)
             ORDER BY c.at, c.id",
        )
        .bind(game_id)
        .bind(spectators as i64)
        .fetch_all(&mut *self.read().await?)
        .await?;
        rows.iter().map(chat_row).collect()
    }

    /// Records `reporter`'s report of a message (again: nothing changes).
    pub async fn report_chat(
        &self,
        message_id: &str,
        reporter: &crate::live::chat_reports::Reporter<'_>,
    ) -> crate::db::error::Result<()> {
        self.writer
            .execute(
                sqlx::query(
                    "INSERT INTO chat_reports (message_id, reporter, at, by_guest, address)
                     VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (message_id, reporter) DO NOTHING",
                )
                .bind(message_id.to_string())
                .bind(reporter.user.to_string())
                .bind(now_ms())
                .bind(i64::from(reporter.guest))
                .bind(reporter.address.clone()),
            )
            .await
    }

    pub async fn chat_message(&self, id: &str) -> crate::db::error::Result<Option<ChatMessage>> {
        let row = sqlx::query(
            "SELECT c.*, u.name AS user_name FROM chat_messages c
               LEFT JOIN users u ON u.id = c.user_id WHERE c.id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *self.read().await?)
        .await?;
        row.as_ref().map(chat_row).transpose()
    }
}

/// A reported message, for the server's operator.
#[derive(Debug, Serialize)]
pub struct Report {
    pub reported_at: i64,
    pub reporter: String,
    /// Made by a guest (weigh it less: guests are made by the dozen).
    pub by_guest: bool,
    pub message: ChatMessage,
}

/// Every report in the database at `url`, newest first. Read only, on a connection of its own:
/// a running server may hold the database (`pyramidion moderation`).
pub async fn reports_at(url: &str) -> crate::db::error::Result<Vec<Report>> {
    use crate::db::error::StoreError;
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url)
        .await
        .map_err(|error| StoreError::Open {
            url: url.to_string(),
            error,
        })?;
    let rows = sqlx::query(
        "SELECT r.at AS reported_at, r.reporter, r.by_guest, c.*, u.name AS user_name
           FROM chat_reports r JOIN chat_messages c ON c.id = r.message_id
           LEFT JOIN users u ON u.id = c.user_id
         ORDER BY r.at DESC",
    )
    .fetch_all(&mut conn)
    .await
    .map_err(StoreError::Reports)?;
    rows.iter()
        .map(|r| {
            Ok(Report {
                reported_at: r.try_get("reported_at")?,
                reporter: r.try_get("reporter")?,
                by_guest: r.try_get::<i64, _>("by_guest")? != 0,
                message: chat_row(r)?,
            })
        })
        .collect()
}

fn chat_row(r: &sqlx::any::AnyRow) -> crate::db::error::Result<ChatMessage> {
    let user: String = r.try_get("user_id")?;
    let name: Option<String> = r.try_get("user_name")?;
    Ok(ChatMessage {
        id: r.try_get("id")?,
        game: r.try_get("game_id")?,
        channel: channel_of(&r.try_get::<String, _>("channel")?),
        name: crate::identity::display_name(&user, name.as_deref()),
        user,
        seat: r
            .try_get::<Option<i64>, _>("seat")?
            .and_then(|s| u8::try_from(s).ok()),
        text: r.try_get("text")?,
        phrase: r.try_get("phrase")?,
        ply: r.try_get::<i64, _>("ply")? as u64,
        at: r.try_get("at")?,
    })
}

/// Refuses `user`'s message once they sent [`Limits::chat_per_day`] in the last 24 hours, all
/// games together (per game, a rate limit holds a burst; this bounds what one user stores).
///
/// [`Limits::chat_per_day`]: crate::config::Limits::chat_per_day
pub async fn within_daily_cap(state: &Context, user: &str) -> Result<(), (ApiErrorCode, String)> {
    let cap = state.config.limits.chat_per_day;
    match state.store.chats_since(user, now_ms() - CHAT_DAY_MS).await {
        Ok(sent) if sent < cap as i64 => Ok(()),
        Ok(_) => Err((
            ApiErrorCode::ChatDailyCap,
            format!("at most {cap} chat messages in 24 hours: try again later"),
        )),
        Err(e) => {
            tracing::error!(error = %e, "cannot count a user's chat messages");
            Err((
                ApiErrorCode::StorageFailing,
                "the message could not be checked; it was not sent".to_string(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_checked() {
        assert!(check(Some("hi <b>there</b>"), None).is_ok());
        assert!(check(None, Some("good_game")).is_ok());
        assert_eq!(
            check(None, Some("insult")).unwrap_err().0.as_str(),
            "unknown_phrase"
        );
        assert_eq!(
            check(Some("  "), None).unwrap_err().0.as_str(),
            "empty_chat"
        );
        let long = "é".repeat(MAX_CHAT_CHARS + 1);
        assert_eq!(
            check(Some(&long), None).unwrap_err().0.as_str(),
            "chat_too_long"
        );
        assert!(check(Some(&"é".repeat(MAX_CHAT_CHARS)), None).is_ok());
        assert_eq!(
            check(Some("a\nb"), None).unwrap_err().0.as_str(),
            "bad_request"
        );
        assert_eq!(
            check(Some("a"), Some("hello")).unwrap_err().0.as_str(),
            "bad_request"
        );
        // Issue 54: nothing that reorders the text around it or breaks its line…
        for sneaky in [
            "gg \u{202E}sey",
            "a\u{2066}b\u{2069}",
            "right\u{200F}",
            "arabic\u{061C}mark",
            "line\u{2028}break",
            "para\u{2029}graph",
        ] {
            assert_eq!(
                check(Some(sneaky), None).unwrap_err().0.as_str(),
                "bad_request",
                "{sneaky:?}"
            );
        }
        // …and no Zalgo, while real scripts' marks pass (Vietnamese stacks two on a vowel,
        // Hindi a vowel sign and a nasal mark; emoji sequences join with ZWJ).
        let zalgo = format!("h{}i", "\u{0301}\u{0300}\u{0302}\u{0303}");
        assert_eq!(
            check(Some(&zalgo), None).unwrap_err().0.as_str(),
            "bad_request"
        );
        for fine in [
            "Việt Nam ở đâu?",
            "नमस्ते, हिंदी",
            "👩\u{200D}💻 gg",
            "שלום עולם",
            "مرحبا",
        ] {
            assert!(check(Some(fine), None).is_ok(), "{fine:?}");
        }
    }
}
