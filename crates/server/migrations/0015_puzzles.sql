-- Puzzles from real games (issue 48 item 2): decisions the judge proves, each shown as its
-- deciding seat saw it, rated by Glicko-2 as its solvers are. Portable SQL only (SQLite and
-- PostgreSQL).
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    -- `bot:<seed>` for the seed data, the game's id for one mined on the server.
    source TEXT NOT NULL,
    -- The record up to the decision (JSON): kept here, never sent (it holds the deal's seed).
    record TEXT NOT NULL,
    ply BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    -- What the solver is shown (JSON: the seat's view and its legal moves' forms).
    position TEXT NOT NULL,
    -- JSON arrays: the accepted move texts; every candidate with its expected points; themes.
    solutions TEXT NOT NULL,
    candidates TEXT NOT NULL,
    themes TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzles_game_rating ON puzzles(game, rating);

-- Each first try of a puzzle by a player (a retry after it is not rated, and not kept).
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    user_id TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    game TEXT NOT NULL,
    solved BIGINT NOT NULL,
    move TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (user_id, puzzle_id)
);
CREATE INDEX IF NOT EXISTS puzzle_attempts_user ON puzzle_attempts(user_id, at);

-- A player's puzzle rating, per game.
CREATE TABLE IF NOT EXISTS puzzle_ratings (
    user_id TEXT NOT NULL,
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game)
);

-- The finished games the server's miner took (one row each, claimed before mining, so that
-- two instances of a cluster never mine one game twice), and how many puzzles each gave.
CREATE TABLE IF NOT EXISTS puzzle_mined (
    game_id TEXT PRIMARY KEY,
    puzzles BIGINT NOT NULL DEFAULT 0,
    at BIGINT NOT NULL
);

-- A player who does not want puzzles made from their games (1), or does not mind (0).
ALTER TABLE users ADD COLUMN puzzle_opt_out BIGINT NOT NULL DEFAULT 0;
