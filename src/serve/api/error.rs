//! Error answers: a status and one line, as `{"error": "…"}`; and the
//! reading of JSON bodies.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::serve::LoadError;
use crate::serve::engine_pool::PoolError;

/// An error answer: a status and one line.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

pub(super) type ApiResult<T> = Result<T, ApiError>;

pub(super) fn bad(msg: impl ToString) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg.to_string())
}

pub(super) fn forbidden(msg: impl ToString) -> ApiError {
    ApiError(StatusCode::FORBIDDEN, msg.to_string())
}

pub(super) fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}"))
}

pub(super) fn no_game(id: &str) -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        format!("no game '{}'", one_line(id, 80)),
    )
}

pub(super) fn one_line(s: &str, max: usize) -> String {
    let s: String = s.chars().take(max).collect();
    s.replace(['\n', '\r'], " ")
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let msg = one_line(&self.1, 300);
        (self.0, Json(json!({ "error": msg }))).into_response()
    }
}

impl From<LoadError> for ApiError {
    fn from(e: LoadError) -> ApiError {
        match e {
            LoadError::Full => ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many live games; try again later".into(),
            ),
            LoadError::Broken(msg) => internal(msg),
        }
    }
}

impl From<PoolError> for ApiError {
    fn from(e: PoolError) -> ApiError {
        match e {
            PoolError::Busy => ApiError(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
            PoolError::Search(_) => internal(e),
        }
    }
}

/// The body as JSON of type `T`: 413 past the size limit, 400 when it is
/// not such JSON.
pub(super) fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    let bytes = body.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError(status, "request body too large".into())
        } else {
            ApiError(status, e.body_text())
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| bad(format!("bad JSON body: {e}")))
}
