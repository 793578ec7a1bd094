//! A game's state and its players' acts: moves, resigning, draws.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::error::*;
use super::{entry, state_for};
use crate::serve::App;
use crate::serve::games::{Ending, Entry, LiveGame, SeatKind, now_ms};
use crate::serve::limits::MAX_PLIES;
use crate::{Move, Side, parse_moves};

#[derive(Deserialize)]
pub(super) struct TokenQuery {
    token: Option<String>,
}

pub(super) async fn state(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<TokenQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(query) = query.map_err(|e| bad(e.body_text()))?;
    let entry = entry(&app, &id).await?;
    let mut live = entry.game.lock().await;
    flag_if_out(&app, &entry, &mut live).await?;
    let sides = live.sides_of(query.token.as_deref());
    let mut changed = false;
    for &side in &sides {
        if !live.seats[side.index()].joined {
            app.store
                .set_joined(live.id.clone(), side.index())
                .await
                .map_err(internal)?;
            live.seats[side.index()].joined = true;
            changed = true;
        }
    }
    if changed {
        entry.broadcast(&live);
    }
    let seat = query.token.is_some().then_some(&sides[..]);
    Ok(Json(state_for(&entry, &live, seat)).into_response())
}

/// Plays `mv` in `live` and writes it to the database first: the game in
/// memory changes only once the move is stored.
pub(crate) async fn apply_move(app: &App, live: &mut LiveGame, mv: Move) -> ApiResult<()> {
    if live.ending.is_some() {
        return Err(bad("the game is over"));
    }
    if live.game.moves().len() >= MAX_PLIES {
        return Err(bad(format!("a game holds at most {MAX_PLIES} moves")));
    }
    let mut next = live.game.clone();
    let played = next.play(mv).map_err(bad)?;
    let over = next
        .outcome()
        .map(|(winner, _)| winner.map(|s| s.letter().to_string()));
    let clock = live.clock_after_move(now_ms(), over.is_some());
    app.store
        .add_move(
            live.id.clone(),
            live.game.moves().len(),
            mv.letter().to_string(),
            over,
            clock.clone(),
        )
        .await
        .map_err(internal)?;
    live.game = next;
    live.clock = clock;
    live.captures.push(played.captured);
    live.draw_offer = None;
    if live.is_over() {
        live.note_over_in_series();
    }
    Ok(())
}

/// The sides `token` holds, or 403.
pub(super) fn player_sides(live: &LiveGame, token: Option<&str>) -> ApiResult<Vec<Side>> {
    let sides = live.sides_of(token);
    if sides.is_empty() {
        return Err(forbidden(if token.is_none() {
            "watchers cannot play: a seat's token is needed"
        } else {
            "this token holds no seat in this game"
        }));
    }
    Ok(sides)
}

/// The side a token acts for: the side to move when it holds both.
pub(super) fn acting_side(live: &LiveGame, sides: &[Side]) -> Side {
    if sides.len() == 1 {
        sides[0]
    } else {
        live.game.side_to_move()
    }
}

#[derive(Deserialize)]
pub(super) struct MoveReq {
    #[serde(rename = "move")]
    mv: String,
    token: Option<String>,
}

pub(super) async fn play(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let entry = entry(&app, &id).await?;
    let req: MoveReq = parse_body(body)?;
    let mut live = entry.game.lock().await;
    let sides = player_sides(&live, req.token.as_deref())?;
    if flag_if_out(&app, &entry, &mut live).await? {
        return Err(bad("the time ran out: the game is over"));
    }
    if live.is_over() {
        return Err(bad("the game is over"));
    }
    if !sides.contains(&live.game.side_to_move()) {
        return Err(forbidden("not your turn"));
    }
    let moves = parse_moves(&req.mv).map_err(|e| bad(format!("bad move: {e}")))?;
    let [mv] = moves[..] else {
        return Err(bad("give exactly one move, a letter A-F or a-f"));
    };
    apply_move(&app, &mut live, mv).await?;
    entry.broadcast(&live);
    if live.engine_to_move().is_some() {
        app.kick_engine(Arc::clone(&entry));
    }
    app.watch_clock(Arc::clone(&entry), &live);
    Ok(Json(state_for(&entry, &live, Some(&sides))).into_response())
}

#[derive(Deserialize)]
pub(super) struct TokenReq {
    pub(super) token: Option<String>,
}

pub(crate) async fn end_off_board(app: &App, live: &mut LiveGame, ending: Ending) -> ApiResult<()> {
    let mut clock = live.clock_stopped(now_ms());
    if let (Some(c), "time", Some(w)) = (&mut clock, ending.reason, ending.winner) {
        c.left_ms[w.opponent().index()] = 0;
    }
    app.store
        .end_game(
            live.id.clone(),
            ending.winner.map(|s| s.letter().to_string()),
            ending.reason.to_string(),
            clock.clone(),
        )
        .await
        .map_err(internal)?;
    live.clock = clock;
    live.ending = Some(ending);
    live.draw_offer = None;
    live.note_over_in_series();
    Ok(())
}

/// Ends the game when the side to move has run out of time (the other
/// side wins), and tells the sockets; whether it did.
pub(crate) async fn flag_if_out(app: &App, entry: &Entry, live: &mut LiveGame) -> ApiResult<bool> {
    let Some(side) = live.flagged(now_ms()) else {
        return Ok(false);
    };
    let ending = Ending {
        winner: Some(side.opponent()),
        reason: "time",
    };
    end_off_board(app, live, ending).await?;
    entry.broadcast(live);
    Ok(true)
}

pub(super) async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let entry = entry(&app, &id).await?;
    let req: TokenReq = parse_body(body)?;
    let mut live = entry.game.lock().await;
    let sides = player_sides(&live, req.token.as_deref())?;
    if live.is_over() {
        return Err(bad("the game is over"));
    }
    let side = acting_side(&live, &sides);
    let ending = Ending {
        winner: Some(side.opponent()),
        reason: "resigned",
    };
    end_off_board(&app, &mut live, ending).await?;
    entry.broadcast(&live);
    Ok(Json(state_for(&entry, &live, Some(&sides))).into_response())
}

#[derive(Deserialize)]
pub(super) struct DrawReq {
    token: Option<String>,
    action: String,
}

pub(super) async fn draw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let entry = entry(&app, &id).await?;
    let req: DrawReq = parse_body(body)?;
    let mut live = entry.game.lock().await;
    let sides = player_sides(&live, req.token.as_deref())?;
    if live.is_over() {
        return Err(bad("the game is over"));
    }
    let offer = live.draw_offer;
    // The offer can be answered by a token holding the other side.
    let answerable = offer.is_some_and(|o| sides.contains(&o.opponent()));
    let agreed = Ending {
        winner: None,
        reason: "draw-agreed",
    };
    match req.action.trim() {
        "offer" => {
            let side = acting_side(&live, &sides);
            if offer == Some(side.opponent()) {
                end_off_board(&app, &mut live, agreed).await?;
            } else if live.seats[side.opponent().index()].kind == SeatKind::Engine {
                // The engine plays on: it declines at once.
            } else if offer != Some(side) {
                app.store
                    .set_draw_offer(live.id.clone(), Some(side.letter().to_string()))
                    .await
                    .map_err(internal)?;
                live.draw_offer = Some(side);
            }
        }
        "accept" if answerable => end_off_board(&app, &mut live, agreed).await?,
        "decline" if answerable => {
            app.store
                .set_draw_offer(live.id.clone(), None)
                .await
                .map_err(internal)?;
            live.draw_offer = None;
        }
        "accept" | "decline" => return Err(bad("there is no draw offer to answer")),
        other => {
            return Err(bad(format!(
                "unknown action '{}' (offer, accept or decline)",
                one_line(other, 40)
            )));
        }
    }
    entry.broadcast(&live);
    Ok(Json(state_for(&entry, &live, Some(&sides))).into_response())
}
