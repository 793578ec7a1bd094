//! The engine protocol, spoken to the binary through a pipe.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Sends `script` (one command a line, `sleep N` pauses N ms) and returns
/// everything the engine printed.
fn session(script: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["uci", "--db", "/nonexistent"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in script {
        if let Some(ms) = line.strip_prefix("sleep ") {
            std::thread::sleep(Duration::from_millis(ms.parse().unwrap()));
        } else {
            writeln!(stdin, "{line}").unwrap();
            stdin.flush().unwrap();
        }
    }
    drop(stdin);
    let out = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| l.unwrap())
        .collect();
    assert!(child.wait().unwrap().success());
    out
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
    let out = session(&["position startpos moves FfBe", "go depth 6"]);
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
        "position fen 0-0-0-0-0-0-1-2-0-0-0-0-20-20-S",
        "go depth 3",
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
