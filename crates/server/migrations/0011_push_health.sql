-- How each push subscription's deliveries went (issue 54): a subscription is dropped on its
-- push service's 404/410 only if that service once took a notification for it, so that a
-- guest cannot learn from its subscription vanishing whether some URL exists; one that never
-- worked goes after failing long and often (`reach::push`).
-- Portable SQL only (SQLite and PostgreSQL).
-- Set when a notification was taken after none or after failures (ms since the epoch; not
-- rewritten on every push); NULL: never taken.
ALTER TABLE push_subscriptions ADD COLUMN delivered_at BIGINT;
-- Failed deliveries since the last one taken, and when the first of them was.
ALTER TABLE push_subscriptions ADD COLUMN failures BIGINT NOT NULL DEFAULT 0;
ALTER TABLE push_subscriptions ADD COLUMN failing_since BIGINT;
