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

-- Vacation mode (issue 46 item 10): each vacation an account took, from when until when (ms
-- since the epoch, the rooms' clock: in a cluster the database's). The allowance (21 days in
-- any 365) is counted from these rows; the pause itself is in each game's clock.
CREATE TABLE IF NOT EXISTS vacations (
    user_id TEXT NOT NULL,
    starts_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS vacations_user ON vacations (user_id);
