//! Rewrites `data/cards.csv` from the documented generator (`data::generate_csv`).
//!
//! `cargo run -p pyramidion-pyramids --example generate_cards` (or pass `-- --check` to only
//! compare). A unit test checks that the shipped file equals the generator's output.
use std::path::Path;

fn main() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/cards.csv");
    let text = pyramidion_pyramids::data::generate_csv();
    if std::env::args().any(|a| a == "--check") {
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            println!("{} is up to date", path.display());
        } else {
            eprintln!("{} differs from the generator's output", path.display());
            std::process::exit(1);
        }
    } else {
        std::fs::write(&path, text).expect("write data/cards.csv");
        println!("wrote {}", path.display());
    }
}
