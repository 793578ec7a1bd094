//! The routes: the page's three files and the JSON API of the contract
//! (games, moves, resigning, draws, series, WebSockets, analysis, OGN).
//! Every input goes through the parsers the command line uses; errors are
//! `{"error": "one line"}` with the status the contract gives.

mod analysis;
mod create;
mod error;
mod ogn;
mod play;
mod series;
mod socket;

pub use error::ApiError;
use error::{ApiResult, no_game};
pub(crate) use play::apply_move;

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::Value;
use tower_governor::GovernorLayer;
use tower_governor::governor::GovernorConfigBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::timeout::TimeoutLayer;

use super::App;
use super::games::{Entry, LiveGame};
use super::limits::{BODY_LIMIT, OGN_LIMIT, REQUEST_TIMEOUT};
use crate::Side;

const INDEX_HTML: &str = include_str!("../web/index.html");
const APP_JS: &str = include_str!("../web/app.js");
const STYLE_CSS: &str = include_str!("../web/style.css");

/// The router of the whole server.
pub fn router(app: Arc<App>) -> Router {
    let rate = app.limits.rate;
    let burst = app.limits.burst;
    let routes = Router::new()
        .route("/", get(index))
        .route("/static/app.js", get(app_js))
        .route("/static/style.css", get(style_css))
        .route("/api/games", post(create::create))
        .route(
            "/api/games/import",
            post(create::import).layer(DefaultBodyLimit::max(OGN_LIMIT)),
        )
        .route("/api/games/{id}", get(play::state))
        .route("/api/games/{id}/moves", post(play::play))
        .route("/api/games/{id}/resign", post(play::resign))
        .route("/api/games/{id}/draw", post(play::draw))
        .route("/api/games/{id}/next", post(series::next))
        .route("/api/games/{id}/ws", get(socket::socket))
        .route("/api/analyze", post(analysis::analyze))
        .route("/api/ogn/{id}", get(ogn::ogn))
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
