-- Fair shares (issue 29). Who asked for an analysis (its work is shared fairly by that user,
-- and each user has at most a few queued), and how many times it was started: an analysis a
-- restart cut short is started again at most a few times, then marked failed.
ALTER TABLE analyses ADD COLUMN requested_by TEXT;
ALTER TABLE analyses ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
