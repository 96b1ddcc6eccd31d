-- Several server instances on one PostgreSQL database (issue 28; see crates/server/src/cluster).
-- SQLite, the one-machine default, has one instance and never reads these tables.

-- Each instance running on the database: where the others reach it (`address`, its HTTP
-- listener) and until when it is alive (database time in ms, renewed by its heartbeat).
CREATE TABLE IF NOT EXISTS instances (
    id TEXT PRIMARY KEY,
    address TEXT NOT NULL,
    alive_until BIGINT NOT NULL,
    started_at BIGINT NOT NULL
);

-- Which instance runs a live game. `epoch` grows at every change of owner: a move is
-- committed only while its instance's epoch is still the game's (checked in the move's
-- transaction), so an instance that lost the game can never commit in it, even late.
-- `owner` is empty when the game was let go (its room left memory, or its instance drained).
CREATE TABLE IF NOT EXISTS game_leases (
    game_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    epoch BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS game_leases_owner ON game_leases(owner);

-- The instance running a queued analysis: exactly one runs it, and another starts it again
-- only once that one is dead (see `Cluster::claim_analysis`).
ALTER TABLE analyses ADD COLUMN runner TEXT;

-- Which instances a user has open connections on: a player connected to any instance is on
-- the site, and is not sent a push or a mail for their turn (`Cluster::present`).
CREATE TABLE IF NOT EXISTS presence (
    user_id TEXT NOT NULL,
    instance TEXT NOT NULL,
    conns BIGINT NOT NULL,
    PRIMARY KEY (user_id, instance)
);
