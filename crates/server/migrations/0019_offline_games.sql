-- Games played offline in the page (issue 50): dealt and played by the engines in the
-- browser, uploaded when the connection returned, replayed and checked by the server, and kept
-- as unrated finished games (never rated, never a daily challenge). One row per upload: the
-- page's own id for the game (`client_id`) makes a second upload of the same game (its answer
-- lost on a bad connection) find the first one instead of adding it twice.
-- Portable SQL only (SQLite and PostgreSQL).
CREATE TABLE IF NOT EXISTS offline_games (
    user_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games(id),
    uploaded_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, client_id)
);
CREATE INDEX IF NOT EXISTS offline_games_game ON offline_games(game_id);
