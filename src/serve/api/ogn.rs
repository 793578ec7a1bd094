//! `GET /api/ogn/{id}`: a game as an OGN record.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};

use super::entry;
use super::error::*;
use crate::serve::App;
use crate::serve::games::{SeatKind, ogn_date};

pub(super) async fn ogn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let entry = entry(&app, &id).await?;
    let live = entry.game.lock().await;
    // A player's name when given, else the seat's kind; an engine's with
    // its level.
    let player = |s: &crate::serve::games::Seat| match (s.kind, &s.name, s.level) {
        (SeatKind::Engine, name, Some(level)) => {
            format!("{} ({level})", name.as_deref().unwrap_or("oware"))
        }
        (_, Some(name), _) => name.clone(),
        (kind, None, _) => kind.name().to_string(),
    };
    let (south, north) = (player(&live.seats[0]), player(&live.seats[1]));
    let date = ogn_date(live.created);
    let record = live.game.record(&[
        ("Event", "oware serve"),
        ("Date", date.as_str()),
        ("South", south.as_str()),
        ("North", north.as_str()),
        ("Game", live.id.as_str()),
    ]);
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        Body::from(record.to_string()),
    )
        .into_response())
}
