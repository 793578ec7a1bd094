//! `POST /api/analyze`: the engine's and the tables' view of a position.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::create::{parse_position, parse_variant};
use super::error::*;
use crate::serve::App;
use crate::serve::games::rules_of;
use crate::serve::limits::MAX_PLIES;
use crate::{Game, parse_moves};

#[derive(Deserialize)]
pub(super) struct AnalyzeReq {
    position: Option<String>,
    moves: Option<String>,
    rules: Option<String>,
    movetime: Option<u64>,
}

pub(super) async fn analyze(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: AnalyzeReq = parse_body(body)?;
    let variant = parse_variant(req.rules.as_deref())?;
    let mut game = Game::new(
        parse_position(req.position.as_deref())?,
        rules_of(variant, None),
    );
    if let Some(list) = &req.moves {
        let moves = parse_moves(list).map_err(|e| bad(format!("bad move list: {e}")))?;
        if moves.len() > MAX_PLIES {
            return Err(bad(format!("at most {MAX_PLIES} moves")));
        }
        for (i, mv) in moves.into_iter().enumerate() {
            game.play(mv)
                .map_err(|e| bad(format!("move {} ({mv}) cannot be played: {e}", i + 1)))?;
        }
    }
    if game.outcome().is_some() {
        return Err(bad("the game is over: there is nothing to analyse"));
    }
    let ms = req.movetime.unwrap_or(1000).clamp(1, 5000);
    let out = app.pool.analyze(game, Duration::from_millis(ms)).await?;
    Ok(Json(out).into_response())
}
