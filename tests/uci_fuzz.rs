//! A fuzzer for the engine protocol: the built binary gets sessions of
//! random lines (random bytes with invalid UTF-8, NUL, `\r` and very long
//! lines; token soups over the protocol's words with numbers negative,
//! huge or not numbers at all; mutations of valid commands). After each
//! session it must answer `stop` and `isready` with `readyok` within a few
//! seconds, never print "panicked", never die by a signal, and exit 0 on
//! `quit`.
//!
//! The default run is short (20 sessions of 50 lines). The long run is
//! `#[ignore]`d and takes its session count from `OWARE_FUZZ_CASES`:
//!
//! ```sh
//! OWARE_FUZZ_CASES=2000 cargo test --release --test uci_fuzz -- --ignored
//! ```
//!
//! Settings are kept small for a small machine: `Threads` at most 4, `Hash`
//! at most 64 MiB, `TablePath` only to folders that do not exist or to the
//! session's empty temporary folder (the engine runs there).

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use common::Rng;

/// Sessions in the default run.
const SHORT_SESSIONS: usize = 20;

/// Lines a session.
const LINES: usize = 50;

const VOCABULARY: [&str; 35] = [
    "uci",
    "isready",
    "ucinewgame",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "nodes",
    "infinite",
    "ponder",
    "stop",
    "ponderhit",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "UseLeaves",
    "TablePath",
    "OwnBook",
    "true",
    "false",
    "FfBe",
    "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
    "1-0-0-0-0-1-0-0-0-0-1-2-21-19-S",
    "/nonexistent/tables",
    "quit",
];

/// Valid commands to mutate (`quit` is left out: sessions end on it).
const VALID: [&str; 20] = [
    "uci",
    "isready",
    "ucinewgame",
    "position startpos",
    "position startpos moves FfBe",
    "position fen 1-0-0-0-0-1-0-0-0-0-1-2-21-19-S",
    "position fen 0-0-0-0-0-0-1-2-0-0-0-0-20-20-S",
    "position fen 4-4-4-4-4-0-5-5-5-5-4-4-0-0-N moves eA",
    "go depth 4",
    "go movetime 20",
    "go nodes 2000",
    "go wtime 300 btime 300 winc 10 binc 10 movestogo 5",
    "go ponder wtime 200 btime 200",
    "go infinite",
    "stop",
    "ponderhit",
    "setoption name Hash value 16",
    "setoption name Threads value 2",
    "setoption name UseLeaves value false",
    "setoption name TablePath value /nonexistent/x",
];

/// A number word: mostly small (short searches), sometimes negative, huge
/// or not a number.
fn number(rng: &mut Rng) -> String {
    match rng.below(10) {
        0 => format!("-{}", rng.below(100_000)),
        1 => "9".repeat(1 + rng.below(30)),
        2 => ["ten", "", "1e3", "0x10", "+5", "-", "3.5", "\u{0}"][rng.below(8)].to_string(),
        3 => (rng.below(300)).to_string(),
        _ => rng.below(9).to_string(),
    }
}

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let len = match rng.below(100) {
        0 => (1 << 20) + rng.below(1 << 20),
        1..=10 => rng.below(5000),
        _ => rng.below(60),
    };
    let special = [0u8, b'\r', 0xff, 0xfe, 0xc3, b' ', b'\t', 0x80];
    (0..len)
        .map(|_| match rng.below(4) {
            0 => special[rng.below(special.len())],
            1 => rng.below(256) as u8,
            _ => b"abcdefABCDEF0123456789- "[rng.below(24)],
        })
        .filter(|&b| b != b'\n')
        .collect()
}

fn token_soup(rng: &mut Rng) -> Vec<u8> {
    let mut words = Vec::new();
    for _ in 0..1 + rng.below(10) {
        if rng.below(3) == 0 {
            words.push(number(rng));
        } else {
            words.push(VOCABULARY[rng.below(VOCABULARY.len())].to_string());
        }
    }
    words.join(" ").into_bytes()
}

fn mutation(rng: &mut Rng) -> Vec<u8> {
    let mut line = VALID[rng.below(VALID.len())].as_bytes().to_vec();
    for _ in 0..rng.below(3) {
        let at = rng.below(line.len() + 1);
        match rng.below(4) {
            0 if at < line.len() => {
                line.remove(at);
            }
            1 if at < line.len() => line[at] = rng.below(256) as u8,
            2 => line
                .splice(at..at, format!(" {}", number(rng)).into_bytes())
                .for_each(drop),
            _ => line.insert(at, b"\r\0 -9"[rng.below(5)]),
        }
    }
    line.retain(|&b| b != b'\n');
    line
}

/// Keeps a `setoption` line from asking for more than 4 threads or 64 MiB
/// of hash: any number from 5 to 65536 on it becomes 4.
fn tame(line: Vec<u8>) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(&line) else {
        return line;
    };
    if text.split_whitespace().next() != Some("setoption") {
        return line;
    }
    text.split(' ')
        .map(|w| match w.trim().parse::<usize>() {
            Ok(n) if (5..=65536).contains(&n) => "4",
            _ => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
        .into_bytes()
}

fn random_line(rng: &mut Rng) -> Vec<u8> {
    let line = match rng.below(3) {
        0 => random_bytes(rng),
        1 => token_soup(rng),
        _ => mutation(rng),
    };
    tame(line)
}

/// Waits up to `timeout` for the line `want`, failing on "panicked".
fn wait_for(lines: &Receiver<String>, want: &str, timeout: Duration) -> Result<(), String> {
    let end = Instant::now() + timeout;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line.contains("panicked") => return Err(line),
            Ok(line) if line == want => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(format!("no '{want}': {e}")),
        }
    }
}

/// One session of `LINES` random lines; `Err` describes what went wrong.
fn session(seed: u64) -> Result<(), String> {
    let mut rng = Rng(seed | 1);
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["uci", "--db", "/nonexistent"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let stdout = child.stdout.take().expect("piped");
    let (sender, lines) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut buf = Vec::new();
        while reader.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
            let line = String::from_utf8_lossy(&buf).trim_end().to_string();
            buf.clear();
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    let mut stdin = child.stdin.take().expect("piped");
    let mut sent = Vec::new();
    let mut result = Ok(());
    for _ in 0..LINES {
        let mut line = random_line(&mut rng);
        if line.starts_with(b"quit") {
            line.insert(0, b'x');
        }
        sent.push(String::from_utf8_lossy(&line[..line.len().min(200)]).into_owned());
        line.push(b'\n');
        if let Err(e) = stdin.write_all(&line).and_then(|()| stdin.flush()) {
            result = Err(format!("writing: {e}"));
            break;
        }
    }
    if result.is_ok() {
        result = writeln!(stdin, "stop\nisready")
            .map_err(|e| format!("writing: {e}"))
            .and_then(|()| wait_for(&lines, "readyok", Duration::from_secs(10)));
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let end = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut err);
    }
    let rest: Vec<String> = lines.try_iter().collect();
    let failure = if let Err(e) = result {
        Some(e)
    } else if let Some(line) = rest.iter().find(|l| l.contains("panicked")) {
        Some(line.clone())
    } else if err.contains("panicked") {
        Some(err.clone())
    } else {
        match status {
            Some(s) if s.code() == Some(0) => None,
            Some(s) => Some(format!("exit status {s:?}")),
            None => Some("no exit after quit".to_string()),
        }
    };
    match failure {
        None => Ok(()),
        Some(f) => Err(format!(
            "seed {seed}: {f}\nstderr: {err}\nlines sent: {sent:#?}"
        )),
    }
}

fn fuzz(sessions: usize, base: u64) {
    for i in 0..sessions as u64 {
        if let Err(e) = session(base.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15))) {
            panic!("{e}");
        }
    }
}

#[test]
fn random_sessions_never_break_the_engine() {
    fuzz(SHORT_SESSIONS, 0x5EED);
}

#[test]
#[ignore = "long run: OWARE_FUZZ_CASES sessions"]
fn many_random_sessions_never_break_the_engine() {
    let sessions = std::env::var("OWARE_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    let base = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    eprintln!("base seed {base}");
    fuzz(sessions, base);
}
