-- Look-alike keys computed again (issue 54): the key (crate::names::key) used to fold case
-- before the confusable skeleton, so a capital `I` became `i` and never met `l`: `Ian` and
-- `lan` were two names. The new key takes the skeleton of the upper-case form first (`I` is
-- `l` there), so keys stored before differ from the new ones. They are computed in Rust at
-- start (`Store::open`), oldest first, so collisions are decided as in 0005: of two names
-- that now look alike, the older account (or club) keeps the key; the younger keeps its
-- name and its sign-in, holds no key and blocks nobody.
-- Accounts: a NULL key is filled at start.
UPDATE users SET name_key = NULL WHERE name_key IS NOT NULL;
-- Clubs (the key is NOT NULL UNIQUE): a stale mark no key can equal (a key has no `~`),
-- unique by the club's id; the start replaces it by the new key where it is free.
UPDATE clubs SET name_key = '~stale:' || id;

-- Chat reports bounded (issue 54): a report says whether a guest made it (the operator weighs
-- those less: `pyramidion moderation` shows it) and the client address it came from, by its
-- per-address key (an IPv6 /64), so that reports are counted per user and per address over
-- 24 hours (`serve --reports-per-day`, `--guest-reports-per-day`, `--reports-per-address`).
ALTER TABLE chat_reports ADD COLUMN by_guest BIGINT NOT NULL DEFAULT 0;
ALTER TABLE chat_reports ADD COLUMN address TEXT;
CREATE INDEX IF NOT EXISTS chat_reports_reporter_at ON chat_reports(reporter, at);
CREATE INDEX IF NOT EXISTS chat_reports_address_at ON chat_reports(address, at);
