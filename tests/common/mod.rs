//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod mancala;

use std::path::PathBuf;
use std::process::{Command, Output};

/// Waits for `child` to end; kills it and fails the test (naming `what`)
/// once it has run `limit`: a hang fails instead of stalling the run.
pub fn wait_within(
    child: &mut std::process::Child,
    limit: std::time::Duration,
    what: &str,
) -> std::process::ExitStatus {
    let deadline = std::time::Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("wait for the child") {
            return status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} ran longer than {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Runs the `oware` binary.
pub fn oware(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(args)
        .output()
        .expect("run oware")
}

/// Runs `oware`, which must succeed, and returns what it printed.
pub fn stdout(args: &[&str]) -> String {
    let out = oware(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs `oware`, which must fail with exit code 2 and a one-line error
/// containing `needle`, without a panic.
pub fn fails(args: &[&str], needle: &str) {
    let out = oware(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "not one line: {err}");
}

/// Builds the tables of levels 0..=`max` into `dir` (`oware build
/// --quiet`), which must succeed; returns what it printed.
pub fn build(dir: &std::path::Path, max: &str) -> String {
    stdout(&[
        "build",
        "--max-seeds",
        max,
        "--dir",
        dir.to_str().unwrap(),
        "--quiet",
    ])
}

/// Reads `tests/data/NAME` and yields its non-comment lines split on `|`,
/// trimmed, with the 1-based line number.
pub fn table(name: &str) -> Vec<(usize, Vec<String>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| (i + 1, l.split('|').map(|f| f.trim().to_string()).collect()))
        .collect()
}

/// A small deterministic pseudo-random generator (xorshift64*), so tests
/// need no extra crate and replay identically.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Runs `oware uci ARGS`, sends `script` a line at a time (`wait` waits
/// up to a minute for a `bestmove` line before going on), closes the input
/// and returns every line printed; the engine must exit with success.
pub fn uci_session(args: &[&str], script: &[&str]) -> Vec<String> {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .arg("uci")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run oware uci");
    let stdout = child.stdout.take().unwrap();
    let (sender, lines) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    let mut seen = Vec::new();
    for line in script {
        if *line == "wait" {
            loop {
                let line = lines
                    .recv_timeout(std::time::Duration::from_secs(60))
                    .unwrap_or_else(|_| panic!("no bestmove: {seen:?}"));
                seen.push(line.clone());
                if line.starts_with("bestmove") {
                    break;
                }
            }
        } else {
            writeln!(stdin, "{line}").unwrap();
        }
    }
    drop(stdin);
    assert!(child.wait().unwrap().success(), "{seen:?}");
    reader.join().unwrap();
    seen.extend(lines.try_iter());
    seen
}
