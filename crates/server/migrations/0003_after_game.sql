-- After the game: rated tables, Glicko-2 ratings, daily challenges, rematches, analyses.
-- Portable SQL only (SQLite and PostgreSQL): TEXT, BIGINT and DOUBLE PRECISION columns.

-- A rated table moves its players' ratings when it ends; casual ones (the default) do not.
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;

-- One Glicko-2 rating per game and player. `player` is a user id, or `bot:<level>` for a
-- bot level (user ids are hex, so the two never collide).
CREATE TABLE IF NOT EXISTS ratings (
    game TEXT NOT NULL,
    player TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (game, player)
);
CREATE INDEX IF NOT EXISTS ratings_by_game ON ratings(game, rating);

-- Each seat's rating before and after a rated game, written with the game's end.
CREATE TABLE IF NOT EXISTS rating_changes (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    player TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- One attempt per account at each daily challenge (`challenge` names the day, game and
-- options); the primary key refuses a second one.
CREATE TABLE IF NOT EXISTS daily_attempts (
    challenge TEXT NOT NULL,
    user_id TEXT NOT NULL,
    day TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    PRIMARY KEY (challenge, user_id)
);
CREATE INDEX IF NOT EXISTS daily_attempts_game ON daily_attempts(game_id);

-- Secrets the server draws once and keeps (the daily challenges' seed key).
CREATE TABLE IF NOT EXISTS server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- The finished game a table is the rematch of (one rematch per game).
ALTER TABLE games ADD COLUMN rematch_of TEXT;
CREATE INDEX IF NOT EXISTS games_rematch_of ON games(rematch_of);

-- A finished game's analysis (points lost per decision, `pyramidion_ai::analysis` as JSON);
-- `status` is `queued`, `done` or `failed`.
CREATE TABLE IF NOT EXISTS analyses (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    status TEXT NOT NULL,
    result TEXT,
    requested_at BIGINT NOT NULL,
    finished_at BIGINT
);
