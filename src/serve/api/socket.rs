//! `GET /api/games/{id}/ws`: the state pushed on every change.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use tokio::sync::broadcast::error::RecvError;

use super::entry;
use super::error::*;
use crate::serve::App;
use crate::serve::games::Entry;
use crate::serve::limits::{SocketSlot, WS_MESSAGE_LIMIT, WS_PING};

pub(super) async fn socket(
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

pub(super) async fn current_text(entry: &Entry) -> String {
    let live = entry.game.lock().await;
    live.state_json(entry.thinking.load(std::sync::atomic::Ordering::Acquire))
        .to_string()
}

/// Sends the state at once and after every change; what the client sends
/// is read and dropped.
pub(super) async fn run_socket(mut socket: WebSocket, entry: Arc<Entry>, _slot: SocketSlot) {
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
