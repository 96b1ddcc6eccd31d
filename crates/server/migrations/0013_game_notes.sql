-- Private notes per game (issue 46 item 10): what a player writes for themself beside a
-- game's board, read by nobody else. Portable SQL only (SQLite and PostgreSQL).
CREATE TABLE IF NOT EXISTS game_notes (
    game_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    text TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
