//! The UCI engine's set-up: the tables it opens and says it uses, a hash
//! too big for the machine, threads the system will not start.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Runs `command` (through `sh -c`), sends `script` one line at a time,
/// waiting after each `go` for its `bestmove`, then `isready`; returns
/// every line printed up to the `readyok`, then sends `quit` and checks
/// the engine exits 0.
fn talk(command: &str, script: &[&str]) -> Vec<String> {
    try_talk(command, script).unwrap_or_else(|seen| panic!("the engine ended early: {seen:?}"))
}

/// [`talk`], or what the engine printed if it ended before answering
/// (never by a panic).
fn try_talk(command: &str, script: &[&str]) -> Result<Vec<String>, Vec<String>> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    // A hung engine is killed (its whole process group, the shell's child
    // too) so that the test fails instead of waiting for ever.
    let finished = Arc::new(AtomicBool::new(false));
    let killed = Arc::new(AtomicBool::new(false));
    {
        let (finished, killed, group) = (finished.clone(), killed.clone(), child.id());
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(120);
            while Instant::now() < deadline {
                if finished.load(Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            killed.store(true, Ordering::SeqCst);
            let group = libc::pid_t::try_from(group).unwrap();
            // SAFETY: kill has no memory effects; a negative pid names the
            // child's process group, made for it alone.
            unsafe { libc::kill(-group, libc::SIGKILL) };
        });
    }
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    let mut read_until = |seen: &mut Vec<String>, prefix: &str| loop {
        let Some(Ok(line)) = out.next() else {
            return false;
        };
        let done = line.starts_with(prefix);
        seen.push(line);
        if done {
            return true;
        }
    };
    let mut answered = true;
    for line in script.iter().chain(&["isready"]) {
        if writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .is_err()
        {
            answered = false;
            break;
        }
        answered &= if line.starts_with("go") {
            read_until(&mut seen, "bestmove")
        } else if *line == "uci" {
            read_until(&mut seen, "uciok")
        } else {
            true
        };
    }
    answered = answered && read_until(&mut seen, "readyok");
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let done = child.wait_with_output().unwrap();
    finished.store(true, Ordering::SeqCst);
    assert!(!killed.load(Ordering::SeqCst), "hung: {command}: {seen:?}");
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(!err.contains("panicked"), "{err}");
    if !answered {
        return Err(seen);
    }
    assert!(done.status.success(), "{err}");
    Ok(seen)
}

fn oware(args: &str) -> String {
    format!("exec {} {args}", env!("CARGO_BIN_EXE_oware"))
}

#[test]
fn the_tables_in_use_are_said_before_uciok() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    common::stdout(&["build", "--max-seeds", "6", "--dir", dir, "--quiet"]);
    let out = talk(&oware(&format!("uci --db {dir}")), &["uci"]);
    let said = out
        .iter()
        .position(|l| l.starts_with("info string tables: levels 0..6 of abapa"))
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(out[0].starts_with("id name"), "{out:?}");
    assert!(said < out.iter().position(|l| l == "uciok").unwrap());

    // A damaged level is left closed and named; the levels below it stay.
    let level5 = tmp.path().join("abapa-05.owt");
    let mut bytes = std::fs::read(&level5).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&level5, bytes).unwrap();
    let out = talk(&oware(&format!("uci --db {dir}")), &["uci"]);
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string table left closed") && l.contains("abapa-05.owt")),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string tables: levels 0..4, 6..6")
                || l.starts_with("info string tables: levels 0..4, 6")),
        "{out:?}"
    );

    // A folder asked for and missing is said, not ignored.
    let out = talk(
        &oware("uci"),
        &["uci", "setoption name TablePath value /no/such/folder"],
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string tables not used") && l.contains("/no/such/folder")),
        "{out:?}"
    );
}

#[test]
fn a_hash_larger_than_the_memory_is_refused_and_the_old_one_kept() {
    let out = talk(
        &oware("uci --db /no/such/folder"),
        &[
            "setoption name Hash value 65536",
            "position startpos",
            "go depth 3",
        ],
    );
    assert!(
        out.iter()
            .any(|l| l.contains("more than the memory available") && l.contains("Hash stays 64")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.starts_with("bestmove ")), "{out:?}");
}

#[test]
fn threads_that_cannot_start_are_said_and_the_engine_carries_on() {
    // Root ignores the process limit: the address space is limited
    // instead, so that 64 thread stacks do not fit. Some limit in the range
    // lets the engine start but not all the threads.
    let mut carried_on = 0;
    for kib in (40_000..=300_000).step_by(20_000) {
        let Ok(out) = try_talk(
            &format!("ulimit -v {kib}; {}", oware("uci --db /no/such/folder")),
            &[
                "setoption name Hash value 1",
                "setoption name Threads value 64",
                "position startpos",
                "go depth 4",
            ],
        ) else {
            continue;
        };
        if let Some(line) = out
            .iter()
            .find(|l| l.contains("cannot start 64 search threads"))
        {
            assert!(line.starts_with("info string"), "{line}");
            assert!(line.contains("using "), "{line}");
            assert!(out.iter().any(|l| l.starts_with("bestmove ")), "{out:?}");
            carried_on += 1;
        }
    }
    assert!(carried_on > 0, "no limit refused the threads");
}

#[test]
fn own_book_plays_the_book_and_a_bad_book_is_said() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("b.owb");
    let grown = std::process::Command::new(env!("CARGO_BIN_EXE_oware"))
        .args([
            "book",
            "build",
            "--out",
            path.to_str().unwrap(),
            "--positions",
            "10",
            "--depth",
            "3",
            "--hash",
            "4",
        ])
        .output()
        .unwrap();
    assert!(grown.status.success());
    let book = oware::book::file::load(&path, oware::Variant::Abapa).unwrap();
    let letters: Vec<String> = book
        .moves(&oware::Position::START)
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    let out = talk(
        &oware("uci --db /no/such/folder"),
        &[
            &format!("setoption name BookFile value {}", path.display()),
            "setoption name OwnBook value true",
            "position startpos",
            "go movetime 100",
        ],
    );
    assert!(
        out.iter().any(|l| l.starts_with("info string book move")),
        "{out:?}"
    );
    let best = out
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    assert!(
        letters.iter().any(|m| m == best),
        "{best} not in {letters:?}"
    );
    let out = talk(
        &oware("uci --db /no/such/folder"),
        &[
            "setoption name BookFile value /no/such/book.owb",
            "setoption name OwnBook value true",
        ],
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string book not used")),
        "{out:?}"
    );
}

#[test]
fn the_book_next_to_the_tables_is_on_by_default_and_can_be_turned_off() {
    let tmp = tempfile::tempdir().unwrap();
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("databases/book.owb");
    std::fs::copy(shipped, tmp.path().join("book.owb")).unwrap();
    let dir = tmp.path().to_str().unwrap();
    let book_move = |out: &[String]| out.iter().any(|l| l.starts_with("info string book move"));
    let script = ["uci", "position startpos", "go movetime 200"];
    // Found: OwnBook defaults to true, the book is named, and played.
    let out = talk(&oware(&format!("uci --db {dir}")), &script);
    assert!(
        out.contains(&"option name OwnBook type check default true".to_string()),
        "{out:?}"
    );
    let named = format!("info string book: 15001 positions from {dir}/book.owb");
    let said = out
        .iter()
        .position(|l| *l == named)
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(said < out.iter().position(|l| l == "uciok").unwrap());
    assert!(book_move(&out), "{out:?}");
    // OwnBook false: a search.
    let out = talk(
        &oware(&format!("uci --db {dir}")),
        &[
            "uci",
            "setoption name OwnBook value false",
            "position startpos",
            "go depth 3",
        ],
    );
    assert!(!book_move(&out), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("info depth 3")), "{out:?}");
    // --no-book: OwnBook starts off.
    let out = talk(&oware(&format!("uci --db {dir} --no-book")), &script);
    assert!(
        out.contains(&"option name OwnBook type check default false".to_string()),
        "{out:?}"
    );
    assert!(!book_move(&out), "{out:?}");
    // No book there: no error, OwnBook off, a search as before.
    let empty = tempfile::tempdir().unwrap();
    let empty = empty.path().to_str().unwrap();
    let out = talk(
        &oware(&format!("uci --db {empty}")),
        &["uci", "position startpos", "go depth 3"],
    );
    assert!(
        out.contains(&"option name OwnBook type check default false".to_string()),
        "{out:?}"
    );
    assert!(
        out.contains(&format!(
            "info string book: none ({empty}/book.owb not found)"
        )),
        "{out:?}"
    );
    assert!(!book_move(&out), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("info depth 3")), "{out:?}");
}
