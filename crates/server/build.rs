//! Rebuilds the server when a migration is added or changed (they are embedded by
//! `sqlx::migrate!`).
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
