-- Playing with people (issue 27): resignations and early ends, and the chat of each table.
-- Portable SQL only (SQLite and PostgreSQL): TEXT and BIGINT columns.

-- How a game ended when not by its rules alone: `resigned` (every player but one resigned),
-- `abandoned` (a game against bots that its player, or the server after days untouched,
-- ended), `claimed` (the others claimed a turn-based game whose player was away). NULL: by
-- the rules (the game's record reached its end).
ALTER TABLE games ADD COLUMN ending TEXT;

-- Each resignation in order (`ord` from 0): resigners rank last, the first to resign lowest.
-- `ply` is how many moves were played when the seat resigned.
CREATE TABLE IF NOT EXISTS resignations (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat BIGINT NOT NULL,
    ord BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- A table's chat, stored with the game (the replay shows it). `channel` is `players` or
-- `spectators`; a message is either `text` (plain text, at most the server's limit) or a
-- quick phrase's key (`phrase`, translated by each reader).
CREATE TABLE IF NOT EXISTS chat_messages (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games(id),
    channel TEXT NOT NULL,
    user_id TEXT NOT NULL,
    seat BIGINT,
    text TEXT,
    phrase TEXT,
    ply BIGINT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_messages_game ON chat_messages(game_id, at);

-- Messages reported to the server's operator (`pyramidion moderation` lists them).
CREATE TABLE IF NOT EXISTS chat_reports (
    message_id TEXT NOT NULL REFERENCES chat_messages(id),
    reporter TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (message_id, reporter)
);
