//! Writing to standard output the way Unix tools do: a reader that goes
//! away (`oware bench | head -1`) ends the command quietly.

use std::fmt::Display;
use std::io::{ErrorKind, Write};

/// The exit status of a command whose output pipe was closed: what a shell
/// reports for a tool ended by `SIGPIPE` (128 + 13).
pub const CLOSED_PIPE_STATUS: i32 = 141;

/// Prints `text` and a newline on standard output.
///
/// A closed pipe ends the process at once with [`CLOSED_PIPE_STATUS`] and
/// nothing on standard error. Commands print only between units of work
/// (a level written, an iteration finished), so nothing is left half-done:
/// a table level is either renamed into place already or not started.
/// Any other write error (a full disk behind a redirection) ends the
/// process with a one-line error and status 2.
pub fn line(text: impl Display) {
    let mut out = std::io::stdout().lock();
    let result = writeln!(out, "{text}").and_then(|()| out.flush());
    if let Err(e) = result {
        fail(&e);
    }
}

/// Prints `text` as is (no newline added) on standard output, as [`line`].
pub fn text(text: impl Display) {
    let mut out = std::io::stdout().lock();
    let result = write!(out, "{text}").and_then(|()| out.flush());
    if let Err(e) = result {
        fail(&e);
    }
}

/// One line on standard error; a closed standard error is ignored.
pub fn note(text: impl Display) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

fn fail(e: &std::io::Error) -> ! {
    if e.kind() == ErrorKind::BrokenPipe {
        std::process::exit(CLOSED_PIPE_STATUS);
    }
    note(format_args!("error: cannot write the output: {e}"));
    std::process::exit(2);
}
