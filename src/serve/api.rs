//! The routes: the page's three files and the JSON API of the contract
//! (games, moves, resigning, draws, series, WebSockets, analysis, OGN).
//! Every input goes through the parsers the command line uses; errors are
//! `{"error": "one line"}` with the status the contract gives.

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use tower_governor::GovernorLayer;
use tower_governor::governor::GovernorConfigBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::timeout::TimeoutLayer;

use super::engine_pool::{Level, PoolError};
use super::games::{
    Ending, Entry, LiveGame, Seat, SeatKind, SeriesState, new_id, new_token, rules_of,
};
use super::limits::{
    BODY_LIMIT, MAX_PLIES, OGN_LIMIT, REQUEST_TIMEOUT, SocketSlot, WS_MESSAGE_LIMIT, WS_PING,
};
use super::store::SeriesGameRow;
use super::{App, LoadError};
use crate::arena::series::{Format, Player};
use crate::ogn::GameRecord;
use crate::{Game, Move, Position, Side, Variant, parse_moves};

const INDEX_HTML: &str = include_str!("web/index.html");
const APP_JS: &str = include_str!("web/app.js");
const STYLE_CSS: &str = include_str!("web/style.css");

/// An error answer: a status and one line.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

type ApiResult<T> = Result<T, ApiError>;

fn bad(msg: impl ToString) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg.to_string())
}

fn forbidden(msg: impl ToString) -> ApiError {
    ApiError(StatusCode::FORBIDDEN, msg.to_string())
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("{e:#}"))
}

fn no_game(id: &str) -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        format!("no game '{}'", one_line(id, 80)),
    )
}

fn one_line(s: &str, max: usize) -> String {
    let s: String = s.chars().take(max).collect();
    s.replace(['\n', '\r'], " ")
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let msg = one_line(&self.1, 300);
        (self.0, Json(json!({ "error": msg }))).into_response()
    }
}

impl From<LoadError> for ApiError {
    fn from(e: LoadError) -> ApiError {
        match e {
            LoadError::Full => ApiError(
                StatusCode::SERVICE_UNAVAILABLE,
                "too many live games; try again later".into(),
            ),
            LoadError::Broken(msg) => internal(msg),
        }
    }
}

impl From<PoolError> for ApiError {
    fn from(e: PoolError) -> ApiError {
        match e {
            PoolError::Busy => ApiError(StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
            PoolError::Search(_) => internal(e),
        }
    }
}

/// The body as JSON of type `T`: 413 past the size limit, 400 when it is
/// not such JSON.
fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    let bytes = body.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError(status, "request body too large".into())
        } else {
            ApiError(status, e.body_text())
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| bad(format!("bad JSON body: {e}")))
}

/// The router of the whole server.
pub fn router(app: Arc<App>) -> Router {
    let rate = app.limits.rate;
    let burst = app.limits.burst;
    let routes = Router::new()
        .route("/", get(index))
        .route("/static/app.js", get(app_js))
        .route("/static/style.css", get(style_css))
        .route("/api/games", post(create))
        .route(
            "/api/games/import",
            post(import).layer(DefaultBodyLimit::max(OGN_LIMIT)),
        )
        .route("/api/games/{id}", get(state))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/draw", post(draw))
        .route("/api/games/{id}/next", post(next))
        .route("/api/games/{id}/ws", get(socket))
        .route("/api/analyze", post(analyze))
        .route("/api/ogn/{id}", get(ogn))
        .fallback(|| async { ApiError(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app);
    let routes = if rate > 0 {
        let mut builder = GovernorConfigBuilder::default();
        builder
            .period(Duration::from_secs(1) / rate)
            .burst_size(burst.max(1));
        let config = Arc::new(builder.finish().expect("a valid rate limit"));
        let limiter = Arc::clone(config.limiter());
        // Forget clients not seen for a while, so the table stays small.
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(60)).await;
                limiter.retain_recent();
            }
        });
        routes.layer(GovernorLayer::new(config).error_handler(|_| {
            ApiError(
                StatusCode::TOO_MANY_REQUESTS,
                "too many requests; slow down".into(),
            )
            .into_response()
        }))
    } else {
        routes
    };
    routes
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(CatchPanicLayer::custom(|_: Box<dyn Any + Send>| {
            ApiError(StatusCode::INTERNAL_SERVER_ERROR, "internal error".into()).into_response()
        }))
}

fn page(content_type: &'static str, text: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

async fn index() -> Response {
    page("text/html; charset=utf-8", INDEX_HTML)
}

async fn app_js() -> Response {
    page("text/javascript; charset=utf-8", APP_JS)
}

async fn style_css() -> Response {
    page("text/css; charset=utf-8", STYLE_CSS)
}

/// The game `id` or 404.
async fn entry(app: &Arc<App>, id: &str) -> ApiResult<Arc<Entry>> {
    app.entry(id).await?.ok_or_else(|| no_game(id))
}

/// The state with `seat` for the sides a token holds.
fn state_for(entry: &Entry, live: &LiveGame, sides: Option<&[Side]>) -> Value {
    let mut state = live.state_json(entry.thinking.load(std::sync::atomic::Ordering::Acquire));
    if let (Some(sides), Value::Object(map)) = (sides, &mut state) {
        map.insert("seat".into(), LiveGame::seat_json(sides));
    }
    state
}

fn parse_variant(rules: Option<&str>) -> ApiResult<Variant> {
    match rules {
        None => Ok(Variant::Abapa),
        Some(s) => s.parse().map_err(|e| bad(format!("{e}"))),
    }
}

fn parse_position(text: Option<&str>) -> ApiResult<Position> {
    match text.map(str::trim) {
        None | Some("") | Some("startpos") => Ok(Position::START),
        Some(s) => s
            .parse()
            .map_err(|e| bad(format!("bad position '{}': {e}", one_line(s, 80)))),
    }
}

fn parse_move_cap(cap: Option<u32>) -> ApiResult<Option<u32>> {
    match cap {
        Some(0) | Some(1001..) => Err(bad("move_cap must be between 1 and 1000 (or null)")),
        other => Ok(other),
    }
}

/// A new game as POST /api/games (or an import) describes it.
#[derive(Deserialize, Default)]
struct NewGame {
    rules: Option<String>,
    move_cap: Option<u32>,
    south: Option<String>,
    north: Option<String>,
    level: Option<String>,
    series: Option<String>,
    start: Option<String>,
}

/// The seats, the creator's token and the sides it holds, and the link's
/// token.
struct Seating {
    seats: [Seat; 2],
    creator: Option<String>,
    creator_sides: Vec<Side>,
    link: Option<String>,
}

fn seating(south: Option<&str>, north: Option<&str>, level: Option<&str>) -> ApiResult<Seating> {
    let south = SeatKind::parse(south.unwrap_or("human")).map_err(bad)?;
    let north = SeatKind::parse(north.unwrap_or("engine")).map_err(bad)?;
    if south == SeatKind::Link && north == SeatKind::Link {
        return Err(bad("at most one seat can be 'link'"));
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
    };
    let seats = [seat(south), seat(north)];
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

/// Creates a game from `start` after `moves` (an import's record).
async fn create_game(
    app: &Arc<App>,
    req: NewGame,
    start: Position,
    moves: &[Move],
    variant: Variant,
) -> ApiResult<Response> {
    let move_cap = parse_move_cap(req.move_cap)?;
    let format: Option<Format> = match req.series.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(s) => Some(s.parse().map_err(|e| bad(format!("{e}")))?),
    };
    if moves.len() > MAX_PLIES {
        return Err(bad(format!("a game holds at most {MAX_PLIES} moves")));
    }
    let mut game = Game::new(start, rules_of(variant, move_cap));
    let mut captures = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let c = game
            .play(mv)
            .map_err(|e| bad(format!("move {} ({mv}) cannot be played: {e}", i + 1)))?;
        captures.push(c);
    }
    let seating = seating(
        req.south.as_deref(),
        req.north.as_deref(),
        req.level.as_deref(),
    )?;
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
                        .and_then(|o| o.winner)
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
            move_cap,
            ending: None,
            draw_offer: None,
            series: None,
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

async fn create(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: NewGame = parse_body(body)?;
    let variant = parse_variant(req.rules.as_deref())?;
    let start = parse_position(req.start.as_deref())?;
    create_game(&app, req, start, &[], variant).await
}

#[derive(Deserialize)]
struct ImportReq {
    ogn: String,
    rules: Option<String>,
    move_cap: Option<u32>,
    south: Option<String>,
    north: Option<String>,
    level: Option<String>,
    series: Option<String>,
}

async fn import(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: ImportReq = parse_body(body)?;
    let record = GameRecord::parse(&req.ogn).map_err(|e| bad(format!("bad OGN record: {e}")))?;
    let variant = match &req.rules {
        Some(r) => parse_variant(Some(r))?,
        None => record.variant().unwrap_or(Variant::Abapa),
    };
    let rules = rules_of(variant, parse_move_cap(req.move_cap)?);
    record
        .replay(rules)
        .map_err(|e| bad(format!("bad OGN record: {e}")))?;
    let start = record
        .start()
        .map_err(|e| bad(format!("bad OGN record: {e}")))?;
    let new = NewGame {
        rules: None,
        move_cap: req.move_cap,
        south: req.south,
        north: req.north,
        level: req.level,
        series: req.series,
        start: None,
    };
    create_game(&app, new, start, &record.moves, variant).await
}

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

async fn state(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<TokenQuery>, QueryRejection>,
) -> ApiResult<Response> {
    let Query(query) = query.map_err(|e| bad(e.body_text()))?;
    let entry = entry(&app, &id).await?;
    let mut live = entry.game.lock().await;
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
pub async fn apply_move(app: &App, live: &mut LiveGame, mv: Move) -> ApiResult<()> {
    if live.ending.is_some() {
        return Err(bad("the game is over"));
    }
    if live.game.moves().len() >= MAX_PLIES {
        return Err(bad(format!("a game holds at most {MAX_PLIES} moves")));
    }
    let mut next = live.game.clone();
    let captured = next.play(mv).map_err(bad)?;
    let over = next
        .outcome()
        .map(|o| o.winner.map(|s| s.letter().to_string()));
    app.store
        .add_move(
            live.id.clone(),
            live.game.moves().len(),
            mv.letter().to_string(),
            over,
        )
        .await
        .map_err(internal)?;
    live.game = next;
    live.captures.push(captured);
    live.draw_offer = None;
    if live.is_over() {
        live.note_over_in_series();
    }
    Ok(())
}

/// The sides `token` holds, or 403.
fn player_sides(live: &LiveGame, token: Option<&str>) -> ApiResult<Vec<Side>> {
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
fn acting_side(live: &LiveGame, sides: &[Side]) -> Side {
    if sides.len() == 1 {
        sides[0]
    } else {
        live.game.position().side_to_move()
    }
}

#[derive(Deserialize)]
struct MoveReq {
    #[serde(rename = "move")]
    mv: String,
    token: Option<String>,
}

async fn play(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let entry = entry(&app, &id).await?;
    let req: MoveReq = parse_body(body)?;
    let mut live = entry.game.lock().await;
    let sides = player_sides(&live, req.token.as_deref())?;
    if live.is_over() {
        return Err(bad("the game is over"));
    }
    if !sides.contains(&live.game.position().side_to_move()) {
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
    Ok(Json(state_for(&entry, &live, Some(&sides))).into_response())
}

#[derive(Deserialize)]
struct TokenReq {
    token: Option<String>,
}

async fn end_off_board(app: &App, live: &mut LiveGame, ending: Ending) -> ApiResult<()> {
    app.store
        .end_game(
            live.id.clone(),
            ending.winner.map(|s| s.letter().to_string()),
            ending.reason.to_string(),
        )
        .await
        .map_err(internal)?;
    live.ending = Some(ending);
    live.draw_offer = None;
    live.note_over_in_series();
    Ok(())
}

async fn resign(
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
struct DrawReq {
    token: Option<String>,
    action: String,
}

async fn draw(
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

async fn next(
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
    let [south, north] = live.seats.clone();
    let player = south_player.other();
    let start = *live.game.start();
    let rules = *live.game.rules();
    let mut tries = 0;
    let new = loop {
        tries += 1;
        let new = LiveGame {
            id: new_id().map_err(internal)?,
            game: Game::new(start, rules),
            captures: Vec::new(),
            seats: [north.clone(), south.clone()],
            move_cap: live.move_cap,
            ending: None,
            draw_offer: None,
            series: Some((Arc::clone(&shared), index + 1, player)),
        };
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

async fn socket(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let entry = entry(&app, &id).await?;
    let ws = ws.map_err(|e| ApiError(e.status(), e.body_text()))?;
    let slot = app.sockets.try_open().ok_or_else(|| {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many open connections; try again later".into(),
        )
    })?;
    Ok(ws
        .max_message_size(WS_MESSAGE_LIMIT)
        .max_frame_size(WS_MESSAGE_LIMIT)
        .on_upgrade(move |socket| run_socket(socket, entry, slot)))
}

async fn current_text(entry: &Entry) -> String {
    let live = entry.game.lock().await;
    live.state_json(entry.thinking.load(std::sync::atomic::Ordering::Acquire))
        .to_string()
}

/// Sends the state at once and after every change; what the client sends
/// is read and dropped.
async fn run_socket(mut socket: WebSocket, entry: Arc<Entry>, _slot: SocketSlot) {
    let mut rx = entry.tx.subscribe();
    let first = current_text(&entry).await;
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    // A ping now and then; a client silent (no pong) for long is gone.
    let mut ping = tokio::time::interval(WS_PING);
    ping.tick().await;
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            _ = ping.tick() => {
                if heard.elapsed() > WS_PING * 3
                    || socket.send(Message::Ping(Bytes::new())).await.is_err()
                {
                    break;
                }
            }
            change = rx.recv() => {
                let text = match change {
                    Ok(text) => text.to_string(),
                    Err(RecvError::Lagged(_)) => current_text(&entry).await,
                    Err(RecvError::Closed) => break,
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => heard = tokio::time::Instant::now(),
            },
        }
    }
}

#[derive(Deserialize)]
struct AnalyzeReq {
    position: Option<String>,
    moves: Option<String>,
    rules: Option<String>,
    movetime: Option<u64>,
}

async fn analyze(
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

async fn ogn(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult<Response> {
    let entry = entry(&app, &id).await?;
    let live = entry.game.lock().await;
    let south = live.seats[0].kind.name();
    let north = live.seats[1].kind.name();
    let record = GameRecord::from_game(
        &live.game,
        &[
            ("Event", "oware serve"),
            ("South", south),
            ("North", north),
            ("Game", live.id.as_str()),
        ],
    );
    Ok((
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        Body::from(record.to_string()),
    )
        .into_response())
}
