//! The server's bounds: body sizes, live games, sockets, request rates,
//! timeouts and search times.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The largest request body (JSON).
pub const BODY_LIMIT: usize = 64 * 1024;
/// The largest body of an OGN import.
pub const OGN_LIMIT: usize = 256 * 1024;
/// The largest WebSocket message or frame a client may send (clients only
/// listen; anything they send is read and dropped).
pub const WS_MESSAGE_LIMIT: usize = 4 * 1024;
/// How often the server pings a WebSocket; a client silent for three
/// times this (no pong) is disconnected.
pub const WS_PING: Duration = Duration::from_secs(30);
/// TCP connections open at once (WebSockets included).
pub const MAX_CONNECTIONS: usize = 4096;
/// How long a client may take to send a request's headers.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one request may take before the server answers 408.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest any one search runs, whatever the level or the request.
pub const SEARCH_CAP: Duration = Duration::from_secs(5);
/// How long an analysis request waits for a free search slot before the
/// server answers 503.
pub const QUEUE_WAIT: Duration = Duration::from_secs(10);
/// Searches running at once (the rest wait in line).
pub const SEARCH_PERMITS: usize = 2;
/// Transposition table of each pooled engine, in MiB.
pub const ENGINE_HASH_MIB: usize = 16;
/// The most moves a game may hold (the repetition rule ends games long
/// before; this only bounds what a record can bring in).
pub const MAX_PLIES: usize = 5000;
/// The most games a series may last (it is then decided on game wins).
pub const SERIES_CAP: u32 = 200;

/// The bounds one server runs with (the command line may change them).
#[derive(Clone, Debug)]
pub struct ServerLimits {
    /// Games kept in memory; older ones are dropped to the database only
    /// and read back when asked for.
    pub live_games: usize,
    /// WebSocket connections open at once.
    pub sockets: usize,
    /// Requests a second per client address (0: no rate limit).
    pub rate: u32,
    /// Requests a client may send in a burst.
    pub burst: u32,
}

impl Default for ServerLimits {
    fn default() -> ServerLimits {
        ServerLimits {
            live_games: 10_000,
            sockets: 1_000,
            rate: 20,
            burst: 40,
        }
    }
}

/// Counts open WebSocket connections against a cap.
#[derive(Debug)]
pub struct SocketCount {
    open: Arc<AtomicUsize>,
    cap: usize,
}

/// One open connection; dropping it frees the place.
#[derive(Debug)]
pub struct SocketSlot(Arc<AtomicUsize>);

impl SocketCount {
    /// A counter allowing `cap` connections.
    pub fn new(cap: usize) -> SocketCount {
        SocketCount {
            open: Arc::new(AtomicUsize::new(0)),
            cap,
        }
    }

    /// A place for one more connection, or `None` at the cap.
    pub fn try_open(&self) -> Option<SocketSlot> {
        let mut now = self.open.load(Ordering::Relaxed);
        loop {
            if now >= self.cap {
                return None;
            }
            match self
                .open
                .compare_exchange_weak(now, now + 1, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => return Some(SocketSlot(Arc::clone(&self.open))),
                Err(seen) => now = seen,
            }
        }
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
