//! The files of the browser client (`web/`), embedded in release builds and read from disk in
//! debug: the site `http::web` serves, and the message catalogs the server's own texts
//! (e-mails, push notifications) are taken from. A leaf, so that any layer may read them.
use rust_embed::RustEmbed;

/// The client's own unit tests and their `package.json` (`node --test web/tests`), and the
/// type checker's `jsconfig.json` and the wire types' declarations (`crate::wire`), are not part
/// of the site.
#[derive(RustEmbed)]
#[folder = "../../web"]
#[exclude = "tests/*"]
#[exclude = "package.json"]
#[exclude = "jsconfig.json"]
#[exclude = "js/wire/*"]
struct Assets;

/// A file of `web/` with its metadata (the site serves its MIME type).
pub fn file(path: &str) -> Option<rust_embed::EmbeddedFile> {
    Assets::get(path)
}

/// A file of the browser client (`web/`), e.g. a message catalog the server's own texts
/// (e-mails, push notifications) are taken from.
pub fn asset(path: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    Assets::get(path).map(|f| f.data)
}
