//! Reading protocol lines as bytes, with a cap on their length.

use std::io::{self, BufRead};

/// The longest line kept (1 MiB); the rest of a longer line is discarded.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input, without its `\n` or `\r\n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The first [`MAX_LINE`] bytes (or fewer) of the line.
    pub bytes: Vec<u8>,
    /// How many bytes past the cap were discarded.
    pub discarded: usize,
}

/// Reads one line of at most `cap` bytes from `input` (a longer line's
/// remainder is read and thrown away); `None` at the end of input. A last
/// line without a `\n` counts as a line.
pub fn read_line<R: BufRead + ?Sized>(input: &mut R, cap: usize) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut discarded = 0;
    let mut seen_any = false;
    let mut last = None;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if let Some(&b) = part.last() {
            last = Some(b);
        }
        let room = cap.saturating_sub(bytes.len());
        let keep = part.len().min(room);
        bytes.extend_from_slice(&part[..keep]);
        discarded += part.len() - keep;
        input.consume(used);
        if done {
            break;
        }
    }
    // `\r\n` endings: the `\r` is no part of the line (nor of what the cap
    // discarded).
    if last == Some(b'\r') {
        if discarded > 0 {
            discarded -= 1;
        } else {
            bytes.pop();
        }
    }
    Ok(Some(Line { bytes, discarded }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], cap: usize) -> Vec<Line> {
        // A one-byte buffer makes every line span many chunks.
        let mut reader = io::BufReader::with_capacity(1, input);
        let mut out = Vec::new();
        while let Some(line) = read_line(&mut reader, cap).unwrap() {
            out.push(line);
        }
        out
    }

    fn line(bytes: &[u8], discarded: usize) -> Line {
        Line {
            bytes: bytes.to_vec(),
            discarded,
        }
    }

    #[test]
    fn lines_lose_their_endings_and_keep_bad_bytes() {
        let lines = all(b"isready\r\n\xff\xfe\n\nquit", 100);
        assert_eq!(
            lines,
            [
                line(b"isready", 0),
                line(b"\xff\xfe", 0),
                line(b"", 0),
                line(b"quit", 0)
            ]
        );
    }

    #[test]
    fn long_lines_are_cut_and_the_next_line_survives() {
        let mut input = vec![b'x'; 25];
        input.extend_from_slice(b"\nisready\n");
        let lines = all(&input, 10);
        assert_eq!(lines, [line(&[b'x'; 10], 15), line(b"isready", 0)]);
        // A `\r\n` ending of an over-long line is no part of it.
        let lines = all(b"abcdef\r\n", 4);
        assert_eq!(lines, [line(b"abcd", 2)]);
    }
}
