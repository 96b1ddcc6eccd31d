-- The quick-pairing queue (issue 28): one row per waiting player, so that the queue outlives
-- the instance that holds it (lease "~pairing" in `game_leases`). A row is written before the
-- ask is acknowledged and removed in the transaction that seats its player (or when the player
-- cancels, waited too long, or has been gone from the site for good).
-- Portable SQL only (SQLite and PostgreSQL).
CREATE TABLE IF NOT EXISTS pairing_queue (
    user_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players BIGINT NOT NULL,
    -- A clock profile key; NULL: no clock.
    clock TEXT,
    rated BIGINT NOT NULL,
    -- Only opponents within this many rating points; NULL: anyone.
    rating_range BIGINT,
    -- The player's rating for this game when they asked.
    rating DOUBLE PRECISION NOT NULL,
    -- When they asked (ms since the epoch): the longest waiting sit first.
    since BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS pairing_queue_since ON pairing_queue(since);
