//! `oware serve`: play in the browser. An HTTP server (axum on tokio)
//! serving one page and a JSON API (see the README and `api`): games of
//! Oware or Arabic Mancala (`referee`) between people holding links and
//! the engine, kept in SQLite
//! (`store`), live in memory with a broadcast channel per game
//! (`games`), the engine's searches on a bounded pool (`engine_pool`),
//! and bounds on everything a client can ask for (`limits`).

pub mod api;
pub mod engine_pool;
pub mod games;
pub mod limits;
pub mod referee;
pub mod store;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use anyhow::{Context, Result};

use crate::Variant;
use crate::mancala::tables::MancalaTables;
use crate::tb::Tablebase;
use engine_pool::EnginePool;
use games::{Entry, Hub, LiveGame, SeriesState};
use limits::{ServerLimits, SocketCount};
use store::Store;

/// How to run the server.
pub struct Config {
    /// The address to listen on.
    pub bind: IpAddr,
    /// The port (0: any free port).
    pub port: u16,
    /// The folder of the games database.
    pub data: PathBuf,
    /// The address links are built on (default `http://{bind}:{port}`).
    pub public_url: Option<String>,
    /// Endgame tables by rule set.
    pub tables: HashMap<Variant, Arc<Tablebase>>,
    /// Mancala's endgame tables by capture convention: `[standard, empty
    /// capture]`.
    pub mancala_tables: [Option<Arc<MancalaTables>>; 2],
    /// The bounds.
    pub limits: ServerLimits,
}

/// Everything the handlers share.
pub struct App {
    /// The database.
    pub store: Store,
    /// The games in memory.
    pub hub: Hub,
    /// The engines.
    pub pool: EnginePool,
    /// The address links are built on, without a trailing slash.
    pub public_url: String,
    /// Open WebSockets.
    pub sockets: SocketCount,
    /// The bounds.
    pub limits: ServerLimits,
}

/// Why a game could not be had.
#[derive(Debug)]
pub enum LoadError {
    /// Too many games in use in memory.
    Full,
    /// The database failed, or holds a game that cannot be replayed.
    Broken(String),
}

impl App {
    /// The game `id`, from memory or read back from the database (then the
    /// engine is set to move if it is its turn); `None` when there is none.
    pub async fn entry(self: &Arc<Self>, id: &str) -> Result<Option<Arc<Entry>>, LoadError> {
        if let Some(e) = self.hub.get(id) {
            return Ok(Some(e));
        }
        // Ids are hex; anything else cannot be a game.
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Ok(None);
        }
        let row = self
            .store
            .load_game(id.to_string())
            .await
            .map_err(|e| LoadError::Broken(format!("{e:#}")))?;
        let Some(row) = row else {
            return Ok(None);
        };
        let series = match &row.series {
            Some((sid, _, _)) => Some(self.series(sid).await?),
            None => None,
        };
        let game = LiveGame::from_row(row, series)
            .map_err(|e| LoadError::Broken(format!("stored game {id}: {e}")))?;
        let engine_to_move = game.engine_to_move().is_some();
        let (entry, fresh) = self.hub.insert(game).map_err(|_| LoadError::Full)?;
        if fresh && engine_to_move {
            self.kick_engine(Arc::clone(&entry));
        }
        if fresh {
            let live = entry.game.lock().await;
            self.watch_clock(Arc::clone(&entry), &live);
        }
        Ok(Some(entry))
    }

    /// A series, from memory or the database.
    pub async fn series(&self, id: &str) -> Result<games::SharedSeries, LoadError> {
        if let Some(s) = self.hub.series(id) {
            return Ok(s);
        }
        let (format, games) = self
            .store
            .load_series(id.to_string())
            .await
            .map_err(|e| LoadError::Broken(format!("{e:#}")))?
            .ok_or_else(|| LoadError::Broken(format!("series {id} is missing")))?;
        let format = format
            .parse()
            .map_err(|e| LoadError::Broken(format!("series {id}: {e}")))?;
        Ok(self.hub.insert_series(SeriesState {
            id: id.to_string(),
            format,
            games,
        }))
    }

    /// If an engine seat is to move in this game, searches and plays its
    /// move in the background (and the next, for engine against engine).
    /// Ends the game when the running clock falls: a task that sleeps
    /// until then (and gives up once another move has been made).
    pub fn watch_clock(self: &Arc<Self>, entry: Arc<Entry>, live: &LiveGame) {
        let Some(deadline) = live.clock_deadline() else {
            return;
        };
        let ply = live.game.moves().len();
        let app = Arc::clone(self);
        tokio::spawn(async move {
            let wait = (deadline - games::now_ms()).max(0) as u64;
            tokio::time::sleep(std::time::Duration::from_millis(wait + 5)).await;
            let mut live = entry.game.lock().await;
            if live.game.moves().len() != ply {
                return;
            }
            if let Err(e) = api::flag_if_out(&app, &entry, &mut live).await {
                eprintln!("oware serve: clock in game {}: {}", live.id, e.1);
            }
        });
    }

    pub fn kick_engine(self: &Arc<Self>, entry: Arc<Entry>) {
        let app = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                let (game, level, ply) = {
                    let live = entry.game.lock().await;
                    let Some((_, level)) = live.engine_to_move() else {
                        return;
                    };
                    if entry
                        .thinking
                        .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
                        .is_err()
                    {
                        return; // another task is on it
                    }
                    entry.broadcast(&live);
                    (live.game.clone(), level, live.game.moves().len())
                };
                let found = app.pool.engine_move(game, level).await;
                let mut live = entry.game.lock().await;
                entry.thinking.store(false, Ordering::Release);
                let mv = match found {
                    Ok(mv) if live.game.moves().len() == ply && !live.is_over() => mv,
                    Ok(_) => {
                        entry.broadcast(&live);
                        return;
                    }
                    Err(e) => {
                        eprintln!("oware serve: engine in game {}: {e}", live.id);
                        entry.broadcast(&live);
                        return;
                    }
                };
                match api::flag_if_out(&app, &entry, &mut live).await {
                    Ok(true) => return,
                    Ok(false) => {}
                    Err(e) => eprintln!("oware serve: clock in game {}: {}", live.id, e.1),
                }
                if let Err(e) = api::apply_move(&app, &mut live, mv).await {
                    eprintln!("oware serve: engine move in game {}: {}", live.id, e.1);
                }
                entry.broadcast(&live);
                app.watch_clock(Arc::clone(&entry), &live);
            }
        });
    }
}

/// Runs the server until interrupted; `on_listen` is told the address it
/// listens on and the public address links use, once listening.
pub fn run(config: Config, on_listen: impl FnOnce(SocketAddr, &str)) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async move {
        let store = Store::open(&config.data)?;
        let listener = tokio::net::TcpListener::bind((config.bind, config.port))
            .await
            .with_context(|| format!("cannot listen on {}:{}", config.bind, config.port))?;
        let addr = listener.local_addr()?;
        let public_url = config
            .public_url
            .clone()
            .unwrap_or_else(|| format!("http://{addr}"))
            .trim_end_matches('/')
            .to_string();
        let app = Arc::new(App {
            store,
            hub: Hub::new(config.limits.live_games),
            pool: EnginePool::new(config.tables, config.mancala_tables)
                .context("cannot start the search threads")?,
            public_url: public_url.clone(),
            sockets: SocketCount::new(config.limits.sockets),
            limits: config.limits,
        });
        let router = api::router(Arc::clone(&app));
        on_listen(addr, &public_url);
        serve_connections(listener, router).await
    })
}

/// Accepts connections until Ctrl-C: HTTP/1.1 with upgrades (WebSockets),
/// at most [`limits::MAX_CONNECTIONS`] at once (more are closed at once), a
/// client that takes over [`limits::HEADER_TIMEOUT`] to send a request's
/// headers is let go; each request carries the client's address for the
/// rate limit.
async fn serve_connections(listener: tokio::net::TcpListener, router: axum::Router) -> Result<()> {
    use axum::extract::ConnectInfo;
    use hyper::body::Incoming;
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    use tower::ServiceExt;

    let slots = Arc::new(tokio::sync::Semaphore::new(limits::MAX_CONNECTIONS));
    let shutdown = tokio::signal::ctrl_c();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and the like: wait, go on.
                    eprintln!("oware serve: cannot accept a connection: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service =
            router
                .clone()
                .map_request(move |mut request: axum::http::Request<Incoming>| {
                    request.extensions_mut().insert(ConnectInfo(peer));
                    request
                });
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits::HEADER_TIMEOUT)
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(service))
                .with_upgrades()
                .await;
            drop(slot);
        });
    }
}
