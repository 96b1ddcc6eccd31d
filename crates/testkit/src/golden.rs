//! The one mechanism behind every golden file (records of seeded games, in each game crate
//! and in the CLI's tests): a test regenerates the text from its seed and compares it with
//! the stored file; `UPDATE_EXPECT=1 cargo test ...` rewrites the files after an intended
//! change (expect-test's convention), and the diff shows what changed.
use std::path::Path;

/// Fails with a diff unless `path` holds exactly `actual`; rewrites it under `UPDATE_EXPECT=1`.
pub fn expect_golden(path: &Path, actual: &str) {
    expect_test::expect_file![path].assert_eq(actual);
}
