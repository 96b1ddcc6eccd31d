-- Clocks per turn (docs/protocol.md, "Clocks"). `clock` is the table's profile (JSON: key,
-- bank_ms, bonus_ms, turn_ms; NULL: no clock), `clock_state` what the clock reads after the
-- last move (JSON: banks_ms, running, turn_started_ms, timeouts), `to_move` the seat to move
-- (NULL once finished or before the first read of a new game): the "your move" list reads it.
-- `deadline_at` is when the running turn's time runs out (ms since the epoch): a game whose
-- room left memory is woken up by it.
-- Tables made with the old per-move clock (`move_seconds`) keep it as a per-turn profile.
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN clock_state TEXT;
ALTER TABLE games ADD COLUMN to_move BIGINT;
ALTER TABLE games ADD COLUMN deadline_at BIGINT;
UPDATE games SET clock = '{"key":"' || CAST(move_seconds AS TEXT) || 's","turn_ms":'
    || CAST(move_seconds * 1000 AS TEXT) || '}'
  WHERE move_seconds > 0;
CREATE INDEX IF NOT EXISTS games_to_move ON games(status, to_move);
CREATE INDEX IF NOT EXISTS games_deadline ON games(status, deadline_at);
