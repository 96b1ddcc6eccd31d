-- A clockless Swiss round's deadline is a tournament option chosen at creation (issue 49:
-- `round_days`, 1 to 30 days, docs/tournaments.md "Round deadlines"). NULL in the
-- tournaments made before: 7 days, the constant they were made under.
ALTER TABLE tournaments ADD COLUMN round_days BIGINT;
-- Why a tournament was cancelled: NULL when too few had entered at its start, or
-- 'club_deleted' when its club was deleted before it started (its members' tables still open
-- are closed then too). Portable SQL only (SQLite and PostgreSQL).
ALTER TABLE tournaments ADD COLUMN cancelled_because TEXT;
