//! The browser client: files of `web/`, embedded in release builds, read from disk in debug.
use crate::error_code::ApiErrorCode;
use axum::http::{Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

pub async fn static_file(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    // A language's catalog is the shell's with every registered game's merged in.
    if let Some(lang) = crate::assets::catalog_language(path)
        && let Some(catalog) = crate::assets::catalog(lang)
    {
        return match catalog {
            Ok(map) => (
                [(header::CONTENT_TYPE, "application/json")],
                Value::Object(map).to_string(),
            )
                .into_response(),
            Err(e) => crate::error::ApiError::new(ApiErrorCode::Internal, e).into_response(),
        };
    }
    match crate::assets::file(path) {
        Some(file) => {
            let mime = file.metadata.mimetype().to_string();
            ([(header::CONTENT_TYPE, mime)], file.data.into_owned()).into_response()
        }
        None => crate::error::ApiError::new(ApiErrorCode::NotFound, "no such page").into_response(),
    }
}
