-- Friends, clubs and who may join a table (issue 49 items 2 and 3; docs/protocol.md,
-- "Friends and clubs"). Portable SQL only (SQLite and PostgreSQL). No foreign keys to
-- `users`: only accounts follow, are followed or belong to clubs, and accounts are never
-- swept.

-- `follower` follows `followed`: sees whether they are on the site or playing, may keep a
-- seat for them at a table (a challenge), and admits them to their friends-only tables.
CREATE TABLE IF NOT EXISTS follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX IF NOT EXISTS follows_followed ON follows(followed);

-- A club: its name (checked like an account name, unique by `name_key`), how one joins
-- (`open`, `approval`: a moderator approves a request, `invite`: only with the invite
-- token, which also lets one in at once into an `approval` club).
CREATE TABLE IF NOT EXISTS clubs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL,
    admission TEXT NOT NULL,
    invite TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A user's standing in a club: `owner`, `moderator`, `member`, `pending` (asked to join an
-- approval club) or `banned` (removed, and may not come back until a moderator unbans).
CREATE TABLE IF NOT EXISTS club_members (
    club_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    since BIGINT NOT NULL,
    PRIMARY KEY (club_id, user_id)
);
CREATE INDEX IF NOT EXISTS club_members_user ON club_members(user_id);

-- Who may take a seat at a table besides those a seat is kept for: the players its creator
-- follows (`friends`), or the members of `club_id` (`club`). No row: anyone.
CREATE TABLE IF NOT EXISTS table_audiences (
    game_id TEXT PRIMARY KEY,
    audience TEXT NOT NULL,
    club_id TEXT
);
CREATE INDEX IF NOT EXISTS table_audiences_club ON table_audiences(club_id);
