//! Writing to standard output without panicking when the reader has gone.

/// `println!` that hands back the write error instead of panicking, for `?`: a reader that
/// closes the pipe early (`pyramidion bench | head -1`) then ends the command quietly.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($arg)*)
    }};
}
