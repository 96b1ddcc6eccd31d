-- Bounds on mail and chat (issue 54). Portable SQL only (SQLite and PostgreSQL).
-- Every mail counted against a bound, by the recipient's address (`reach::mail::address_key`:
-- lower case, without a `+tag`) and, where one did, by the user whose act sent it: `event`
-- (a notification mail: per address and hour), `offer` (a rematch offer mailed: one per
-- asker and address a period), `verify` (a verification link: per address and per account a
-- day). Rows older than the longest bound are swept.
CREATE TABLE IF NOT EXISTS mail_log (
    address TEXT NOT NULL,
    kind TEXT NOT NULL,
    sender TEXT,
    sent_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS mail_log_address ON mail_log(address, kind, sent_at);
CREATE INDEX IF NOT EXISTS mail_log_sender ON mail_log(sender, kind, sent_at);
-- A user's chat messages of the last day (`--chat-per-day`).
CREATE INDEX IF NOT EXISTS chat_messages_user ON chat_messages(user_id, at);
