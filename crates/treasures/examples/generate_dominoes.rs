//! Prints the project's Forgotten Treasures domino set as CSV (see `data::generate`).
fn main() {
    use pyramidion_treasures::data;
    print!("{}", data::to_csv(&data::generate(data::GENERATOR_SEED)));
}
