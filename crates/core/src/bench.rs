//! Micro-benchmarks a game offers `pyramidion bench`, besides the random games every game
//! gets. The game crates have no clock: a case only does work and counts it; the CLI times it.

/// One figure: `run` does a batch of work and returns how many operations it did; the figure
/// printed is nanoseconds per operation.
pub struct BenchCase {
    pub name: &'static str,
    pub run: Box<dyn FnMut() -> u64>,
}

impl BenchCase {
    pub fn new(name: &'static str, run: impl FnMut() -> u64 + 'static) -> BenchCase {
        BenchCase {
            name,
            run: Box::new(run),
        }
    }
}
