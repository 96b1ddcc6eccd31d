//! The browser client: files of `web/`, embedded in release builds, read from disk in debug.
use crate::error_code::ApiErrorCode;
use axum::http::{Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

/// The client's own unit tests and their `package.json` (`node --test web/tests`), and the
/// type checker's `jsconfig.json`, are not part of the site.
#[derive(RustEmbed)]
#[folder = "../../web"]
#[exclude = "tests/*"]
#[exclude = "package.json"]
#[exclude = "jsconfig.json"]
struct Assets;

pub async fn static_file(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    match Assets::get(path) {
        Some(file) => {
            let mime = file.metadata.mimetype().to_string();
            ([(header::CONTENT_TYPE, mime)], file.data.into_owned()).into_response()
        }
        None => crate::error::ApiError::new(ApiErrorCode::NotFound, "no such page").into_response(),
    }
}

/// A file of the browser client (`web/`), e.g. a message catalog the server's own texts
/// (e-mails, push notifications) are taken from.
pub fn asset(path: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    Assets::get(path).map(|f| f.data)
}
