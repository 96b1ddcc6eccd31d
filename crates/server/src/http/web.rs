//! The browser client: files of `web/`, embedded in release builds, read from disk in debug.
use crate::error_code::ApiErrorCode;
use axum::http::{Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

pub async fn static_file(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    if path == OFFLINE_FILES {
        return offline_files();
    }
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

/// The list of the site's files, for the service worker (web/sw.js).
const OFFLINE_FILES: &str = "offline-files.json";

/// `GET /offline-files.json`: every file of `web/` the site serves (`{"files": [path…]}`), which
/// the service worker keeps for offline play (issue 50): the shell, the engines' module and
/// every game's folder, read from what is embedded (release) or on disk (debug), so that the
/// worker names no file and a new game's files are kept with no change to it. The worker
/// itself is left out (the browser keeps and updates it on its own).
fn offline_files() -> Response {
    let files: Vec<String> = crate::assets::files()
        // Nor the formatter's settings, which are not part of the site.
        .filter(|f| f != "sw.js" && !f.starts_with('.'))
        .map(|f| f.into_owned())
        .collect();
    (
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(serde_json::json!({ "files": files })),
    )
        .into_response()
}
