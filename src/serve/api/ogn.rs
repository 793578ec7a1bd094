//! `GET /api/ogn/{id}`: a game as an OGN record.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::entry;
use super::error::*;
use crate::serve::App;

pub(super) async fn ogn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let entry = entry(&app, &id).await?;
    let live = entry.game.lock().await;
    let south = live.seats[0].kind.name();
    let north = live.seats[1].kind.name();
    let record = live.game.record(&[
        ("Event", "oware serve"),
        ("South", south),
        ("North", north),
        ("Game", live.id.as_str()),
    ]);
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        Body::from(record.to_string()),
    )
        .into_response())
}
