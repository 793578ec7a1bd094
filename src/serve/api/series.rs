//! The next game of a series: `POST /api/games/{id}/next`.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};

use super::error::*;
use super::play::*;
use super::{entry, state_for};
use crate::serve::games::new_id;
use crate::serve::store::SeriesGameRow;
use crate::serve::{App, LoadError};

pub(super) async fn next(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let entry = entry(&app, &id).await?;
    let req: TokenReq = parse_body(body)?;
    let token = req.token.as_deref();
    let live = entry.game.lock().await;
    player_sides(&live, token)?;
    let Some((shared, index, south_player)) = live.series.clone() else {
        return Err(bad("this game is not part of a series"));
    };
    let (last, decided, series_id) = {
        let s = shared.lock().unwrap_or_else(|e| e.into_inner());
        (
            s.games.last().map(|g| g.id.clone()).unwrap_or_default(),
            s.series().is_decided(),
            s.id.clone(),
        )
    };
    if last != live.id {
        // The next game has been started already: answer with it.
        drop(live);
        let next = self::entry(&app, &last).await?;
        let next_live = next.game.lock().await;
        let sides = next_live.sides_of(token);
        return Ok(Json(state_for(&next, &next_live, Some(&sides))).into_response());
    }
    if !live.is_over() {
        return Err(bad("the game is not over yet"));
    }
    if decided {
        return Err(bad("the series is decided"));
    }
    // Sides alternate: each player takes the other seat.
    let player = south_player.other();
    let mut tries = 0;
    let new = loop {
        tries += 1;
        let series = Some((Arc::clone(&shared), index + 1, player));
        let new = live.next_swapped(new_id().map_err(internal)?, series);
        let mut row = new.to_row();
        row.series = Some((series_id.clone(), index + 1, player.to_string()));
        if app.store.insert_game(row, None).await.map_err(internal)? {
            break new;
        }
        if tries >= 5 {
            return Err(internal("cannot find a free game id"));
        }
    };
    shared
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .games
        .push(SeriesGameRow {
            id: new.id.clone(),
            south_player: player.to_string(),
            over: new.is_over(),
            winner: None,
        });
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
