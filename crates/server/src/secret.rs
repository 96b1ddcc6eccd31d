//! Random secrets and the hashes stored in their place: session tokens, game ids, invites,
//! the cluster's link secret. A leaf: every layer makes ids with it.
use blake2::{Blake2b512, Digest};

/// `bytes` random bytes from the OS, in lower-case hex.
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).expect("the OS random source works");
    hex(&buf)
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What is stored of a session token: its BLAKE2b hash, in hex (a stolen database holds no
/// usable session).
pub fn token_hash(token: &str) -> String {
    hex(&Blake2b512::digest(token.as_bytes()))
}
