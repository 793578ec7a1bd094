//! The routes: the page (its HTML, style and script modules) and the JSON
//! API of the contract (games, moves, resigning, draws, series, WebSockets,
//! analysis, OGN).
//! Every input goes through the parsers the command line uses; errors are
//! `{"error": "one line"}` with the status the contract gives.

mod analysis;
mod create;
mod error;
mod ogn;
mod play;
mod rematch;
mod series;
mod socket;

pub use error::ApiError;
use error::{ApiResult, no_game};
pub(crate) use play::{apply_move, flag_if_out};

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path};
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

const JS: &str = "text/javascript; charset=utf-8";

/// The page's files under `/static/`: name, content type, text. The page is
/// `app.js` and the modules it imports, one for each part of the page.
const STATIC_FILES: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../web/style.css"),
    ),
    ("app.js", JS, include_str!("../web/app.js")),
    ("errors.js", JS, include_str!("../web/errors.js")),
    ("util.js", JS, include_str!("../web/util.js")),
    ("sowing.js", JS, include_str!("../web/sowing.js")),
    ("board.js", JS, include_str!("../web/board.js")),
    ("records.js", JS, include_str!("../web/records.js")),
    ("newgame.js", JS, include_str!("../web/newgame.js")),
    ("game.js", JS, include_str!("../web/game.js")),
    ("analysis.js", JS, include_str!("../web/analysis.js")),
];

/// The router of the whole server.
pub fn router(app: Arc<App>) -> Router {
    let rate = app.limits.rate;
    let burst = app.limits.burst;
    // The page's files come from memory and are not rate limited: a page
    // load is a dozen of them.
    let pages = Router::new()
        .route("/", get(index))
        .route("/static/{file}", get(static_file));
    let routes = Router::new()
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
        .route("/api/games/{id}/rematch", post(rematch::rematch))
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
    pages
        .merge(routes)
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

/// The page's file `name`: its content type and text.
fn static_named(name: &str) -> Option<(&'static str, &'static str)> {
    STATIC_FILES
        .iter()
        .find(|(file, ..)| *file == name)
        .map(|&(_, content_type, text)| (content_type, text))
}

/// One of the page's files, or 404.
async fn static_file(Path(file): Path<String>) -> Response {
    match static_named(&file) {
        Some((content_type, text)) => page(content_type, text),
        None => ApiError(StatusCode::NOT_FOUND, "no such page".into()).into_response(),
    }
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

#[cfg(test)]
mod tests {
    use super::{STATIC_FILES, static_named};

    /// The modules a script imports (`import … from "./x.js"`, `import
    /// "./x.js"`), wherever the statement is broken across lines.
    fn imports(text: &str) -> Vec<&str> {
        let mut found = Vec::new();
        for start in ["from \"./", "import \"./"] {
            for (at, _) in text.match_indices(start) {
                let rest = &text[at + start.len()..];
                found.extend(rest.split('"').next());
            }
        }
        found
    }

    #[test]
    fn every_module_the_page_imports_is_served_and_every_one_served_is_used() {
        let text = |name: &str| static_named(name).map(|(_, text)| text);
        let mut reached = vec!["app.js"];
        let mut i = 0;
        while i < reached.len() {
            let script = text(reached[i]).unwrap_or_else(|| panic!("{} is not served", reached[i]));
            for module in imports(script) {
                if !reached.contains(&module) {
                    reached.push(module);
                }
            }
            i += 1;
        }
        let served: Vec<&str> = STATIC_FILES
            .iter()
            .map(|f| f.0)
            .filter(|n| n.ends_with(".js"))
            .collect();
        assert!(reached.len() > 1, "{reached:?}");
        let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/src/serve/web");
        for entry in std::fs::read_dir(folder).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            if name != "index.html" {
                assert!(
                    text(&name).is_some(),
                    "{name} is in the folder but not served"
                );
            }
        }
        for name in &served {
            assert!(
                reached.contains(name),
                "{name} is served but no script imports it"
            );
        }
    }
}
