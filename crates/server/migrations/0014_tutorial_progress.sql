-- Interactive tutorials (issue 48 item 1): the steps each user (guest or account) solved in
-- a game's tutorial, so that it resumes where they left it. Portable SQL only (SQLite and
-- PostgreSQL).
CREATE TABLE IF NOT EXISTS tutorial_progress (
    user_id TEXT NOT NULL,
    game TEXT NOT NULL,
    lesson TEXT NOT NULL,
    step TEXT NOT NULL,
    solved_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game, lesson, step)
);
