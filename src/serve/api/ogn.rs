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
    // A series' game: the rule in words, and which game it is.
    let (event, round) = match &live.series {
        Some((shared, index, _)) => {
            let format = shared
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .format
                .to_string();
            (
                format!("oware serve, series: {}", series_words(&format)),
                (index + 1).to_string(),
            )
        }
        None => ("oware serve".to_string(), "-".to_string()),
    };
    let mut tags = vec![
        ("Event", event.as_str()),
        ("Round", round.as_str()),
        ("Date", date.as_str()),
        ("South", south.as_str()),
        ("North", north.as_str()),
        ("Game", live.id.as_str()),
    ];
    // A game ended off the board (resigned, agreed drawn, lost on time)
    // says how and who won, as `oware match` records do, and its Result
    // gives the stores then.
    let off_board = live.ending.filter(|_| live.game.outcome().is_none());
    if let Some(end) = off_board {
        tags.push(("Termination", end.reason));
        tags.push((
            "Winner",
            match end.winner {
                Some(crate::Side::South) => "South",
                Some(crate::Side::North) => "North",
                None => "draw",
            },
        ));
    }
    let mut record = live.game.record(&tags);
    if off_board.is_some() {
        record.set_result(live.game.stores());
    }
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        Body::from(record.to_string()),
    )
        .into_response())
}

/// A series format (`first-to:6,lead:3`) in words: what ends the series.
pub(crate) fn series_words(format: &str) -> String {
    let num = |s: &str| s.parse::<u32>().ok();
    let (kind, rest) = format.split_once(':').unwrap_or((format, ""));
    match (kind, rest.split_once(",lead:")) {
        ("first-to", Some((n, k))) if num(n).is_some() && num(k).is_some() => {
            format!("first to {n} wins, or {k} games ahead")
        }
        ("first-to", None) if num(rest).is_some() => format!("first to {rest} wins"),
        ("best-of", None) if num(rest).is_some() => format!("best of {rest}"),
        ("straight", None) if num(rest).is_some() => format!("{rest} wins in a row"),
        _ => format.to_string(),
    }
}
