-- One row that the writer rewrites to check that the storage takes writes (at start-up, and
-- while a storage fault lasts).
CREATE TABLE IF NOT EXISTS probe (
    id BIGINT PRIMARY KEY,
    at BIGINT NOT NULL
);
INSERT INTO probe (id, at) VALUES (1, 0);
