//! The browser client: files of `web/`, embedded in release builds, read from disk in debug.
use crate::error_code::ApiErrorCode;
use axum::http::{Uri, header};
use axum::response::{IntoResponse, Response};

pub async fn static_file(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    match crate::assets::file(path) {
        Some(file) => {
            let mime = file.metadata.mimetype().to_string();
            ([(header::CONTENT_TYPE, mime)], file.data.into_owned()).into_response()
        }
        None => crate::error::ApiError::new(ApiErrorCode::NotFound, "no such page").into_response(),
    }
}
