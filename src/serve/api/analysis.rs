//! `POST /api/analyze`: the engine's and the tables' view of a position,
//! in Oware or Mancala.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::create::parse_rules;
use super::error::*;
use crate::parse_moves;
use crate::serve::App;
use crate::serve::limits::MAX_PLIES;

#[derive(Deserialize)]
pub(super) struct AnalyzeReq {
    position: Option<String>,
    moves: Option<String>,
    rules: Option<String>,
    start_seeds: Option<u64>,
    empty_capture: Option<bool>,
    movetime: Option<u64>,
}

pub(super) async fn analyze(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: AnalyzeReq = parse_body(body)?;
    let rules = parse_rules(
        req.rules.as_deref(),
        None,
        req.start_seeds,
        req.empty_capture,
    )?;
    let mut game = rules.new_game(req.position.as_deref()).map_err(bad)?;
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
