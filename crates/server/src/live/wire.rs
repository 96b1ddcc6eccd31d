//! Deflated messages, for WebSockets opened with `/ws?deflate=1`: a server message of more
//! than [`DEFLATE_FROM`] bytes of JSON goes as a binary frame holding its raw DEFLATE
//! (RFC 1951), each message on its own (no shared dictionary: any frame decodes alone).
//! Views and legal-move lists repeat the same keys, so this takes a move's `patch` from
//! about 0.9 KiB to about 0.3 KiB (docs/performance.md). Smaller messages stay text.
//! (The WebSocket library has no permessage-deflate; browsers inflate with
//! `DecompressionStream('deflate-raw')`.)
use std::io::{Read, Write};

/// Messages up to this size (JSON bytes) stay text: deflate would barely shrink them.
pub const DEFLATE_FROM: usize = 200;

/// The raw DEFLATE of `text`.
pub fn deflate(text: &str) -> Vec<u8> {
    let mut out = flate2::write::DeflateEncoder::new(
        Vec::with_capacity(text.len() / 2),
        flate2::Compression::default(),
    );
    // Writing to a Vec cannot fail.
    let _ = out.write_all(text.as_bytes());
    out.finish().unwrap_or_default()
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
    }
}
