//! Deflated messages, for WebSockets opened with `/ws?deflate=1`: a server message of more
//! than [`DEFLATE_FROM`] bytes of JSON goes as a binary frame holding its raw DEFLATE
//! (RFC 1951), each message on its own (no shared dictionary: any frame decodes alone).
//! Views and legal-move lists repeat the same keys, so this takes a move's `patch` from
//! about 0.9 KiB to about 0.3 KiB (docs/performance.md). Smaller messages stay text.
//! (The WebSocket library has no permessage-deflate; browsers inflate with
//! `DecompressionStream('deflate-raw')`.)
use std::io::Read;

/// Messages up to this size (JSON bytes) stay text: deflate would barely shrink them.
pub const DEFLATE_FROM: usize = 200;

/// How hard each message is deflated: zlib's default. The fastest level was tried (issue
/// 52): its fixed codes made a move's bytes a third larger (median 541 → 714 B, p99 823 →
/// 1,197 B, `scripts/bench-compare 4b7939a --no-build --runs 2 --games 1000`) for no CPU saving
/// the shared machine could show; docs/performance.md.
const LEVEL: flate2::Compression = flate2::Compression::new(6);

thread_local! {
    /// One encoder per thread, reset for each message: a fresh one allocates and clears its
    /// window and hash tables (~270 KiB) every time; a reset one gives the same bytes.
    static ENCODER: std::cell::RefCell<flate2::Compress> =
        std::cell::RefCell::new(flate2::Compress::new(LEVEL, false));
}

/// The raw DEFLATE of `text`.
pub fn deflate(text: &str) -> Vec<u8> {
    let input = text.as_bytes();
    ENCODER.with_borrow_mut(|encoder| {
        encoder.reset();
        let mut out = Vec::with_capacity(input.len() / 2 + 64);
        loop {
            let read = usize::try_from(encoder.total_in()).unwrap_or(input.len());
            let rest = input.get(read..).unwrap_or_default();
            match encoder.compress_vec(rest, &mut out, flate2::FlushCompress::Finish) {
                Ok(flate2::Status::StreamEnd) => return out,
                // The output was full: more room, and on from where it stopped.
                Ok(_) => out.reserve(out.capacity().max(64)),
                // Only a misused stream fails; a fresh encoder then starts over.
                Err(_) => {
                    *encoder = flate2::Compress::new(LEVEL, false);
                    out.clear();
                }
            }
        }
    })
}

/// Bytes that are not a deflated message of text.
#[derive(Debug, thiserror::Error)]
#[error("not a deflated message: {0}")]
pub struct NotDeflated(#[from] std::io::Error);

/// The text of a deflated message (as a client reads it).
pub fn inflate(bytes: &[u8]) -> Result<String, NotDeflated> {
    let mut text = String::new();
    flate2::read::DeflateDecoder::new(bytes).read_to_string(&mut text)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_message_inflates_back() {
        let text = r#"{"type":"patch","patch":{"view":{"ply":[3]}}}"#.repeat(20);
        let packed = super::deflate(&text);
        assert!(packed.len() < text.len() / 4);
        assert_eq!(super::inflate(&packed).unwrap(), text);
        assert!(super::inflate(b"not deflate at all").is_err());
        // The thread's encoder is reset between messages: the same text gives the same
        // bytes, and a long text (past the first output buffer) inflates back too.
        assert_eq!(super::deflate(&text), packed);
        // … and the bytes a fresh encoder at the same level gives (what was sent before the
        // encoder was kept per thread).
        let mut fresh = flate2::write::DeflateEncoder::new(Vec::new(), super::LEVEL);
        std::io::Write::write_all(&mut fresh, text.as_bytes()).unwrap();
        assert_eq!(fresh.finish().unwrap(), packed);
        let long: String = (0..20_000)
            .map(|i| format!("{},", i * 7919 % 10_007))
            .collect();
        assert_eq!(super::inflate(&super::deflate(&long)).unwrap(), long);
        assert_eq!(super::inflate(&super::deflate("")).unwrap(), "");
    }
}
