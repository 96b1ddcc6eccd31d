-- Undo within a turn (issue 46 item 9): the steps a player took back leave `moves` (the
-- record replays without them) and are kept here, never replayed. Portable SQL only (SQLite
-- and PostgreSQL).
CREATE TABLE IF NOT EXISTS undone_moves (
    game_id TEXT NOT NULL,
    ply BIGINT NOT NULL,
    text TEXT NOT NULL,
    undone_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS undone_moves_game ON undone_moves (game_id);
