//! Prints the project's Forgotten Treasures domino set as CSV (see `dominoes::generate`).
fn main() {
    use pyramidion_treasures::dominoes;
    print!(
        "{}",
        dominoes::to_csv(&dominoes::generate(dominoes::GENERATOR_SEED))
    );
}
