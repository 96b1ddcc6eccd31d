-- Account names are unique by their look-alike key (crate::names::key: NFKC, case folded,
-- UTS #39 confusable skeleton, marks dropped): `admin`, `ADMIN` and Cyrillic `аdmin` are one
-- name. Keys of existing accounts are filled in at start (they are computed in Rust); of two
-- existing look-alikes the second keeps no key (it keeps its name and can still sign in).
ALTER TABLE users ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS users_name_key ON users(name_key);
