//! The engine protocol, spoken to the binary through a pipe.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Sends `script` (one command a line, `sleep N` pauses N ms, `wait`
/// waits for a `bestmove`: the end of the input stops a search), closes the
/// input and returns everything the engine printed.
fn session(script: &[&str]) -> Vec<String> {
    let mut e = Live::start();
    for line in script {
        if let Some(ms) = line.strip_prefix("sleep ") {
            std::thread::sleep(Duration::from_millis(ms.parse().unwrap()));
        } else if *line == "wait" {
            e.wait_for("bestmove", 60 * SECOND)
                .unwrap_or_else(|| panic!("no bestmove: {:?}", e.seen));
        } else {
            e.send(line);
        }
    }
    e.stdin = None;
    let status = e.exit_within(30 * SECOND).expect("exits");
    assert!(status.success());
    // The rest of the output, up to its end.
    while let Ok(line) = e.lines.recv_timeout(5 * SECOND) {
        e.seen.push(line);
    }
    std::mem::take(&mut e.seen)
}

/// The letter of the last line, `bestmove X…`.
fn best_letter(out: &[String]) -> char {
    let last = out.last().expect("some output");
    let mv = last.strip_prefix("bestmove ").expect("ends with bestmove");
    mv.chars().next().expect("a move")
}

#[test]
fn handshake() {
    let out = session(&["uci", "isready", "quit"]);
    assert!(out[0].starts_with("id name oware"), "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("option name Hash type spin"))
    );
    let ok = out.iter().position(|l| l == "uciok").unwrap();
    assert_eq!(out[ok + 1], "readyok");
}

#[test]
fn go_depth_prints_info_and_a_legal_bestmove() {
    let out = session(&["position startpos moves FfBe", "go depth 6", "wait"]);
    let infos: Vec<_> = out.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 6, "{out:?}");
    for needle in [" score cp ", " nodes ", " nps ", " time ", " pv "] {
        assert!(infos[5].contains(needle), "{}", infos[5]);
    }
    let mv = best_letter(&out);
    assert!(('A'..='F').contains(&mv), "South to move: {out:?}");
}

#[test]
fn stop_answers_an_infinite_search() {
    let out = session(&[
        "position startpos",
        "go infinite",
        "sleep 300",
        "stop",
        "isready",
        "quit",
    ]);
    let best = out
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .expect("bestmove");
    assert!(out[best + 1..].contains(&"readyok".to_string()), "{out:?}");
}

#[test]
fn clock_moves_are_quick() {
    let started = std::time::Instant::now();
    let out = session(&[
        "position startpos moves F",
        "go wtime 1000 btime 1000 winc 0 binc 0",
        "wait",
    ]);
    let mv = best_letter(&out);
    assert!(('a'..='f').contains(&mv), "North to move: {out:?}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn garbage_is_reported_and_ignored() {
    let out = session(&[
        "xyzzy",
        "position fen 1-2-3",
        "position startpos moves FF",
        "setoption name Hash value lots",
        "setoption name Threads value 2",
        "go depth 3",
        "wait",
        "position fen 0-0-0-0-0-0-1-2-0-0-0-0-20-20-S",
        "go depth 3",
        "wait",
    ]);
    let strings: Vec<_> = out
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert!(strings.len() >= 5, "{out:?}");
    let bests: Vec<_> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bests.len(), 2, "{out:?}");
    assert_eq!(bests[1], "bestmove 0000");
}

/// The engine as a process spoken to line by line, its output read by a
/// thread so that a test can wait for a line with a timeout.
struct Live {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Live {
    fn start() -> Live {
        let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
            .args(["uci", "--db", "/nonexistent"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Live {
            stdin: child.stdin.take(),
            child,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Waits up to `timeout` for a line starting with `prefix`; every line
    /// read is kept in `seen`.
    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Option<String> {
        let end = std::time::Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.starts_with(prefix) {
                        return Some(line);
                    }
                }
                Err(_) => return None,
            }
        }
    }

    /// The lines printed so far (waiting `settle` for more).
    fn drain(&mut self, settle: Duration) -> &[String] {
        std::thread::sleep(settle);
        self.seen.extend(self.lines.try_iter());
        &self.seen
    }

    /// Waits up to `timeout` for the process to exit.
    fn exit_within(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let end = std::time::Instant::now() + timeout;
        while std::time::Instant::now() < end {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn a_line_that_is_not_utf8_is_reported_and_the_loop_goes_on() {
    let mut e = Live::start();
    e.send_bytes(b"isready\n\xff\xfe\nisready\r\n");
    assert!(e.wait_for("readyok", 5 * SECOND).is_some());
    assert!(e.wait_for("readyok", 5 * SECOND).is_some(), "{:?}", e.seen);
    assert!(
        e.seen
            .iter()
            .any(|l| l == "info string ignored a line that is not UTF-8")
    );
    // A line of 3 MiB is dropped, the next one answered.
    let mut long = vec![b'x'; 3 << 20];
    long.extend_from_slice(b"\nisready\nquit\n");
    e.send_bytes(&long);
    assert!(e.wait_for("readyok", 10 * SECOND).is_some(), "{:?}", e.seen);
    assert!(
        e.seen.iter().any(|l| l.contains("longer than")),
        "{:?}",
        e.seen
    );
    assert!(e.exit_within(5 * SECOND).expect("exits").success());
}

#[test]
fn a_negative_or_empty_clock_answers_at_once() {
    let mut e = Live::start();
    e.send("position startpos");
    e.send("go wtime -50 btime -50");
    assert!(e.wait_for("bestmove", 2 * SECOND).is_some(), "{:?}", e.seen);
    assert!(
        e.seen.iter().any(|l| l.contains("wtime -50")),
        "{:?}",
        e.seen
    );
    e.send("isready");
    e.wait_for("readyok", 5 * SECOND).expect("readyok");
    let asked = std::time::Instant::now();
    e.send("go wtime 0 btime 0");
    assert!(e.wait_for("bestmove", 2 * SECOND).is_some());
    let took = asked.elapsed();
    assert!(took < Duration::from_millis(150), "{took:?}");
}

#[test]
fn a_limit_followed_by_garbage_does_not_search_forever() {
    for go in [
        "go depth x",
        "go movetime",
        "go wtime ten btime ten",
        "go xyzzy",
    ] {
        let mut e = Live::start();
        e.send("position startpos");
        e.send(go);
        assert!(
            e.wait_for("bestmove", 5 * SECOND).is_some(),
            "{go}: {:?}",
            e.seen
        );
        assert!(
            e.seen.iter().any(|l| l.starts_with("info string")),
            "{go}: {:?}",
            e.seen
        );
    }
    // Out-of-range numbers are reported and clamped.
    let mut e = Live::start();
    e.send("position startpos");
    e.send("go depth 99999999999999999999 movetime 300");
    assert!(e.wait_for("bestmove", 5 * SECOND).is_some(), "{:?}", e.seen);
    assert!(
        e.seen.iter().any(|l| l.contains("out of range")),
        "{:?}",
        e.seen
    );
}

#[test]
fn ponderhit_turns_pondering_into_a_timed_search() {
    let mut e = Live::start();
    e.send("position startpos moves F");
    e.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
    assert_eq!(e.wait_for("bestmove", Duration::from_millis(300)), None);
    let hit = std::time::Instant::now();
    e.send("ponderhit");
    let best = e
        .wait_for("bestmove", 3 * SECOND)
        .expect("bestmove after ponderhit");
    assert!(
        hit.elapsed() < Duration::from_millis(1500),
        "{:?}",
        hit.elapsed()
    );
    let mv = best
        .strip_prefix("bestmove ")
        .unwrap()
        .chars()
        .next()
        .unwrap();
    assert!(('a'..='f').contains(&mv), "North to move: {best}");
}

#[test]
fn an_infinite_search_holds_a_proven_bestmove_until_stop() {
    let mut e = Live::start();
    e.send("position fen 1-0-0-0-0-1-0-0-0-0-1-2-21-19-S");
    e.send("go infinite");
    assert_eq!(e.wait_for("bestmove", 2 * SECOND), None, "{:?}", e.seen);
    assert!(
        e.seen.iter().any(|l| l.contains(" mate ")),
        "proven: {:?}",
        e.seen
    );
    e.send("stop");
    assert!(e.wait_for("bestmove", 2 * SECOND).is_some());
    // Pondering holds it too, until ponderhit.
    e.send("go ponder");
    assert_eq!(e.wait_for("bestmove", SECOND), None, "{:?}", e.seen);
    e.send("ponderhit");
    assert!(e.wait_for("bestmove", 2 * SECOND).is_some());
}

#[test]
fn the_end_of_input_stops_the_search_and_exits() {
    let mut e = Live::start();
    e.send("position startpos");
    e.send("go depth 40");
    std::thread::sleep(Duration::from_millis(200));
    e.stdin = None;
    let status = e.exit_within(2 * SECOND).expect("exits within 2 s");
    assert!(status.success());
    let seen = e.drain(Duration::from_millis(50));
    assert!(seen.iter().any(|l| l.starts_with("bestmove")), "{seen:?}");
}

#[test]
fn a_closed_output_ends_the_session_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["uci", "--db", "/nonexistent"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "position startpos\ngo infinite").unwrap();
    stdin.flush().unwrap();
    let end = std::time::Instant::now() + 3 * SECOND;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if std::time::Instant::now() > end {
            let _ = child.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    drop(stdin);
    let status = status.expect("exits once the output is closed");
    assert!(status.success(), "{status:?}");
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.is_empty(), "{err}");
}

/// The `score` fields of an `info` line: (cp, mate, bound).
fn score_of(line: &str) -> (i32, Option<i32>, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = |key: &str| words.iter().position(|w| *w == key);
    let cp = words[at("cp").expect("cp") + 1].parse().unwrap();
    let mate = at("mate").map(|i| words[i + 1].parse().unwrap());
    let bound = words
        .iter()
        .find(|w| **w == "lowerbound" || **w == "upperbound")
        .map(|w| w.to_string());
    (cp, mate, bound)
}

#[test]
fn proven_scores_give_the_final_margin_and_the_plies() {
    let fen = "1-0-0-0-0-1-0-0-0-0-1-2-21-19-S";
    let out = session(&[&format!("position fen {fen}"), "go depth 20", "wait"]);
    let last = out
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let (cp, mate, bound) = score_of(last);
    let mate = mate.unwrap_or_else(|| panic!("a proven result: {last}"));
    // Replay the principal variation: where the game ends, the margin and
    // the plies must be those printed.
    let pv = last.split(" pv ").nth(1).unwrap_or("").trim();
    let moves = oware::parse_moves(pv).unwrap();
    let mut game = oware::Game::new(fen.parse().unwrap(), oware::Rules::default());
    let mut plies = 0;
    for mv in moves {
        if game.outcome().is_some() {
            break;
        }
        game.play(mv).unwrap();
        plies += 1;
    }
    if game.outcome().is_some() {
        let p = game.position();
        let margin =
            i32::from(p.store(oware::Side::South)) - i32::from(p.store(oware::Side::North));
        assert_eq!(cp, margin * 100, "{last}");
        assert_eq!(mate.abs(), plies, "{last}");
        assert_eq!(bound, None, "{last}");
    } else {
        assert_eq!(cp.abs(), 200, "{last}");
        assert!(bound.is_some(), "{last}");
    }
    assert_eq!(cp.signum(), mate.signum(), "{last}");
    // Heuristic scores stay plain centiseeds.
    let out = session(&["position startpos", "go depth 4", "wait"]);
    let (_, mate, bound) = score_of(out.iter().rfind(|l| l.starts_with("info depth")).unwrap());
    assert_eq!((mate, bound), (None, None), "{out:?}");
}

#[test]
fn go_depth_zero_searches_one_ply_and_says_so() {
    let out = session(&["position startpos", "go depth 0", "wait"]);
    assert!(
        out.iter()
            .any(|l| l == "info string depth 0 is out of range: using 1"),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.starts_with("info depth 1 ")),
        "{out:?}"
    );
    assert!(
        !out.iter().any(|l| l.starts_with("info depth 2 ")),
        "{out:?}"
    );
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
}
