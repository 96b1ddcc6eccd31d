//! Every error code the server itself sends, over HTTP (`{"error": {"code", "message"}}`) and
//! the WebSocket (`{"type": "error", "code", …}`): one enum, so a code cannot be misspelt, and
//! the error table of docs/protocol.md is rendered from it (a test compares the two).
//!
//! Codes a game's rules crate gives stay in that crate: a table whose setup its engine refuses
//! answers the engine's code (`SetupError::code`, listed in the game's descriptor as
//! `setup_errors`), and a refused move answers `illegal_move` with the engine's code as its
//! `reason` (`move_errors`). [`Code::Rules`] carries the former.
use axum::http::StatusCode;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Declares the enum with, for each code, its text, its HTTP status (none: it is only sent
/// over the WebSocket), where it is sent and its meaning (the doc table's row).
macro_rules! codes {
    ($($variant:ident = $code:literal, $status:expr, $where:literal, $meaning:literal;)*) => {
        /// A stable snake_case error code the clients translate (`error.<code>` in web/i18n).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ApiErrorCode {
            $(#[doc = $meaning] $variant,)*
        }

        impl ApiErrorCode {
            /// Every code, in the order of the documentation's table.
            pub const ALL: &[ApiErrorCode] = &[$(ApiErrorCode::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $(ApiErrorCode::$variant => $code,)* }
            }

            /// The status an HTTP answer with this code has (a few places answer another,
            /// which the meaning says); none for a code only the WebSocket sends.
            pub fn http_status(self) -> Option<StatusCode> {
                let status: Option<u16> = match self { $(ApiErrorCode::$variant => $status,)* };
                status.map(|s| StatusCode::from_u16(s).expect("a valid status"))
            }

            /// Where the code is sent (HTTP, WS, the WS upgrade…).
            pub fn sent_by(self) -> &'static str {
                match self { $(ApiErrorCode::$variant => $where,)* }
            }

            /// What the code means, for the documentation.
            pub fn meaning(self) -> &'static str {
                match self { $(ApiErrorCode::$variant => $meaning,)* }
            }
        }
    };
}

codes! {
    BadRequest = "bad_request", Some(400), "HTTP, WS",
        "malformed JSON, wrong types, unknown fields or message type, binary WS message";
    Unauthorized = "unauthorized", Some(401), "HTTP, WS",
        "no (valid) session; wrong name or password";
    NotFound = "not_found", Some(404), "HTTP, WS",
        "unknown table, game, page; an unlisted table without its invite";
    RateLimited = "rate_limited", Some(429), "HTTP, WS", "too many requests or messages";
    BadForwardedFor = "bad_forwarded_for", Some(400), "HTTP",
        "behind a trusted proxy (`--trusted-proxy`): the proxy's `X-Forwarded-For` does not end with a client address (only the entries the proxies appended are read); nothing is counted against anyone's limits";
    PayloadTooLarge = "payload_too_large", Some(413), "HTTP", "body over 16 KiB";
    ForbiddenOrigin = "forbidden_origin", Some(403), "WS upgrade",
        "a browser page from another origin";
    IllegalMove = "illegal_move", None, "WS",
        "the rules refuse the move; `reason` is the engine's code (e.g. `wrong_phase`, `slot_occupied`, `gem_not_available`, `bad_move_syntax`; each game's codes are listed in RULES.md and its descriptor's `move_errors`)";
    StaleState = "stale_state", None, "WS (and HTTP `409` for an undo)",
        "`state_id` is not the current state (`state_id` in the error is)";
    NotYourTurn = "not_your_turn", None, "WS",
        "another seat is to move, the sender has no seat, or a bot plays the sender's seat (it timed out too often)";
    TimeOut = "time_out", None, "WS", "the time of this turn ran out: a bot is playing it";
    GameOver = "game_over", Some(409), "HTTP, WS", "the game is finished";
    Internal = "internal", Some(500), "HTTP, WS",
        "the server failed; a move that could not be saved for another reason than an outage was not played";
    Lagging = "lagging", None, "WS",
        "this connection no longer follows a game: it could not keep up (its queue was full), or the game changed instance (several instances on PostgreSQL: docs/deploy.md); subscribe again with `last_event`";
    MethodNotAllowed = "method_not_allowed", Some(405), "HTTP",
        "the path exists, not with that method";
    RequestTimeout = "request_timeout", Some(408), "HTTP",
        "the request's headers or body did not arrive in time";
    Unavailable = "unavailable", Some(503), "HTTP (with `Retry-After` in seconds), WS",
        "the server is at a limit: too many password checks at once, its connection cap (`--max-connections`: every request of a connection over the cap, a WebSocket handshake included, is answered `503` and the connection closed), or its live-games cap (`--max-live-games`: a table that would start a game, a join that fills one, a daily attempt, a quick pairing, a rematch; on the WebSocket, a `subscribe` or `move` for a game that is not in memory and would have to be brought back); or the game is changing instance (its instance died or drains: see docs/deploy.md); or the database cannot be reached just now (an outage: any request that needs it, a failed write; on the WebSocket, a move that could not be saved (it was not played: play it again), a message whose session could not be checked, the socket staying signed in). Try again after `Retry-After`; on the WebSocket, subscribe again with `last_event`";
    TooManyGuests = "too_many_guests", Some(429), "HTTP",
        "a new guest from an address that made many recently (see the limits in docs/server.md)";
    TooManyTables = "too_many_tables", Some(429), "HTTP",
        "a guest's or an account's open or live tables (see the limits in docs/server.md)";
    TooManyRegistrations = "too_many_registrations", Some(429), "HTTP",
        "a new account from an address that made many recently";
    TooManySeats = "too_many_seats", Some(429), "HTTP",
        "the user sits at as many open or live games as allowed (creating, joining, a rematch, a quick pairing)";
    TooManyConnections = "too_many_connections", Some(429), "WS upgrade",
        "behind a trusted proxy: this client address has as many connections as allowed (a direct client beyond the cap is disconnected before any answer)";
    TooManyGames = "too_many_games", None, "WS",
        "this connection follows as many games as allowed: unsubscribe from one first";
    StorageFailing = "storage_failing", Some(503), "HTTP (`/healthz`, resign, claim…), WS (chat)",
        "writes to the database fail: nothing is acknowledged until they succeed again";
    BadName = "bad_name", Some(400), "HTTP", "registration: a name refused";
    BadPassword = "bad_password", Some(400), "HTTP", "registration: a password refused";
    NameTaken = "name_taken", Some(409), "HTTP", "registration: the name (or a look-alike) is taken";
    UnknownGame = "unknown_game", Some(400), "HTTP",
        "table creation, pairing: no game with that key (`404` for a profile's game)";
    UnknownClock = "unknown_clock", Some(400), "HTTP",
        "table creation, pairing: no clock profile with that key";
    UnknownBotLevel = "unknown_bot_level", Some(400), "HTTP", "table creation: no bot level with that name";
    BadInvite = "bad_invite", Some(403), "HTTP", "joining: the invite is not valid for this table";
    AlreadySeated = "already_seated", Some(409), "HTTP", "joining: the user already sits at this table";
    TableFull = "table_full", Some(409), "HTTP", "joining: no free seat at this table";
    TableStarted = "table_started", Some(409), "HTTP", "joining or leaving a table whose game started";
    NotSeated = "not_seated", Some(409), "HTTP",
        "leaving, a rematch or an analysis by someone not seated; resign, abandon, claim and \"I'm back\" answer it with `403`";
    NotStarted = "not_started", Some(409), "HTTP", "records of games not started";
    NotFinished = "not_finished", Some(409), "HTTP",
        "records, replays, analyses and rematches of games not over";
    NoSuchPly = "no_such_ply", Some(404), "HTTP", "a replay position past the game's last move";
    AnalysisQuota = "analysis_quota", Some(429), "HTTP",
        "a signed-in player asked for more analyses of other players' public games than a day allows (`serve --analysis-quota`)";
    SoloNotRated = "solo_not_rated", Some(400), "HTTP", "a rated solo table";
    RatedNeedsClock = "rated_needs_clock", Some(400), "HTTP", "a rated table, or a rated quick pairing, without a clock";
    TooManyBotSeats = "too_many_bot_seats", Some(429), "HTTP",
        "the creator's open and live tables would hold more search bots than allowed (see the limits in docs/server.md)";
    TooManyAnalyses = "too_many_analyses", Some(429), "HTTP",
        "the user's analyses queued or running are at the limit";
    TooManyAnalysesHere = "too_many_analyses_here", Some(429), "HTTP",
        "the analyses queued or running asked from the client's address (an IPv6 /64) are at the limit";
    AnalysisQueueFull = "analysis_queue_full", Some(503), "HTTP",
        "the server's analyses queued or running are at the limit";
    AccountRequired = "account_required", Some(403), "HTTP",
        "daily challenges and e-mail are for accounts: guests cannot take one";
    NoSuchChallenge = "no_such_challenge", Some(404), "HTTP", "daily challenges: not one of today's";
    DailyAlreadyPlayed = "daily_already_played", Some(409), "HTTP",
        "daily challenges: the one attempt is taken";
    DailyInProgress = "daily_in_progress", Some(409), "HTTP, WS",
        "a daily game shown before its day (plus the grace window) is over for everyone";
    BadSubscription = "bad_subscription", Some(400), "HTTP",
        "notifications: a push subscription refused (see \"Notifications\")";
    BadSettings = "bad_settings", Some(400), "HTTP", "notifications: settings refused";
    BadEmail = "bad_email", Some(400), "HTTP", "notifications: not an e-mail address";
    EmailOff = "email_off", Some(409), "HTTP", "notifications: e-mail without `--smtp`";
    TooManyVerificationMails = "too_many_verification_mails", Some(429), "HTTP",
        "notifications: the address was sent, or the account asked for, as many verification mails as 24 hours allow (`--verify-mails-per-address`, `--verify-mails-per-user`)";
    MailFailed = "mail_failed", Some(502), "HTTP", "notifications: the SMTP server refused a mail";
    BadToken = "bad_token", Some(404), "HTTP",
        "notifications: a verification or unsubscribe link that is not valid";
    AlreadyResigned = "already_resigned", Some(409), "HTTP",
        "resign: every seat of the user has resigned already (see \"Playing with people\")";
    NotBotOnly = "not_bot_only", Some(409), "HTTP", "abandon: a game with people in it";
    NobodyAway = "nobody_away", Some(409), "HTTP", "claim: no player is away";
    NotAway = "not_away", Some(409), "HTTP", "\"I'm back\": no bot plays the user's seat";
    CannotUndo = "cannot_undo", Some(409), "HTTP",
        "undo: the last step may not be taken back (the game's rules make it final: it revealed something, drew at random or ended the turn), it is not the user's, or the user is not to move";
    VacationActive = "vacation_active", Some(409), "HTTP",
        "vacation: one is running already (it cannot be lengthened; `DELETE` ends it)";
    VacationTooLong = "vacation_too_long", Some(400), "HTTP",
        "vacation: fewer than 1 day, or more days than the allowance has left (21 in any 365)";
    NoVacation = "no_vacation", Some(409), "HTTP",
        "vacation: \"I'm back\" (`DELETE /api/me/vacation`) while no vacation is running";
    NoteTooLong = "note_too_long", Some(400), "HTTP",
        "a private note (`PUT /api/games/{id}/note`) over 2,000 characters; nothing is stored";
    ChatTooLong = "chat_too_long", None, "WS",
        "a chat message refused (see \"Chat\"): too long; nothing is stored or sent";
    EmptyChat = "empty_chat", None, "WS", "a chat message refused: empty";
    UnknownPhrase = "unknown_phrase", None, "WS", "a chat message refused: no such quick phrase";
    ChatRateLimited = "chat_rate_limited", None, "WS",
        "a chat message refused: the user sends too many";
    ChatDailyCap = "chat_daily_cap", None, "WS",
        "a chat message refused: the user sent as many messages in the last 24 hours as allowed (`--chat-per-day`)";
    SoloNotPaired = "solo_not_paired", Some(400), "HTTP",
        "quick pairing for a solo game (see \"Meeting people\")";
    FriendsOnly = "friends_only", Some(403), "HTTP",
        "joining a friends-only table: only the players its creator follows may sit there";
    ClubOnly = "club_only", Some(403), "HTTP",
        "joining a club's table, or making one: for the club's members only";
    NotFollowing = "not_following", Some(403), "HTTP",
        "a seat kept for a player (a challenge) is for a player you follow";
    TooManyFollows = "too_many_follows", Some(429), "HTTP",
        "following: an account follows at most 500 players";
    ClubNameTaken = "club_name_taken", Some(409), "HTTP", "a new club or a rename: the name (or a look-alike) is taken";
    TooManyClubs = "too_many_clubs", Some(429), "HTTP", "an account owns at most 5 clubs";
    ClubBanned = "club_banned", Some(403), "HTTP", "joining a club that banned the user";
    NotClubModerator = "not_club_moderator", Some(403), "HTTP",
        "a club's moderation (approve, remove, ban, roles): for its moderators and owner, roles for its owner";
    NotClubOwner = "not_club_owner", Some(403), "HTTP",
        "renaming, handing over or deleting a club: for its owner only (not its moderators)";
    ClubOwnerStays = "club_owner_stays", Some(409), "HTTP",
        "the owner of a club cannot leave it, be removed or banned";
    BadOfflineRecord = "bad_offline_record", Some(400), "HTTP",
        "an offline game's upload (`POST /api/offline-games`): its record does not replay (unknown game, options refused, an illegal move), or its seats are not the player and bots; nothing is stored";
    OfflineNotOver = "offline_not_over", Some(409), "HTTP",
        "an offline game's upload: the game is not over (only finished games are kept)";
    TournamentClosed = "tournament_closed", Some(409), "HTTP",
        "tournaments: it is over (finished or cancelled), or no round is left to enter";
    RatingOutOfRange = "rating_out_of_range", Some(403), "HTTP",
        "tournaments: the player's rating for the game is outside the entry's range";
    NotCreator = "not_creator", Some(403), "HTTP",
        "tournaments: only its creator may start it early";
}

impl ApiErrorCode {
    /// The code of a text, if it is one of the server's.
    pub fn parse(code: &str) -> Option<ApiErrorCode> {
        ApiErrorCode::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == code)
    }

    /// The status an HTTP answer with this code has: a code only the WebSocket sends is a
    /// client's mistake if it ever reaches HTTP.
    pub fn status(self) -> StatusCode {
        self.http_status().unwrap_or(StatusCode::BAD_REQUEST)
    }
}

impl std::fmt::Display for ApiErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ApiErrorCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ApiErrorCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        ApiErrorCode::parse(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown error code `{text}`")))
    }
}

/// The `code` of an error: one of the server's, or one a game's rules crate gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    Api(ApiErrorCode),
    /// An engine's setup code (e.g. `bad_player_count`), listed in its descriptor.
    Rules(&'static str),
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Api(c) => c.as_str(),
            Code::Rules(c) => c,
        }
    }
}

impl From<ApiErrorCode> for Code {
    fn from(c: ApiErrorCode) -> Self {
        Code::Api(c)
    }
}

impl PartialEq<ApiErrorCode> for Code {
    fn eq(&self, other: &ApiErrorCode) -> bool {
        *self == Code::Api(*other)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// The error table of docs/protocol.md: the first table after its `### Error codes` heading.
pub fn protocol_table() -> String {
    let mut s = String::from("| code | HTTP status | where | meaning |\n|---|---|---|---|\n");
    for code in ApiErrorCode::ALL {
        let status = code
            .http_status()
            .map_or("—".to_string(), |s| format!("`{}`", s.as_u16()));
        s.push_str(&format!(
            "| `{}` | {status} | {} | {} |\n",
            code.as_str(),
            code.sent_by(),
            code.meaning()
        ));
    }
    s.push_str(
        "| engine setup codes (e.g. `bad_options`, `bad_player_count`, `solo_mode_required`, \
         `solo_mode_needs_one_player`, `bad_deck`) | `400` | HTTP | table creation, pairing: the \
         game's rules refuse the options or player count; each game's codes are its \
         descriptor's `setup_errors` (they live in its rules crate, not in `ApiErrorCode`) |\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::path::Path;

    fn repo() -> &'static Path {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
    }

    #[test]
    fn codes_are_unique_snake_case_and_round_trip() {
        let mut seen = HashSet::new();
        for &code in ApiErrorCode::ALL {
            let text = code.as_str();
            assert!(seen.insert(text), "`{text}` twice");
            assert!(
                text.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "`{text}` is not snake_case"
            );
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{text}\""));
            assert_eq!(serde_json::from_str::<ApiErrorCode>(&json).unwrap(), code);
        }
        assert!(serde_json::from_str::<ApiErrorCode>("\"no_such_code\"").is_err());
    }

    /// docs/protocol.md's table is this enum: a contributor who adds a code pastes the
    /// printed table.
    #[test]
    fn the_protocol_error_table_is_generated_from_the_enum() {
        let doc = std::fs::read_to_string(repo().join("docs/protocol.md")).unwrap();
        let after = doc
            .split_once("### Error codes\n\n")
            .expect("docs/protocol.md has an `### Error codes` section")
            .1;
        let table: String = after
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .map(|l| format!("{l}\n"))
            .collect();
        let expected = protocol_table();
        if table != expected {
            panic!(
                "docs/protocol.md's error table differs from ApiErrorCode: replace it with\n\n{expected}"
            );
        }
    }

    /// The browser translates every code: `error.<code>` in every catalog.
    #[test]
    fn every_code_has_a_translation() {
        for lang in ["en", "fr", "it"] {
            let path = repo().join(format!("web/i18n/{lang}.json"));
            let text = std::fs::read_to_string(&path).unwrap();
            let catalog: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&text).unwrap();
            let missing: Vec<_> = ApiErrorCode::ALL
                .iter()
                .filter(|c| !catalog.contains_key(&format!("error.{}", c.as_str())))
                .collect();
            assert!(missing.is_empty(), "{lang}.json lacks error.{missing:?}");
        }
    }
}
