-- Tournaments (issue 49 item 1; see docs/tournaments.md, "Driving it from the server"):
-- Swiss and Arena events whose games are normal games, each linked to its round and table.
-- Portable SQL only (SQLite and PostgreSQL).
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    -- The game's options (JSON) but `players`, which is the table size.
    options TEXT NOT NULL,
    -- 'swiss' or 'arena'.
    format TEXT NOT NULL,
    seats BIGINT NOT NULL,
    short_tables BIGINT NOT NULL,
    -- A clock profile key; NULL: turn-based (the games have no clock).
    clock TEXT,
    rated BIGINT NOT NULL,
    -- When the first round is paired (Swiss) or the pool opens (Arena), ms since the epoch.
    starts_at BIGINT NOT NULL,
    -- Swiss: how many rounds; Arena: how long it runs (ms). The other is NULL.
    rounds BIGINT,
    duration_ms BIGINT,
    -- Entry conditions: a rating range for the game (NULL: no bound), and who may enter
    -- ('open', 'invite': with the invite link only, 'club': members of `club_id` only).
    min_rating BIGINT,
    max_rating BIGINT,
    entry TEXT NOT NULL,
    club_id TEXT,
    invite TEXT NOT NULL,
    -- The level of the bots that fill tables; NULL: no bots.
    bot_level TEXT,
    created_by TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    -- 'open' (taking entries), 'running', 'finished'.
    status TEXT NOT NULL,
    -- The pure core's state (pyramidion-tournament's Swiss or Arena as JSON) once started.
    state TEXT,
    -- Grows at every commit of the state: a step commits only over the state it read.
    version BIGINT NOT NULL,
    seed BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE INDEX IF NOT EXISTS tournaments_status ON tournaments(status, starts_at);

-- Who entered; a withdrawn entrant is not paired again but keeps their standing.
CREATE TABLE IF NOT EXISTS tournament_entrants (
    tournament_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    joined_at BIGINT NOT NULL,
    withdrawn BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX IF NOT EXISTS tournament_entrants_user ON tournament_entrants(user_id);

-- A round is paired once: its row is written in the transaction that commits its pairing,
-- and the key refuses a second one whatever instance tries.
CREATE TABLE IF NOT EXISTS tournament_rounds (
    tournament_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    ended_at BIGINT,
    PRIMARY KEY (tournament_id, round)
);

-- Each table of a round and its game (Arena: round 0, tables in the order they formed).
CREATE TABLE IF NOT EXISTS tournament_tables (
    tournament_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    table_no BIGINT NOT NULL,
    game_id TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round, table_no)
);
CREATE UNIQUE INDEX IF NOT EXISTS tournament_tables_game ON tournament_tables(game_id);
