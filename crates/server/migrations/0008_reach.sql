-- Reaching players who are away (docs/protocol.md, "Notifications"): Web Push subscriptions
-- per device, an e-mail address per account, which events reach whom, and the e-mail batches.
-- Portable SQL only (SQLite and PostgreSQL). No foreign keys to `users`: the sweep deletes
-- guests, and deletes their subscriptions with them.

-- One row per browser (device) that subscribed; `endpoint` is the push service's URL for it,
-- `p256dh` and `auth` its keys (base64url), `lang` the language its notifications are in.
CREATE TABLE IF NOT EXISTS push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    lang TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS push_subscriptions_user ON push_subscriptions(user_id, created_at);

-- An account's address: `verified` once its link was followed (`verify_hash` is the hash of
-- that link's token). `unsubscribe` is the token of every mail's one-click unsubscribe link.
CREATE TABLE IF NOT EXISTS emails (
    user_id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    verified BIGINT NOT NULL,
    verify_hash TEXT,
    unsubscribe TEXT NOT NULL,
    lang TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS emails_verify ON emails(verify_hash);
CREATE INDEX IF NOT EXISTS emails_unsubscribe ON emails(unsubscribe);

-- Which events reach a user by push and by e-mail (JSON: {"push": {"your_move": true, …},
-- "email": {…}}); no row: every event, both ways.
CREATE TABLE IF NOT EXISTS notify_prefs (
    user_id TEXT PRIMARY KEY,
    prefs TEXT NOT NULL
);

-- At most one mail per game and hour: when the last one left, and the events (JSON list of
-- kinds) waiting for the hour to pass.
CREATE TABLE IF NOT EXISTS mail_batches (
    user_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    last_sent_at BIGINT,
    pending TEXT,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX IF NOT EXISTS mail_batches_due ON mail_batches(last_sent_at);
