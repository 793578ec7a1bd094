//! A real `oware serve` on loopback for the tests of the server: the
//! binary with a temp data folder, an HTTP client and WebSockets.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

pub const BIN: &str = env!("CARGO_BIN_EXE_oware");

/// A game between a seat and a link: its id and the two seats' tokens.
pub struct Linked {
    pub id: String,
    pub south: String,
    pub north: String,
}

/// A running server, killed when dropped.
pub struct Server {
    child: Child,
    pub base: String,
    agent: ureq::Agent,
}

impl Server {
    pub fn start(data: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(BIN)
            .args(["serve", "--port", "0", "--data"])
            .arg(data)
            .args(extra)
            .env_remove("OWARE_DB")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start oware serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let start = line.find("http://").expect("an address on the first line");
        let base: String = line[start..]
            .chars()
            .take_while(|c| !c.is_whitespace())
            .collect();
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            // Each client keeps its connection, as a browser does.
            .max_idle_connections(512)
            .max_idle_connections_per_host(512)
            .build()
            .into();
        Server { child, base, agent }
    }

    /// A server with no rate limit (the tests send many requests).
    pub fn open(data: &Path) -> Server {
        Server::start(data, &["--rate", "0"])
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        let mut r = self
            .agent
            .get(format!("{}{path}", self.base))
            .call()
            .unwrap();
        (r.status().as_u16(), r.body_mut().read_to_string().unwrap())
    }

    pub fn get_json(&self, path: &str) -> (u16, Value) {
        let (status, text) = self.get(path);
        (status, serde_json::from_str(&text).expect("JSON"))
    }

    pub fn post_raw(&self, path: &str, body: &str) -> (u16, Value) {
        let mut r = self
            .agent
            .post(format!("{}{path}", self.base))
            .header("Content-Type", "application/json")
            .send(body)
            .unwrap();
        let status = r.status().as_u16();
        let text = r
            .body_mut()
            .with_config()
            .limit(50 << 20)
            .read_to_string()
            .unwrap();
        (status, serde_json::from_str(&text).expect("JSON answer"))
    }

    pub fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.post_raw(path, &body.to_string())
    }

    /// A new game with the creator's seat and a link for the other one.
    pub fn linked(&self, body: Value) -> Linked {
        let created = self.create(body);
        Linked {
            id: str_of(&created["id"]).to_string(),
            south: str_of(&created["token"]).to_string(),
            north: token_of_link(&created["links"]["opponent"]),
        }
    }

    pub fn create(&self, body: Value) -> Value {
        let (status, v) = self.post("/api/games", body);
        assert_eq!(status, 201, "{v}");
        v
    }

    pub fn play(&self, id: &str, mv: &str, token: &str) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/moves"),
            json!({"move": mv, "token": token}),
        )
    }

    /// Plays a random one of `state`'s legal moves with the mover's token
    /// (`tokens`: South's, North's); the move must be taken. The new state.
    pub fn play_random(&self, id: &str, state: &Value, tokens: [&str; 2], rng: &mut Lcg) -> Value {
        let legal = state["legal"].as_array().unwrap();
        let mv = str_of(&legal[rng.below(legal.len())]);
        let token = tokens[usize::from(state["to_move"] != "S")];
        let (status, after) = self.play(id, mv, token);
        assert_eq!(status, 200, "{mv} in {state}: {after}");
        after
    }

    pub fn socket(&self, id: &str) -> Socket {
        let url = format!(
            "{}/api/games/{id}/ws",
            self.base.replacen("http://", "ws://", 1)
        );
        let (ws, _) = tungstenite::connect(url).expect("WebSocket");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        }
        Socket(ws)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct Socket(WebSocket<MaybeTlsStream<TcpStream>>);

impl Socket {
    /// The next state sent.
    pub fn next(&mut self) -> Value {
        loop {
            match self.0.read().expect("a message") {
                Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
                Message::Close(_) => panic!("closed"),
                _ => {}
            }
        }
    }

    /// Reads states until one satisfies `want` (within `secs`).
    pub fn wait_for(&mut self, secs: u64, want: impl Fn(&Value) -> bool) -> Value {
        let until = Instant::now() + Duration::from_secs(secs);
        loop {
            assert!(Instant::now() < until, "no such state in time");
            let s = self.next();
            if want(&s) {
                return s;
            }
        }
    }
}

pub fn token_of_link(link: &Value) -> String {
    let url = link.as_str().expect("an opponent link");
    url.split("token=").nth(1).unwrap().to_string()
}

/// A small deterministic random source.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

pub fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}
