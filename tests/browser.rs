//! The page of `oware serve` in a real browser: headless Chromium driven
//! over WebDriver (chromedriver) with fantoccini, against the real server.
//!
//! It creates a game against the engine and plays it by clicking pits and
//! typing letters, checks every board the page shows against
//! `oware show --moves … --json`, plays a two-person game from two browser
//! sessions (the second opens the opponent link), plays Arabic Mancala
//! against the engine (another go, the stores), opens the analysis board,
//! and saves screenshots to `target/browser/board.png`,
//! `target/browser/mancala.png` and `target/browser/phone.png` (390×844).
//!
//! `OWARE_BROWSER_BASE=http://127.0.0.1:PORT` tests a server already running
//! instead of starting one.
//!
//! Without `/usr/bin/chromedriver` the test says so and passes, unless `CI`
//! is set: then a missing browser is a failure.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const CHROMIUM: &str = "/usr/bin/chromium";
const WAIT: Duration = Duration::from_secs(60);

/// A child process that is ended when the test ends, however it ends.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn say(msg: &str) {
    // Straight to the process's stderr, past the test harness's capture.
    let _ = writeln!(std::io::stderr(), "{msg}");
}

#[test]
fn page_in_a_real_browser() {
    if !Path::new(CHROMEDRIVER).exists() {
        if std::env::var_os("CI").is_some() {
            panic!(
                "CI is set and {CHROMEDRIVER} is missing: install Debian's chromium and chromium-driver"
            );
        }
        say(&format!(
            "tests/browser.rs: skipped: {CHROMEDRIVER} is missing (apt-get install chromium chromium-driver)"
        ));
        return;
    }
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(run());
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The server's address from its first line of output: a URL if it prints
/// one, else the first `host:port` word.
fn parse_address(line: &str) -> Option<String> {
    if let Some(at) = line.find("http://") {
        let url: String = line[at..]
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != ',' && *c != ')')
            .collect();
        let url = url
            .trim_end_matches(['/', '.'])
            .replace("0.0.0.0", "127.0.0.1");
        return Some(url);
    }
    line.split_whitespace()
        .map(|w| w.trim_matches(|c: char| c == ',' || c == '.' || c == '(' || c == ')'))
        .find(|w| {
            w.rsplit_once(':')
                .is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok())
        })
        .map(|w| {
            let w = w.replace("0.0.0.0", "127.0.0.1");
            format!("http://{w}")
        })
}

fn start_server(data: &Path) -> (Guard, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["serve", "--port", "0", "--data"])
        .arg(data)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start oware serve");
    let stdout = child.stdout.take().unwrap();
    let guard = Guard(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        if let Some(Ok(first)) = lines.next() {
            let _ = tx.send(first);
        }
        // Keep reading so that the server never blocks on a full pipe.
        for _ in lines {}
    });
    let first = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("oware serve printed no address");
    let addr = parse_address(&first)
        .unwrap_or_else(|| panic!("no address in the server's first line: {first:?}"));
    (guard, addr)
}

fn start_chromedriver() -> (Guard, String) {
    let port = free_port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromedriver");
    let guard = Guard(child);
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen");
        std::thread::sleep(Duration::from_millis(100));
    }
    (guard, format!("http://127.0.0.1:{port}"))
}

async fn browser(driver: &str, profile: &Path, width: u32, height: u32) -> Client {
    if !Path::new(CHROMIUM).exists() {
        panic!("{CHROMIUM} is missing: install Debian's chromium");
    }
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_string(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                format!("--user-data-dir={}", profile.display()),
                format!("--window-size={width},{height}"),
            ],
        }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(driver)
        .await
        .expect("a WebDriver session")
}

/// What the page's board shows, once no animation runs.
#[derive(Debug, Clone, PartialEq)]
struct Shown {
    ply: usize,
    moves: String,
    status: String,
    pits: Vec<u64>,
    stores: Vec<u64>,
    playable: Vec<String>,
    text: String,
}

const READ_BOARD: &str = r#"
const b = document.getElementById('board');
if (!b || b.dataset.animating === '1' || b.dataset.busy === '1' || b.dataset.ply === undefined) return null;
const pit = (l) => b.querySelector(`.pit[data-pit="${l}"]`);
const st = document.getElementById('status');
return {
  ply: Number(b.dataset.ply),
  moves: b.dataset.moves || '',
  status: b.dataset.status || '',
  pits: [...'ABCDEFabcdef'].map((l) => Number(pit(l).dataset.count)),
  labels: [...'ABCDEFabcdef'].map((l) => pit(l).getAttribute('aria-label')),
  shownSeeds: [...'ABCDEFabcdef'].map((l) => pit(l).querySelectorAll('.seed').length),
  stores: ['S', 'N'].map((s) => Number(b.querySelector(`.store[data-side="${s}"]`).dataset.count)),
  playable: [...b.querySelectorAll('.pit.playable')].map((e) => e.dataset.pit),
  text: st ? st.textContent : '',
};
"#;

/// A JSON array of numbers.
fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// A JSON array of strings.
fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

async fn read_board(c: &Client) -> Option<Shown> {
    let v = c.execute(READ_BOARD, vec![]).await.ok()?;
    if v.is_null() {
        return None;
    }
    // The drawing agrees with the numbers: a circle per seed (up to 30),
    // and an aria-label that says the count.
    let pits = numbers(&v["pits"]);
    for (i, n) in pits.iter().enumerate() {
        let letter = "ABCDEFabcdef".chars().nth(i).unwrap();
        assert_eq!(v["shownSeeds"][i].as_u64().unwrap(), (*n).min(30));
        let label = v["labels"][i].as_str().unwrap();
        assert!(
            label.starts_with(&format!("pit {letter}, {n} seed")),
            "aria-label {label:?}"
        );
    }
    Some(Shown {
        ply: v["ply"].as_u64().unwrap() as usize,
        moves: v["moves"].as_str().unwrap_or("").to_string(),
        status: v["status"].as_str().unwrap_or("").to_string(),
        pits,
        stores: numbers(&v["stores"]),
        playable: strings(&v["playable"]),
        text: v["text"].as_str().unwrap_or("").to_string(),
    })
}

/// Waits until the board shows a state for which `ok` holds.
async fn wait_board(c: &Client, what: &str, ok: impl Fn(&Shown) -> bool) -> Shown {
    let deadline = Instant::now() + WAIT;
    let mut last = None;
    loop {
        if let Some(s) = read_board(c).await {
            if ok(&s) {
                return s;
            }
            last = Some(s);
        }
        if Instant::now() > deadline {
            let msg = c
                .execute(
                    "const m = document.getElementById('message'); return m ? m.textContent : null;",
                    vec![],
                )
                .await
                .unwrap_or(Value::Null);
            panic!("waited too long for {what}; the board shows {last:?}; message {msg}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn wait_css(c: &Client, css: &str) {
    let deadline = Instant::now() + WAIT;
    while c.find(Locator::Css(css)).await.is_err() {
        assert!(Instant::now() < deadline, "no {css} on the page");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `oware show --moves MOVES --json` from the start position.
fn show(moves: &str) -> Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oware"));
    cmd.arg("show");
    if !moves.is_empty() {
        cmd.args(["--moves", moves]);
    }
    let out = cmd.arg("--json").output().expect("run oware show");
    assert!(out.status.success(), "oware show --moves {moves} failed");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `oware show --rules mancala --moves MOVES --json` from the 3-seed start.
fn show_mancala(moves: &str) -> Value {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oware"));
    cmd.args(["show", "--rules", "mancala"]);
    if !moves.is_empty() {
        cmd.args(["--moves", moves]);
    }
    let out = cmd.arg("--json").output().expect("run oware show");
    assert!(
        out.status.success(),
        "oware show --rules mancala --moves {moves} failed"
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The Mancala board on the page is the one §7 gives after its moves.
fn check_mancala(s: &Shown) {
    assert_eq!(s.moves.len(), s.ply, "{s:?}");
    let want = show_mancala(&s.moves);
    assert_eq!(s.pits, numbers(&want["pits"]), "pits after {}", s.moves);
    assert_eq!(
        s.stores,
        numbers(&want["stores"]),
        "stores after {}",
        s.moves
    );
    assert_eq!(
        s.status,
        want["status"].as_str().unwrap(),
        "after {}",
        s.moves
    );
    if s.status == "ongoing" && !s.playable.is_empty() {
        assert_eq!(s.playable, strings(&want["legal"]), "after {}", s.moves);
    }
}

/// Sets a select of the page to `value`.
async fn choose(c: &Client, css: &str, value: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
}

/// The board on the page is the board the rules give after its moves.
fn check_against_show(s: &Shown) {
    assert_eq!(s.moves.len(), s.ply, "{s:?}");
    let want = show(&s.moves);
    let pits: Vec<u64> = numbers(&want["pits"]);
    let stores: Vec<u64> = numbers(&want["stores"]);
    assert_eq!(s.pits, pits, "pits after {}", s.moves);
    assert_eq!(s.stores, stores, "stores after {}", s.moves);
    assert_eq!(
        s.status,
        want["status"].as_str().unwrap(),
        "after {}",
        s.moves
    );
}

async fn click_pit(c: &Client, letter: &str) {
    click(c, &format!(".pit[data-pit=\"{letter}\"]")).await;
}

/// Clicks the element `css` finds. The page redraws as the game's state
/// arrives, so an element found may be replaced before the click lands
/// (a stale element): it is then found again, a few times at most.
async fn click(c: &Client, css: &str) {
    let mut tries = 0;
    loop {
        let element = c
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"));
        match element.click().await {
            Ok(_) => return,
            Err(e) if tries < 10 => {
                tries += 1;
                eprintln!("click on {css} failed ({e}); finding it again");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("click on {css}: {e}"),
        }
    }
}

async fn new_game(c: &Client, base: &str, south: &str, north: &str) {
    c.goto(&format!("{base}/#/")).await.unwrap();
    wait_css(c, "#new-game #create").await;
    c.find(Locator::Css("#south"))
        .await
        .unwrap()
        .select_by_value(south)
        .await
        .unwrap();
    c.find(Locator::Css("#north"))
        .await
        .unwrap()
        .select_by_value(north)
        .await
        .unwrap();
    if north == "engine" || south == "engine" {
        c.find(Locator::Css("#level"))
            .await
            .unwrap()
            .select_by_value("easy")
            .await
            .unwrap();
    }
    c.find(Locator::Css("#create"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

async fn screenshot(c: &Client, path: &Path) {
    let png = c.screenshot().await.unwrap();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, png).unwrap();
    say(&format!("tests/browser.rs: saved {}", path.display()));
}

/// Sets the size of the page's viewport (the window is a little larger).
async fn viewport(c: &Client, width: u32, height: u32) {
    c.set_window_size(width, height).await.unwrap();
    let inner = c
        .execute("return [window.innerWidth, window.innerHeight];", vec![])
        .await
        .unwrap();
    let (iw, ih) = (
        inner[0].as_u64().unwrap() as u32,
        inner[1].as_u64().unwrap() as u32,
    );
    if iw != width || ih != height {
        c.set_window_size(
            width + (width - iw.min(width)),
            height + (height - ih.min(height)),
        )
        .await
        .unwrap();
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
}

async fn no_horizontal_scroll(c: &Client, width: u32) {
    let v = c
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .unwrap();
    let (sw, iw) = (v[0].as_u64().unwrap(), v[1].as_u64().unwrap());
    assert!(
        sw <= iw,
        "horizontal scroll at {width} px: the page is {sw} px wide in a {iw} px viewport"
    );
    // Every pit is a touch target of at least 44 × 44 px.
    let small = c
        .execute(
            "return [...document.querySelectorAll('.pit')].map((p) => p.getBoundingClientRect()).filter((r) => r.width < 44 || r.height < 44).length;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(small.as_u64(), Some(0), "pits under 44 px at {width} px");
}

async fn run() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    // OWARE_BROWSER_BASE=http://… runs the page of a server already running.
    let (_server, base) = match std::env::var("OWARE_BROWSER_BASE") {
        Ok(base) => (None, base.trim_end_matches('/').to_string()),
        Err(_) => {
            let (guard, base) = start_server(&data);
            (Some(guard), base)
        }
    };
    let (_driver, driver) = start_chromedriver();
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser");

    // ---- South against the engine (easy): clicks and the keyboard.
    let a = browser(&driver, &tmp.path().join("profile-a"), 1280, 900).await;
    new_game(&a, &base, "human", "engine").await;
    let s = wait_board(&a, "a new game", |s| s.ply == 0 && !s.playable.is_empty()).await;
    check_against_show(&s);
    assert_eq!(s.playable, ["A", "B", "C", "D", "E", "F"]);
    assert!(s.text.contains("Your move"), "status {:?}", s.text);
    click_pit(&a, "C").await;
    let s = wait_board(&a, "the engine's answer", |s| {
        s.ply >= 2 && !s.playable.is_empty()
    })
    .await;
    assert!(s.moves.starts_with('C'), "{s:?}");
    check_against_show(&s);
    // The next move by keyboard: the letter typed on the page.
    let m = s.playable[0].clone();
    a.find(Locator::Css(".pit[data-pit=\"A\"]"))
        .await
        .unwrap()
        .send_keys(&m.to_lowercase())
        .await
        .unwrap();
    let s = wait_board(&a, "a move by keyboard and the answer", |s| {
        s.ply >= 4 || s.status == "over"
    })
    .await;
    assert_eq!(&s.moves[2..3], m, "{s:?}");
    check_against_show(&s);
    // One more by click, with the animation skipped by a click on the board.
    if s.status == "ongoing" {
        let m = s.playable.last().unwrap().clone();
        click_pit(&a, &m).await;
        tokio::time::sleep(Duration::from_millis(150)).await;
        let _ = a.find(Locator::Css("#board")).await.unwrap().click().await;
        let s = wait_board(&a, "the third answer", |s| s.ply >= 6 || s.status == "over").await;
        check_against_show(&s);
    }
    // The move list has numbered pairs.
    let list = a
        .find(Locator::Css("#movelist"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(list.contains('C'), "move list {list:?}");
    viewport(&a, 1100, 640).await;
    screenshot(&a, &shots.join("board.png")).await;

    // ---- Phone sizes: no horizontal scroll, pits big enough to touch.
    viewport(&a, 390, 844).await;
    no_horizontal_scroll(&a, 390).await;
    screenshot(&a, &shots.join("phone.png")).await;
    viewport(&a, 360, 740).await;
    no_horizontal_scroll(&a, 360).await;
    for page in ["#/", "#/analyze"] {
        a.goto(&format!("{base}/{page}")).await.unwrap();
        wait_css(&a, "main .panel").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        no_horizontal_scroll(&a, 360).await;
    }
    no_errors(&a).await;
    viewport(&a, 1280, 900).await;

    // ---- Two people: South here, North by the opponent link in another browser.
    new_game(&a, &base, "human", "link").await;
    wait_board(&a, "the two-person game", |s| s.ply == 0).await;
    wait_css(&a, "#opponent-link").await;
    let link = a
        .find(Locator::Css("#opponent-link"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap()
        .expect("an opponent link");
    assert!(link.contains("token="), "opponent link {link:?}");
    let watch = value_of(&a, "#watch-link").await;
    assert!(!watch.contains("token="), "watch link {watch:?}");
    let b = browser(&driver, &tmp.path().join("profile-b"), 1024, 800).await;
    b.goto(&link).await.unwrap();
    let s = wait_board(&b, "the opponent's page", |s| s.ply == 0).await;
    assert!(s.playable.is_empty(), "North cannot move first: {s:?}");
    click_pit(&a, "F").await;
    let s = wait_board(&b, "South's move on North's page", |s| {
        s.ply == 1 && !s.playable.is_empty()
    })
    .await;
    check_against_show(&s);
    assert!(s.text.contains("Your move"), "status {:?}", s.text);
    assert!(
        s.playable
            .iter()
            .all(|l| l.chars().all(|c| c.is_ascii_lowercase()))
    );
    let m = s.playable[0].clone();
    click_pit(&b, &m).await;
    let s = wait_board(&a, "North's move on South's page", |s| s.ply == 2).await;
    assert_eq!(s.moves, format!("F{m}"));
    check_against_show(&s);
    let s = wait_board(&b, "North's own move", |s| s.ply == 2).await;
    check_against_show(&s);
    // A draw offered by North, declined by South; then South resigns.
    click(&b, "#draw-offer").await;
    wait_css(&a, "#draw-decline").await;
    click(&a, "#draw-decline").await;
    wait_css(&b, "#draw-offer").await;
    click(&a, "#resign").await;
    wait_css(&a, "#resign-confirm").await;
    click(&a, "#resign-confirm").await;
    for (c, who) in [(&a, "South"), (&b, "North")] {
        let s = wait_board(c, "the end by resignation", |s| s.status == "over").await;
        assert!(
            s.text.contains("North") && s.text.contains("resigned"),
            "{who}'s page says {:?}",
            s.text
        );
    }
    no_errors(&b).await;
    b.close().await.unwrap();

    // ---- Arabic Mancala against the engine: the rules in the form, another go, the stores.
    a.goto(&format!("{base}/#/")).await.unwrap();
    wait_css(&a, "#new-game #create").await;
    choose(&a, "#rules", "mancala").await;
    let seeds_shown = a
        .execute("return !document.getElementById('start-seeds').closest('.field').hidden && document.getElementById('series-set').hidden;", vec![])
        .await
        .unwrap();
    assert_eq!(
        seeds_shown,
        json!(true),
        "the Mancala settings in place of the series"
    );
    choose(&a, "#start-seeds", "3").await;
    choose(&a, "#south", "human").await;
    choose(&a, "#north", "engine").await;
    choose(&a, "#level", "easy").await;
    click(&a, "#create").await;
    let s = wait_board(&a, "a Mancala game", |s| {
        s.ply == 0 && !s.playable.is_empty()
    })
    .await;
    assert_eq!(s.pits, vec![3; 12]);
    check_mancala(&s);
    let rules = a
        .find(Locator::Css("#rules-name"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(rules.contains("Arabic Mancala, 3 seeds"), "{rules:?}");
    // D: E, F and South's own store: another go, the page says so.
    click_pit(&a, "D").await;
    let s = wait_board(&a, "another go", |s| s.ply == 1 && !s.playable.is_empty()).await;
    assert!(s.text.contains("Another go"), "status {:?}", s.text);
    assert_eq!(s.stores, [1, 0]);
    check_mancala(&s);
    let again = a
        .find_all(Locator::Css("#movelist .mv.again"))
        .await
        .unwrap()
        .len();
    assert_eq!(again, 1, "the move that gave another go is marked");
    // F by keyboard: the store, then North's row; the engine answers.
    a.find(Locator::Css(".pit[data-pit=\"A\"]"))
        .await
        .unwrap()
        .send_keys("f")
        .await
        .unwrap();
    let s = wait_board(&a, "the engine's Mancala answer", |s| {
        s.ply >= 3 && (!s.playable.is_empty() || s.status == "over")
    })
    .await;
    assert_eq!(&s.moves[..2], "DF", "{s:?}");
    assert!(s.stores[0] >= 2, "South's store holds its seeds: {s:?}");
    check_mancala(&s);
    if s.status == "ongoing" {
        let m = s.playable[0].clone();
        click_pit(&a, &m).await;
        let s = wait_board(&a, "a second Mancala answer", |t| {
            t.ply > s.ply && (!t.playable.is_empty() || t.status == "over")
        })
        .await;
        check_mancala(&s);
    }
    viewport(&a, 1100, 640).await;
    screenshot(&a, &shots.join("mancala.png")).await;
    viewport(&a, 1280, 900).await;
    // Its analysis: another go, and no tables.
    a.goto(&format!(
        "{base}/#/analyze?position=3-3-3-3-3-3-3-3-3-3-3-3-0-0-S&rules=mancala&moves=D"
    ))
    .await
    .unwrap();
    let s = wait_board(&a, "the Mancala analysis", |s| {
        s.ply == 1 && !s.playable.is_empty()
    })
    .await;
    assert_eq!(s.pits, numbers(&show_mancala("D")["pits"]));
    assert_eq!(s.stores, [1, 0]);
    assert!(s.text.contains("Another go"), "{:?}", s.text);
    wait_css(&a, "#tables-note").await;
    no_errors(&a).await;

    // ---- The analysis board: a position after moves, the engine's scores.
    a.goto(&format!(
        "{base}/#/analyze?position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S&moves=FfB"
    ))
    .await
    .unwrap();
    let s = wait_board(&a, "the analysis board", |s| {
        s.ply == 3 && !s.playable.is_empty()
    })
    .await;
    let want = show("FfB");
    let pits: Vec<u64> = numbers(&want["pits"]);
    assert_eq!(s.pits, pits);
    let legal: Vec<String> = strings(&want["legal"]);
    let mut playable = s.playable.clone();
    playable.sort();
    assert_eq!(playable, legal);
    let rows = a
        .find_all(Locator::Css("#analysis-moves tr"))
        .await
        .unwrap()
        .len();
    assert_eq!(rows, legal.len(), "a row per legal move");

    // ---- An OGN file read in the browser, opened in the analysis.
    let ogn = tmp.path().join("game.ogn");
    std::fs::write(
        &ogn,
        "[Event \"test\"]\n[South \"?\"]\n[North \"?\"]\n[Result \"*\"]\n\n1. F f {a comment} 2. B e (2... a) 3. A *\n",
    )
    .unwrap();
    a.goto(&format!("{base}/#/")).await.unwrap();
    wait_css(&a, "#ogn-file").await;
    a.find(Locator::Css("#ogn-file"))
        .await
        .unwrap()
        .send_keys(ogn.to_str().unwrap())
        .await
        .unwrap();
    click(&a, "#ogn-analyze").await;
    let s = wait_board(&a, "the record in the analysis", |s| {
        s.ply == 5 && !s.playable.is_empty()
    })
    .await;
    let want = show("FfBeA");
    let pits: Vec<u64> = numbers(&want["pits"]);
    assert_eq!(s.pits, pits, "the board after the record's moves");
    // Back one move.
    click(&a, "#prev").await;
    let s = wait_board(&a, "one move back", |s| s.ply == 4).await;
    let want = show("FfBe");
    assert_eq!(s.pits[0], want["pits"][0].as_u64().unwrap());
    no_errors(&a).await;
    a.close().await.unwrap();
}

/// The page met no script error (it keeps them in `window.__owareErrors`).
async fn no_errors(c: &Client) {
    let v = c
        .execute("return window.__owareErrors || null;", vec![])
        .await
        .unwrap();
    assert_eq!(v, json!([]), "script errors on the page");
}

/// Where the board puts things: the side whose row is at the bottom, the
/// bottom and top rows' letters from left to right, the side of the store
/// on the right, and whether the bottom row's letters are under its cups.
const READ_LAYOUT: &str = r#"
const b = document.getElementById('board');
if (!b) return null;
const x = (e) => e.getBoundingClientRect().left;
const rows = [...b.querySelectorAll('.row')].sort((p, q) => p.getBoundingClientRect().top - q.getBoundingClientRect().top);
const letters = (row) => [...row.querySelectorAll('.pit')].sort((p, q) => x(p) - x(q)).map((p) => p.dataset.pit).join('');
const stores = [...b.querySelectorAll('.store')];
const right = stores.sort((p, q) => q.getBoundingClientRect().left + q.getBoundingClientRect().top - p.getBoundingClientRect().left - p.getBoundingClientRect().top)[0];
const under = [...rows[1].querySelectorAll('.pit')].every((p) => p.querySelector('.letter').getBoundingClientRect().top > p.querySelector('.cup').getBoundingClientRect().top);
const over = [...rows[0].querySelectorAll('.pit')].every((p) => p.querySelector('.letter').getBoundingClientRect().top < p.querySelector('.cup').getBoundingClientRect().top);
return { bottom: b.dataset.bottom, top: letters(rows[0]), low: letters(rows[1]), right: right.dataset.side, under, over };
"#;

async fn layout(c: &Client) -> Value {
    c.execute(READ_LAYOUT, vec![]).await.unwrap()
}

/// The board seen from `side`: its row at the bottom, left to right, the
/// letters under it, its store on the right (below, on a narrow screen).
#[track_caller]
fn assert_seen_from(l: &Value, side: &str) {
    let (top, low) = if side == "N" {
        ("FEDCBA", "abcdef")
    } else {
        ("fedcba", "ABCDEF")
    };
    assert_eq!(l["bottom"], side, "{l}");
    assert_eq!(l["top"], top, "{l}");
    assert_eq!(l["low"], low, "{l}");
    assert_eq!(l["right"], side, "{l}");
    assert_eq!(l["under"], true, "letters under the bottom row: {l}");
    assert_eq!(l["over"], true, "letters over the top row: {l}");
}

/// The contrast ratio (WCAG) of the last move's letter against the colour
/// behind it, both from the computed style; 0 when there is no last move
/// or no opaque colour behind the letter.
const LAST_CONTRAST: &str = r#"
const letter = document.querySelector('#board .pit.last .letter');
if (!letter) return 0;
const rgb = (s) => { const m = /rgba?\(([^)]+)\)/.exec(s); if (!m) return null; const v = m[1].split(',').map(Number); return v.length > 3 && v[3] === 0 ? null : v.slice(0, 3); };
const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
const fg = rgb(getComputedStyle(letter).color);
let bg = null;
for (let e = letter; e && !bg; e = e.parentElement) {
  const st = getComputedStyle(e);
  if (st.backgroundImage && st.backgroundImage !== 'none') return 0;
  bg = rgb(st.backgroundColor);
}
if (!fg || !bg) return 0;
const [a, b] = [lum(fg), lum(bg)].sort((p, q) => q - p);
return (a + 0.05) / (b + 0.05);
"#;

/// Sets the viewport, checks that nothing scrolls sideways (the page no
/// wider than `width`), and keeps a screenshot.
async fn phone_check(c: &Client, width: u32, name: &str) {
    viewport(c, width, 844).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let sw = c
        .execute("return document.documentElement.scrollWidth;", vec![])
        .await
        .unwrap()
        .as_u64()
        .unwrap();
    assert!(
        sw <= width as u64,
        "{name}: the page is {sw} px wide at {width} px"
    );
    screenshot(c, &shots().join(format!("{name}-phone.png"))).await;
}

fn shots() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/browser-screenshots")
}

async fn desktop_shot(c: &Client, name: &str) {
    viewport(c, 1280, 900).await;
    screenshot(c, &shots().join(format!("{name}-desktop.png"))).await;
}

async fn text_of(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css}: {e}"))
        .text()
        .await
        .unwrap()
}

/// The `value` of the form field at `css`.
async fn value_of(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css}: {e}"))
        .prop("value")
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("{css} has no value"))
}

async fn attr_of(c: &Client, css: &str, name: &str) -> Option<String> {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css}: {e}"))
        .attr(name)
        .await
        .unwrap()
}

/// Issue #31: the board from one's own side, the flip, the error pages, the
/// last move's contrast, the phone width, the analysis' bar, graph and
/// capture marks.
#[test]
fn issue_31_pages_in_a_real_browser() {
    if !Path::new(CHROMEDRIVER).exists() {
        if std::env::var_os("CI").is_some() {
            panic!("CI is set and {CHROMEDRIVER} is missing");
        }
        say("tests/browser.rs: skipped: no chromedriver");
        return;
    }
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(issue_31());
}

/// A new game from the form, the form sent by a script: WebDriver's click
/// on "Create" can land a second time where the button was, on the game
/// page that replaces the form.
async fn create_game(c: &Client, base: &str, settings: &[(&str, &str)]) {
    c.goto(&format!("{base}/#/")).await.unwrap();
    wait_css(c, "#new-game #create").await;
    for (css, value) in settings {
        choose(c, css, value).await;
    }
    c.execute("document.getElementById('create').click();", vec![])
        .await
        .unwrap();
}

async fn issue_31() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let (_server, base) = start_server(&data);
    let (_driver, driver) = start_chromedriver();
    let a = browser(&driver, &tmp.path().join("p31a"), 1280, 900).await;
    let b = browser(&driver, &tmp.path().join("p31b"), 1280, 900).await;

    // ---- 1. North by link sees North's side; South and a watcher South's.
    create_game(&a, &base, &[("#south", "human"), ("#north", "link")]).await;
    wait_board(&a, "the linked game", |s| s.ply == 0).await;
    assert_seen_from(&layout(&a).await, "S");
    wait_css(&a, "#opponent-link").await;
    let link = value_of(&a, "#opponent-link").await;
    let watch = value_of(&a, "#watch-link").await;
    b.goto(&link).await.unwrap();
    wait_board(&b, "North's page", |s| s.ply == 0).await;
    assert_seen_from(&layout(&b).await, "N");
    // The last move's letter stays readable: at least 4.5:1.
    click_pit(&a, "F").await;
    wait_board(&b, "South's move on North's page", |s| s.ply == 1).await;
    let ratio = b.execute(LAST_CONTRAST, vec![]).await.unwrap();
    assert!(
        ratio.as_f64().unwrap() >= 4.5,
        "the last move's letter has a contrast of {ratio}"
    );
    desktop_shot(&b, "north").await;
    phone_check(&b, 390, "north").await;
    // Still North's side on a phone: the store below (the right, folded).
    assert_seen_from(&layout(&b).await, "N");
    viewport(&b, 1280, 900).await;
    // The flip: South's side, kept when the page is loaded again.
    click(&b, "#flip").await;
    assert_seen_from(&layout(&b).await, "S");
    b.refresh().await.unwrap();
    wait_board(&b, "North's page again", |s| s.ply == 1).await;
    assert_seen_from(&layout(&b).await, "S");
    click(&b, "#flip").await;
    assert_seen_from(&layout(&b).await, "N");
    // A watcher (a browser that holds no token and no choice) sees South's
    // side and may flip.
    b.execute("localStorage.clear();", vec![]).await.unwrap();
    b.goto(&watch).await.unwrap();
    b.refresh().await.unwrap();
    wait_board(&b, "the watcher's page", |s| s.ply == 1).await;
    assert_seen_from(&layout(&b).await, "S");
    click(&b, "#flip").await;
    assert_seen_from(&layout(&b).await, "N");

    // ---- North against the engine: North's side.
    create_game(
        &a,
        &base,
        &[
            ("#south", "engine"),
            ("#north", "human"),
            ("#level", "easy"),
            ("#first", "opponent"),
        ],
    )
    .await;
    wait_board(&a, "North against the engine", |s| s.ply >= 1).await;
    assert_seen_from(&layout(&a).await, "N");

    // ---- 2, 3, 4, 5. The form: who moves first, names, clocks, the series' rule.
    a.goto(&format!("{base}/#/")).await.unwrap();
    wait_css(&a, "#new-game #create").await;
    choose(&a, "#series-kind", "first-to-lead").await;
    a.execute(
        "for (const [id, v] of [['series-n', '6'], ['series-k', '3']]) { const e = document.getElementById(id); e.value = v; e.dispatchEvent(new Event('input')); }",
        vec![],
    )
    .await
    .unwrap();
    let rule = text_of(&a, "#series-rule").await;
    assert!(rule.contains("6 wins or leads by 3 games"), "{rule:?}");
    choose(&a, "#series-kind", "").await;
    choose(&a, "#south", "human").await;
    choose(&a, "#north", "link").await;
    choose(&a, "#first", "opponent").await;
    choose(&a, "#time-control", "1+0").await;
    a.find(Locator::Css("#south-name"))
        .await
        .unwrap()
        .send_keys("<i>Ann</i>")
        .await
        .unwrap();
    a.find(Locator::Css("#north-name"))
        .await
        .unwrap()
        .send_keys("Bo")
        .await
        .unwrap();
    a.execute("document.getElementById('create').click();", vec![])
        .await
        .unwrap();
    wait_board(&a, "the game with names and clocks", |s| s.ply == 0).await;
    // The creator moves second: North, seen from North; the names (as
    // text, not markup) and the clocks shown.
    assert_seen_from(&layout(&a).await, "N");
    let players = text_of(&a, "#players").await;
    assert!(
        players.contains("<i>Ann</i> (you)") && players.contains("Bo"),
        "{players:?}"
    );
    wait_css(&a, "#clocks:not([hidden])").await;
    let clock = text_of(&a, "#clock-N").await;
    assert!(clock.contains("1:00"), "{clock:?}");
    wait_css(&a, "#opponent-link").await;
    let link = value_of(&a, "#opponent-link").await;
    b.execute("localStorage.clear();", vec![]).await.unwrap();
    b.goto(&link).await.unwrap();
    b.refresh().await.unwrap();
    wait_board(&b, "South's page", |s| s.ply == 0 && !s.playable.is_empty()).await;
    assert_seen_from(&layout(&b).await, "S");
    click_pit(&b, "C").await;
    wait_board(&a, "South's first move", |s| s.ply == 1).await;
    wait_css(&a, "#clock-N.running").await;
    // North resigns; South asks for a rematch, North accepts.
    click(&a, "#resign").await;
    wait_css(&a, "#resign-confirm").await;
    click(&a, "#resign-confirm").await;
    wait_board(&b, "the end", |s| s.status == "over").await;
    wait_css(&a, "#new-game").await;
    desktop_shot(&a, "game-over").await;
    phone_check(&a, 390, "game-over").await;
    viewport(&a, 1280, 900).await;
    click(&b, "#rematch").await;
    wait_css(&b, "#rematch-offered").await;
    wait_css(&a, "#rematch-accept").await;
    click(&a, "#rematch-accept").await;
    // Both follow to the rematch: the colours swapped.
    for (c, side) in [(&a, "S"), (&b, "N")] {
        wait_board(c, "the rematch", |s| s.ply == 0).await;
        let deadline = Instant::now() + WAIT;
        while layout(c).await["bottom"] != side {
            assert!(Instant::now() < deadline, "the rematch from {side}'s side");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_seen_from(&layout(c).await, side);
    }
    let players = text_of(&b, "#players").await;
    assert!(players.contains("Bo (you)"), "{players:?}");

    // ---- 7. A game that does not exist.
    a.goto(&format!("{base}/#/game/ffffffffffffffff"))
        .await
        .unwrap();
    wait_css(&a, "#not-found").await;
    let said = text_of(&a, "#not-found").await;
    assert!(said.contains("No such game"), "{said:?}");
    assert_eq!(
        attr_of(&a, "#not-found-new", "href").await.as_deref(),
        Some("#/")
    );
    click(&a, "#not-found-new").await;
    wait_css(&a, "#new-game #create").await;

    // ---- 6. The analysis: a bad position is an error on the page.
    a.goto(&format!("{base}/#/analyze?position=1-2-3"))
        .await
        .unwrap();
    wait_css(&a, "#bad-position").await;
    assert!(a.find(Locator::Css("#board")).await.is_err(), "no board");
    // Capture marks in the move list, the bar and the graph.
    a.goto(&format!(
        "{base}/#/analyze?position=4-4-4-4-0-1-1-4-4-4-4-4-5-5-S&moves=Fb"
    ))
    .await
    .unwrap();
    wait_board(&a, "the analysis of a capture", |s| s.ply == 2).await;
    let deadline = Instant::now() + WAIT;
    loop {
        let list = text_of(&a, "#an-movelist").await;
        if list.contains("F+2") {
            break;
        }
        assert!(Instant::now() < deadline, "no capture mark in {list:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let deadline = Instant::now() + WAIT;
    while attr_of(&a, "#score-graph", "data-done").await.as_deref() != Some("1") {
        assert!(Instant::now() < deadline, "the graph was not drawn");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(
        attr_of(&a, "#score-graph", "data-points").await.as_deref(),
        Some("3"),
        "a point for each position of the line"
    );
    let score: f64 = attr_of(&a, "#evalbar", "data-score")
        .await
        .expect("the bar's score")
        .parse()
        .unwrap();
    assert!((-12.0..=12.0).contains(&score));
    // The analysis flips too.
    assert_seen_from(&layout(&a).await, "S");
    click(&a, "#flip").await;
    assert_seen_from(&layout(&a).await, "N");
    desktop_shot(&a, "analysis").await;
    phone_check(&a, 390, "analysis").await;
    click(&a, "#flip").await;
    viewport(&a, 1280, 900).await;

    no_errors(&a).await;
    no_errors(&b).await;
    a.close().await.unwrap();
    b.close().await.unwrap();
}
