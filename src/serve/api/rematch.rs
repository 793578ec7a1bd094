//! A rematch after a game: `POST /api/games/{id}/rematch`. The same
//! players, each on the other side, with the same rules and time control;
//! made once both have asked (at once against the engine).

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::error::*;
use super::play::*;
use super::{entry, state_for};
use crate::serve::games::{SeatKind, new_id};
use crate::serve::{App, LoadError};

#[derive(Deserialize)]
pub(super) struct RematchReq {
    token: Option<String>,
    action: Option<String>,
}

pub(super) async fn rematch(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let entry = entry(&app, &id).await?;
    let req: RematchReq = parse_body(body)?;
    let token = req.token.as_deref();
    let mut live = entry.game.lock().await;
    let sides = player_sides(&live, token)?;
    if let Some(next) = live.rematch.clone() {
        // Made already: answer with it.
        drop(live);
        let next = self::entry(&app, &next).await?;
        let next_live = next.game.lock().await;
        let sides = next_live.sides_of(token);
        return Ok(Json(state_for(&next, &next_live, Some(&sides))).into_response());
    }
    if live.series.is_some() {
        return Err(bad(
            "this game is part of a series: its next game is the rematch",
        ));
    }
    if !live.is_over() {
        return Err(bad("the game is not over yet"));
    }
    let side = acting_side(&live, &sides);
    let other = side.opponent();
    let offer = live.rematch_offer;
    let make = match req.action.as_deref().map(str::trim).unwrap_or("offer") {
        "offer" => {
            offer == Some(other)
                || sides.contains(&other)
                || live.seats[other.index()].kind == SeatKind::Engine
        }
        "accept" if offer == Some(other) => true,
        "accept" => return Err(bad("there is no rematch offer to answer")),
        "decline" if offer == Some(other) => {
            app.store
                .set_rematch(live.id.clone(), None, None)
                .await
                .map_err(internal)?;
            live.rematch_offer = None;
            entry.broadcast(&live);
            return Ok(Json(state_for(&entry, &live, Some(&sides))).into_response());
        }
        "decline" => return Err(bad("there is no rematch offer to answer")),
        other => {
            return Err(bad(format!(
                "unknown action '{}' (offer, accept or decline)",
                one_line(other, 40)
            )));
        }
    };
    if !make {
        app.store
            .set_rematch(live.id.clone(), Some(side.letter().to_string()), None)
            .await
            .map_err(internal)?;
        live.rematch_offer = Some(side);
        entry.broadcast(&live);
        return Ok(Json(state_for(&entry, &live, Some(&sides))).into_response());
    }
    // The same players, each on the other side (tokens and names with them).
    let mut tries = 0;
    let new = loop {
        tries += 1;
        let new = live.next_swapped(new_id().map_err(internal)?, None);
        if app
            .store
            .insert_game(new.to_row(), None)
            .await
            .map_err(internal)?
        {
            break new;
        }
        if tries >= 5 {
            return Err(internal("cannot find a free game id"));
        }
    };
    app.store
        .set_rematch(live.id.clone(), None, Some(new.id.clone()))
        .await
        .map_err(internal)?;
    live.rematch_offer = None;
    live.rematch = Some(new.id.clone());
    entry.broadcast(&live);
    drop(live);
    let engine_to_move = new.engine_to_move().is_some();
    let (next, _) = app.hub.insert(new).map_err(|_| LoadError::Full)?;
    if engine_to_move {
        app.kick_engine(Arc::clone(&next));
    }
    let next_live = next.game.lock().await;
    let sides = next_live.sides_of(token);
    Ok(Json(state_for(&next, &next_live, Some(&sides))).into_response())
}
