//! Errors as the API shows them: an HTTP status and a stable snake_case code the UI translates
//! (the codes: `crate::error_code`).
use crate::error_code::{ApiErrorCode, Code};
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: Code,
    pub message: String,
}

impl ApiError {
    /// An answer with `code` and its documented status.
    pub fn new(code: ApiErrorCode, message: impl Into<String>) -> Self {
        Self::with_status(code.status(), code, message)
    }
    /// An answer whose status is not its code's usual one (the code's doc line says where).
    pub fn with_status(
        status: StatusCode,
        code: impl Into<Code>,
        message: impl Into<String>,
    ) -> Self {
        ApiError {
            status,
            code: code.into(),
            message: message.into(),
        }
    }
    /// A game's rules refuse a setup: `400` with the engine's own code.
    pub fn setup(e: pyramidion_games::GameError) -> Self {
        Self::with_status(StatusCode::BAD_REQUEST, Code::Rules(e.code), e.message)
    }
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(ApiErrorCode::BadRequest, message)
    }
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(ApiErrorCode::Unauthorized, message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ApiErrorCode::NotFound, message)
    }
    pub fn conflict(code: ApiErrorCode, message: impl Into<String>) -> Self {
        Self::with_status(StatusCode::CONFLICT, code, message)
    }
    pub fn rate_limited() -> Self {
        Self::new(ApiErrorCode::RateLimited, "too many requests: slow down")
    }
    pub fn internal(e: impl std::fmt::Display) -> Self {
        tracing::error!(error = %e, "internal error");
        Self::new(ApiErrorCode::Internal, "internal error")
    }
}

/// Every error answer: `{"error": {"code", "message"}}`.
#[derive(serde::Serialize)]
pub struct ErrorBody<'a> {
    pub error: ErrorDetail<'a>,
}

/// What went wrong: a stable code and a message for people.
#[derive(serde::Serialize)]
pub struct ErrorDetail<'a> {
    pub code: Code,
    pub message: &'a str,
}

/// The code of an answer, for [`json_errors`] to count.
#[derive(Clone)]
struct Answered(Code);

/// What a 5xx answer said, for [`json_errors`] to log with its request.
#[derive(Clone)]
struct ServerError {
    code: Code,
    message: String,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(ErrorBody {
                error: ErrorDetail {
                    code: self.code,
                    message: &self.message,
                },
            }),
        )
            .into_response();
        response.extensions_mut().insert(Answered(self.code));
        if self.status.is_server_error() {
            response.extensions_mut().insert(ServerError {
                code: self.code,
                message: self.message,
            });
        }
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, RETRY_AFTER);
        }
        response
    }
}

/// Seconds a client is asked to wait before trying again after a `503` (`Retry-After`).
pub const RETRY_AFTER: axum::http::HeaderValue = axum::http::HeaderValue::from_static("5");

impl ApiError {
    /// `503 unavailable`: the server is at one of its caps (connections, live games); the
    /// answer says so (with `Retry-After`) rather than letting the client wait or fail.
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(ApiErrorCode::Unavailable, message)
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// Every error answer has the documented shape, including those axum and tower-http produce
/// themselves (405 for a wrong method, 413 for a large body, 400 for a bad path or query,
/// upgrade failures): a non-JSON error response is rewritten into
/// `{"error": {"code", "message"}}`, its text kept as the message.
///
/// Every error answer is counted by its code (`pyramidion_http_errors_total`).
pub async fn json_errors(
    axum::extract::State(metrics): axum::extract::State<std::sync::Arc<crate::metrics::Metrics>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let (method, path) = (req.method().clone(), req.uri().path().to_string());
    let response = next.run(req).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    // Every 5xx is logged with its request; the handler's own (`ApiError`) with its code.
    if let Some(e) = response.extensions().get::<ServerError>() {
        let level_error = status != StatusCode::SERVICE_UNAVAILABLE;
        if level_error {
            tracing::error!(%method, path, status = status.as_u16(), code = %e.code, cause = %e.message, "server error");
        } else {
            tracing::warn!(%method, path, code = %e.code, cause = %e.message, "answered 503");
        }
    }
    let json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json {
        if let Some(Answered(code)) = response.extensions().get::<Answered>() {
            metrics.error_answered(*code);
        }
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let code = match status {
        StatusCode::UNAUTHORIZED => ApiErrorCode::Unauthorized,
        StatusCode::NOT_FOUND => ApiErrorCode::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => ApiErrorCode::MethodNotAllowed,
        StatusCode::REQUEST_TIMEOUT => ApiErrorCode::RequestTimeout,
        StatusCode::PAYLOAD_TOO_LARGE => ApiErrorCode::PayloadTooLarge,
        StatusCode::TOO_MANY_REQUESTS => ApiErrorCode::RateLimited,
        StatusCode::SERVICE_UNAVAILABLE => ApiErrorCode::Unavailable,
        s if s.is_server_error() => ApiErrorCode::Internal,
        _ => ApiErrorCode::BadRequest,
    };
    // A 5xx from the framework (a layer's failure, a handler that gave up) never went
    // through `ApiError`: it is logged here with its cause, which the client is not shown.
    if status.is_server_error() {
        tracing::error!(%method, path, status = status.as_u16(), cause = %text, "server error");
    }
    let message = if status == StatusCode::INTERNAL_SERVER_ERROR {
        "internal error".to_string()
    } else if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        text
    };
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    parts.headers.remove(axum::http::header::CONTENT_TYPE);
    metrics.error_answered(code.into());
    let fresh = ApiError::with_status(status, code, message).into_response();
    let (fresh_parts, body) = fresh.into_parts();
    parts.headers.extend(fresh_parts.headers);
    Response::from_parts(parts, body)
}
