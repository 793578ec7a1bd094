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
    /// Analyse the position after this many of `moves` (all by default).
    at: Option<usize>,
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
    // Every move is played (and its capture noted); the position analysed
    // is the one after `at` of them.
    let mut captures = Vec::new();
    let mut analysed = None;
    if let Some(list) = &req.moves {
        let moves = parse_moves(list).map_err(|e| bad(format!("bad move list: {e}")))?;
        if moves.len() > MAX_PLIES {
            return Err(bad(format!("at most {MAX_PLIES} moves")));
        }
        if let Some(at) = req.at.filter(|&at| at > moves.len()) {
            return Err(bad(format!(
                "at {at} is past the end of the {} moves",
                moves.len()
            )));
        }
        for (i, mv) in moves.into_iter().enumerate() {
            if req.at == Some(i) {
                analysed = Some(game.clone());
            }
            let played = game
                .play(mv)
                .map_err(|e| bad(format!("move {} ({mv}) cannot be played: {e}", i + 1)))?;
            captures.push(played.captured);
        }
    } else if req.at.is_some_and(|at| at > 0) {
        return Err(bad("at is past the end of the moves"));
    }
    let game = analysed.unwrap_or(game);
    if let Some((winner, reason)) = game.outcome() {
        // Nothing to search: the position as the game ended, and how.
        let mut out = game.show_json();
        if let serde_json::Value::Object(map) = &mut out {
            map.insert("moves".into(), serde_json::json!([]));
            map.insert("rules".into(), serde_json::json!(game.rules().name()));
            map.insert("tables".into(), serde_json::Value::Null);
            map.insert("captures".into(), serde_json::json!(captures));
            map.insert(
                "result".into(),
                serde_json::json!({
                    "winner": winner.map(|s| s.letter().to_string()),
                    "reason": reason,
                    "stores": game.stores(),
                }),
            );
        }
        return Ok(Json(out).into_response());
    }
    let ms = req.movetime.unwrap_or(1000).clamp(1, 5000);
    let mut out = app.pool.analyze(game, Duration::from_millis(ms)).await?;
    if let serde_json::Value::Object(map) = &mut out {
        map.insert("captures".into(), serde_json::json!(captures));
    }
    Ok(Json(out).into_response())
}
