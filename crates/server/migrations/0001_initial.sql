-- The first schema. Written with IF NOT EXISTS: databases created before migrations moved to
-- sqlx::migrate! already hold these tables (and a `schema_version` table, now unused), and
-- this migration is then recorded as applied without changing them.
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    name TEXT UNIQUE,
    password_hash TEXT,
    guest BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id),
    created_at BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    options TEXT NOT NULL,
    seed BIGINT NOT NULL,
    status TEXT NOT NULL,
    listed BIGINT NOT NULL,
    invite TEXT NOT NULL,
    move_seconds BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    result TEXT,
    created_at BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    kind TEXT NOT NULL,
    user_id TEXT,
    bot_level TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply BIGINT NOT NULL,
    text TEXT NOT NULL,
    by_bot BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE INDEX IF NOT EXISTS seats_user ON seats(user_id);
