//! Creating games: `POST /api/games` and `POST /api/games/import`.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::error::*;
use super::state_for;
use crate::Move;
use crate::Side;
use crate::arena::series::{Format, Player};
use crate::ogn::GameRecord;
use crate::serve::engine_pool::Level;
use crate::serve::games::{
    LiveGame, Seat, SeatKind, SeriesState, new_id, new_token, parse_name, parse_time_control,
};
use crate::serve::limits::MAX_PLIES;
use crate::serve::referee::{GameRules, Referee};
use crate::serve::store::SeriesGameRow;
use crate::serve::{App, LoadError};

/// The rules from a request's settings (see [`GameRules::from_settings`]),
/// or 400.
pub(super) fn parse_rules(
    name: Option<&str>,
    move_cap: Option<u32>,
    start_seeds: Option<u64>,
    empty_capture: Option<bool>,
) -> ApiResult<GameRules> {
    GameRules::from_settings(name, move_cap, start_seeds, empty_capture).map_err(bad)
}

/// A new game as POST /api/games describes it.
#[derive(Deserialize, Default)]
pub(super) struct NewGame {
    rules: Option<String>,
    move_cap: Option<u32>,
    start_seeds: Option<u64>,
    empty_capture: Option<bool>,
    south: Option<String>,
    north: Option<String>,
    level: Option<String>,
    series: Option<String>,
    start: Option<String>,
    first: Option<String>,
    south_name: Option<String>,
    north_name: Option<String>,
    time_control: Option<String>,
}

/// Who plays a new game, and the series it opens.
pub(super) struct Players {
    south: Option<String>,
    north: Option<String>,
    level: Option<String>,
    series: Option<String>,
    first: Option<String>,
    south_name: Option<String>,
    north_name: Option<String>,
    time_control: Option<String>,
}

/// The seats, the creator's token and the sides it holds, and the link's
/// token.
pub(super) struct Seating {
    seats: [Seat; 2],
    creator: Option<String>,
    creator_sides: Vec<Side>,
    link: Option<String>,
}

/// Whether the seats are to be swapped so that `first` (`me`: the one
/// `human` seat, `opponent`: the other, `random`) moves first, `to_move`
/// being the side that moves first as the seats are given.
fn swap_for_first(first: Option<&str>, kinds: [SeatKind; 2], to_move: Side) -> ApiResult<bool> {
    let first = match first.map(str::trim) {
        None | Some("") => return Ok(false),
        Some(f) => f.to_ascii_lowercase(),
    };
    let mine = || -> ApiResult<Side> {
        match kinds {
            [SeatKind::Human, k] if k != SeatKind::Human => Ok(Side::South),
            [k, SeatKind::Human] if k != SeatKind::Human => Ok(Side::North),
            _ => Err(bad(
                "first 'me' or 'opponent' needs exactly one seat 'human'",
            )),
        }
    };
    match first.as_str() {
        "me" => Ok(mine()? != to_move),
        "opponent" => Ok(mine()? == to_move),
        "random" => {
            let mut b = [0u8; 1];
            getrandom::fill(&mut b).map_err(|e| internal(e.to_string()))?;
            Ok(b[0] & 1 == 1)
        }
        _ => Err(bad(format!(
            "unknown first '{}' (me, opponent or random)",
            one_line(&first, 40)
        ))),
    }
}

pub(super) fn seating(req: &Players, to_move: Side) -> ApiResult<Seating> {
    let level = req.level.as_deref();
    let mut south = SeatKind::parse(req.south.as_deref().unwrap_or("human")).map_err(bad)?;
    let mut north = SeatKind::parse(req.north.as_deref().unwrap_or("engine")).map_err(bad)?;
    if south == SeatKind::Link && north == SeatKind::Link {
        return Err(bad("at most one seat can be 'link'"));
    }
    let mut names = [
        parse_name(req.south_name.as_deref()).map_err(bad)?,
        parse_name(req.north_name.as_deref()).map_err(bad)?,
    ];
    if swap_for_first(req.first.as_deref(), [south, north], to_move)? {
        std::mem::swap(&mut south, &mut north);
        names.swap(0, 1);
    }
    let level: Level = level.unwrap_or("medium").parse().map_err(bad)?;
    let creator = [south, north]
        .contains(&SeatKind::Human)
        .then(new_token)
        .transpose()
        .map_err(internal)?;
    let link = [south, north]
        .contains(&SeatKind::Link)
        .then(new_token)
        .transpose()
        .map_err(internal)?;
    let seat = |kind: SeatKind| Seat {
        kind,
        level: (kind == SeatKind::Engine).then_some(level),
        token: match kind {
            SeatKind::Human => creator.clone(),
            SeatKind::Link => link.clone(),
            SeatKind::Engine => None,
        },
        joined: kind != SeatKind::Link,
        name: None,
    };
    let mut seats = [seat(south), seat(north)];
    let [s, n] = names;
    seats[0].name = s;
    seats[1].name = n;
    let creator_sides = Side::ALL
        .into_iter()
        .filter(|s| seats[s.index()].kind == SeatKind::Human)
        .collect();
    Ok(Seating {
        seats,
        creator,
        creator_sides,
        link,
    })
}

/// Creates `game` after `moves` (an import's record).
pub(super) async fn create_game(
    app: &Arc<App>,
    req: Players,
    mut game: Referee,
    moves: &[Move],
) -> ApiResult<Response> {
    let format: Option<Format> = match req.series.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(s) => Some(s.parse().map_err(|e| bad(format!("{e}")))?),
    };
    if format.is_some() && matches!(game.rules(), GameRules::Mancala(_)) {
        return Err(bad(
            "series are played in Oware only: a mancala game is a single game",
        ));
    }
    if moves.len() > MAX_PLIES {
        return Err(bad(format!("a game holds at most {MAX_PLIES} moves")));
    }
    let clock = match req.time_control.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(tc) => Some(parse_time_control(tc).map_err(bad)?),
    };
    let mut captures = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let played = game
            .play(mv)
            .map_err(|e| bad(format!("move {} ({mv}) cannot be played: {e}", i + 1)))?;
        captures.push(played.captured);
    }
    let seating = seating(&req, game.side_to_move())?;
    let mut tries = 0;
    let (live, series) = loop {
        tries += 1;
        let id = new_id().map_err(internal)?;
        let series = match format {
            Some(format) => Some(SeriesState {
                id: new_id().map_err(internal)?,
                format,
                games: vec![SeriesGameRow {
                    id: id.clone(),
                    south_player: "A".into(),
                    over: game.outcome().is_some(),
                    winner: game
                        .outcome()
                        .and_then(|(winner, _)| winner)
                        .map(|s| s.letter().to_string()),
                }],
            }),
            None => None,
        };
        let mut live = LiveGame {
            id,
            game: game.clone(),
            captures: captures.clone(),
            seats: seating.seats.clone(),
            ending: None,
            draw_offer: None,
            series: None,
            created: crate::serve::games::now_ms() / 1000,
            rematch_offer: None,
            rematch: None,
            clock: clock.clone(),
        };
        let mut row = live.to_row();
        if let Some(s) = &series {
            row.series = Some((s.id.clone(), 0, "A".into()));
        }
        let fmt = series.as_ref().map(|s| s.format.to_string());
        if app.store.insert_game(row, fmt).await.map_err(internal)? {
            if let Some(s) = series.clone() {
                live.series = Some((app.hub.insert_series(s), 0, Player::A));
            }
            break (live, series);
        }
        if tries >= 5 {
            return Err(internal("cannot find a free game id"));
        }
    };
    let _ = series;
    let id = live.id.clone();
    let engine_to_move = live.engine_to_move().is_some();
    let (entry, _) = app.hub.insert(live).map_err(|_| LoadError::Full)?;
    if engine_to_move {
        app.kick_engine(Arc::clone(&entry));
    }
    let live = entry.game.lock().await;
    let url = &app.public_url;
    let body = json!({
        "id": id,
        "seat": LiveGame::seat_json(&seating.creator_sides),
        "token": seating.creator,
        "links": {
            "opponent": seating.link.as_ref().map(|t| format!("{url}/#/game/{id}?token={t}")),
            "watch": format!("{url}/#/game/{id}"),
        },
        "state": state_for(&entry, &live, Some(&seating.creator_sides)),
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

pub(super) async fn create(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: NewGame = parse_body(body)?;
    let rules = parse_rules(
        req.rules.as_deref(),
        req.move_cap,
        req.start_seeds,
        req.empty_capture,
    )?;
    let game = rules.new_game(req.start.as_deref()).map_err(bad)?;
    let players = Players {
        south: req.south,
        north: req.north,
        level: req.level,
        series: req.series,
        first: req.first,
        south_name: req.south_name,
        north_name: req.north_name,
        time_control: req.time_control,
    };
    create_game(&app, players, game, &[]).await
}

#[derive(Deserialize)]
pub(super) struct ImportReq {
    ogn: String,
    rules: Option<String>,
    move_cap: Option<u32>,
    empty_capture: Option<bool>,
    south: Option<String>,
    north: Option<String>,
    level: Option<String>,
    series: Option<String>,
    first: Option<String>,
    south_name: Option<String>,
    north_name: Option<String>,
    time_control: Option<String>,
}

pub(super) async fn import(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: ImportReq = parse_body(body)?;
    let record = GameRecord::parse(&req.ogn).map_err(|e| bad(format!("bad OGN record: {e}")))?;
    // The record's rules (its Variant and EmptyCapture tags, Mancala's
    // start seeds from its FEN) unless the request names others.
    let rules = match (req.rules.as_deref(), GameRules::of_record(&record)) {
        (name, GameRules::Mancala(m)) if name.is_none_or(|n| n.eq_ignore_ascii_case("mancala")) => {
            parse_rules(
                Some("mancala"),
                req.move_cap,
                Some(m.start_seeds.into()),
                Some(req.empty_capture.unwrap_or(m.empty_capture)),
            )?
        }
        (name, tagged) => parse_rules(
            Some(name.unwrap_or(tagged.name())),
            req.move_cap,
            None,
            req.empty_capture,
        )?,
    };
    let played =
        Referee::from_record(&record, rules).map_err(|e| bad(format!("bad OGN record: {e}")))?;
    let players = Players {
        south: req.south,
        north: req.north,
        level: req.level,
        series: req.series,
        first: req.first,
        south_name: req.south_name,
        north_name: req.north_name,
        time_control: req.time_control,
    };
    create_game(&app, players, played.restarted(), played.moves()).await
}
