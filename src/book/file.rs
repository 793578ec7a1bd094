//! The book file: the 8-byte magic, a little-endian `u32` length and a
//! header (serde + bincode: format version, rules, depth, positions, CRC-32
//! of the body), then the body (the positions, bincode). Written to a
//! temporary file and renamed; read in full and checked before use.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Book;
use crate::Variant;

/// The first eight bytes of a book file.
pub const MAGIC: [u8; 8] = *b"OWAREBK\x01";
/// The format version this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// The largest book read (positions are about 40 bytes each).
const MAX_BYTES: u64 = 256 << 20;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Header {
    version: u32,
    variant: Variant,
    depth: u32,
    positions: u64,
    checksum: u32,
    tool_version: String,
}

/// What is wrong with a book file.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// Reading or writing failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: io::Error,
    },
    /// Not a book, or a damaged one.
    #[error("{}: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A valid book of other rules.
    #[error("{}: a book for rules {found}, not {wanted}", path.display())]
    Rules {
        /// The file.
        path: PathBuf,
        /// The book's rules.
        found: Variant,
        /// The rules asked for.
        wanted: Variant,
    },
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard()
}

/// Writes `book` to `path` (a temporary file, synced, then renamed).
pub fn save(book: &Book, path: &Path) -> Result<(), BookError> {
    let io_err = |error| BookError::Io {
        path: path.to_path_buf(),
        error,
    };
    let body = bincode::serde::encode_to_vec(&book.nodes, config())
        .map_err(|e| io_err(io::Error::other(e)))?;
    let header = Header {
        version: FORMAT_VERSION,
        variant: book.variant,
        depth: book.depth,
        positions: book.nodes.len() as u64,
        checksum: crc32fast::hash(&body),
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
    };
    let head = bincode::serde::encode_to_vec(&header, config())
        .map_err(|e| io_err(io::Error::other(e)))?;
    let mut bytes = Vec::with_capacity(12 + head.len() + body.len());
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&(head.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&head);
    bytes.extend_from_slice(&body);
    let tmp = path.with_extension("owb.tmp");
    let result = (|| -> io::Result<()> {
        fs::write(&tmp, &bytes)?;
        fs::File::open(&tmp)?.sync_all()?;
        fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io_err(e)
    })
}

/// Reads and checks the book at `path`, for `variant`.
pub fn load(path: &Path, variant: Variant) -> Result<Book, BookError> {
    let bad = |reason: String| BookError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let io_err = |error| BookError::Io {
        path: path.to_path_buf(),
        error,
    };
    let size = fs::metadata(path).map_err(io_err)?.len();
    if size > MAX_BYTES {
        return Err(bad(format!("{size} bytes: too large for a book")));
    }
    let bytes = fs::read(path).map_err(io_err)?;
    let (header, header_end): (Header, usize) =
        crate::tb::file::read_framed_header(&bytes, &MAGIC, "book").map_err(bad)?;
    if header.version != FORMAT_VERSION {
        return Err(bad(format!(
            "format version {} (this build reads {FORMAT_VERSION})",
            header.version
        )));
    }
    if header.variant != variant {
        return Err(BookError::Rules {
            path: path.to_path_buf(),
            found: header.variant,
            wanted: variant,
        });
    }
    let body = &bytes[header_end..];
    let actual = crc32fast::hash(body);
    if actual != header.checksum {
        return Err(bad(format!(
            "checksum mismatch (header {:08x}, body {actual:08x}); build it again with `oware book build`",
            header.checksum
        )));
    }
    let (nodes, used): (std::collections::BTreeMap<super::Key, super::Node>, usize) =
        bincode::serde::decode_from_slice(
            body,
            bincode::config::standard().with_limit::<{ MAX_BYTES as usize }>(),
        )
        .map_err(|e| bad(format!("unreadable positions: {e}")))?;
    if used != body.len() || nodes.len() as u64 != header.positions {
        return Err(bad("the positions do not match the header".into()));
    }
    if let Some(k) = nodes.keys().find(|k| super::position(k).is_none()) {
        return Err(bad(format!("an invalid position {k:?}")));
    }
    Ok(Book {
        variant,
        depth: header.depth,
        nodes,
    })
}
