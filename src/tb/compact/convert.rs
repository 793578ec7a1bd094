//! Writing a level in the compact format, checked before it takes the
//! level's name: from a solved payload (`oware build`) or from a raw file
//! (`oware compress`).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;

use super::{COMPACT_V4, COMPACT_VERSION, Coding, Lattice, codes_by_neighbours, compress};
use crate::tb::file::{Header, TableError, TableFile, write_compact};
use crate::tb::rules::TableRules;

/// What compressing one level gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Compaction {
    /// The level.
    pub level: usize,
    /// Boards in the level.
    pub boards: u64,
    /// Bytes of the raw payload.
    pub raw_bytes: u64,
    /// Bytes of the compact file, header included.
    pub compact_bytes: u64,
    /// The order-0 entropy of the level's entries, bits a board.
    pub entropy: f64,
    /// Seconds spent compressing, writing and checking.
    pub seconds: f64,
    /// False when the level was compact already.
    pub converted: bool,
}

impl Compaction {
    /// Bits a board the compact file takes, everything included.
    pub fn bits_per_board(&self) -> f64 {
        8.0 * self.compact_bytes as f64 / self.boards.max(1) as f64
    }

    /// One line for people.
    pub fn describe(&self) -> String {
        let what = if self.converted {
            format!("compressed in {:.2} s", self.seconds)
        } else {
            "already compact".to_string()
        };
        format!(
            "level {:>2}: {:>13} boards  {:>14} → {:>13} bytes  {:.2} bits a board (order-0 {:.2})  {what}",
            self.level,
            self.boards,
            self.raw_bytes,
            self.compact_bytes,
            self.bits_per_board(),
            self.entropy
        )
    }
}

/// The name a compact level is written under before it is checked.
fn staging_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".compact");
    path.with_file_name(name)
}

/// Compresses the raw payload `raw` of the level `header` describes and
/// writes it to `path`: first under a staging name, then opened, decoded
/// and compared with `raw` board by board, and only then renamed to
/// `path` (replacing a raw file there). Nothing is left under the staging
/// name on failure. A level of Oware from level `neighbours_from` up is
/// coded by neighbours too (format version 5; see
/// [`super::NEIGHBOURS_FROM`]).
pub fn write_compact_level(
    path: &Path,
    header: &Header,
    raw: &[u8],
    coding: Coding,
    neighbours_from: usize,
) -> Result<Compaction, TableError> {
    let started = Instant::now();
    let encoding = header.encoding;
    let width = encoding.bytes_per_board();
    let compressed = compress(
        header.boards,
        coding,
        &|r| encoding.entry(raw, r),
        lattice_for(header.rules, usize::from(header.level), neighbours_from),
    );
    let staging = staging_path(path);
    let result = (|| {
        write_compact(&staging, header, &compressed)?;
        drop(compressed);
        let level = usize::from(header.level);
        let written = TableFile::open(&staging, header.rules, level, true)?;
        if let Some(rank) = first_difference(&written, raw, width) {
            return Err(TableError::Corrupt {
                path: staging.clone(),
                reason: format!(
                    "the compact level decodes rank {rank} wrongly (a bug: nothing replaced)"
                ),
            });
        }
        let compact_bytes = written.file_bytes();
        drop(written);
        fs::rename(&staging, path).map_err(|error| TableError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        if let Some(dir) = path.parent()
            && let Ok(d) = fs::File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(compact_bytes)
    })();
    let compact_bytes = result.inspect_err(|_| {
        let _ = fs::remove_file(&staging);
    })?;
    Ok(Compaction {
        level: usize::from(header.level),
        boards: header.boards,
        raw_bytes: raw.len() as u64,
        compact_bytes,
        entropy: entropy(raw, width),
        seconds: started.elapsed().as_secs_f64(),
        converted: true,
    })
}

/// The first rank whose entry in `table` differs from the raw payload's,
/// compared in parallel spans.
pub fn first_difference(table: &TableFile, raw: &[u8], width: usize) -> Option<u64> {
    if table.header().boards * width as u64 != raw.len() as u64 {
        return Some(0);
    }
    let Some(compact) = table.compact() else {
        return (table.payload() != raw).then_some(0);
    };
    let payload = table.payload();
    let starts = compact.chunk_starts(payload);
    (0..starts.len() - 1)
        .into_par_iter()
        .filter_map(|i| {
            let (start, end) = (starts[i] as usize, starts[i + 1] as usize);
            let mut decoded = vec![0u8; (end - start) * width];
            compact.decode_chunk(payload, i, width, &mut decoded);
            let expected = &raw[start * width..end * width];
            (decoded != expected).then(|| {
                let at = decoded
                    .iter()
                    .zip(expected)
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                (start + at / width) as u64
            })
        })
        .min()
}

/// Adds the entries of `bytes` (`width` bytes each) to the histogram `h`.
fn count_entries(mut h: Vec<u64>, bytes: &[u8], width: usize) -> Vec<u64> {
    for e in bytes.chunks_exact(width) {
        let key = if width == 2 {
            usize::from(e[0]) << 8 | usize::from(e[1])
        } else {
            usize::from(e[0])
        };
        h[key] += 1;
    }
    h
}

fn add_counts(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
    a
}

/// The order-0 entropy of a raw payload's entries, bits a board.
pub fn entropy(raw: &[u8], width: usize) -> f64 {
    let counts = raw
        .par_chunks(width * (1 << 16))
        .fold(
            || vec![0u64; 1 << 16],
            |h, chunk| count_entries(h, chunk, width),
        )
        .reduce(|| vec![0u64; 1 << 16], add_counts);
    entropy_of(&counts)
}

/// The order-0 entropy of a level's entries, read chunk by chunk (a
/// compact level is never decoded whole).
fn table_entropy(table: &TableFile) -> f64 {
    let width = table.header().encoding.bytes_per_board();
    let counts = table.fold_entries(
        || vec![0u64; 1 << 16],
        |h, bytes| count_entries(h, bytes, width),
        add_counts,
    );
    entropy_of(&counts)
}

/// The entropy of a histogram, bits a count.
fn entropy_of(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return 0.0;
    }
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / total as f64;
            -p * p.log2()
        })
        .sum()
}

/// The grid a level is coded along when it is `neighbours_from` or above
/// (and its rules use Oware's index).
fn lattice_for(rules: TableRules, level: usize, neighbours_from: usize) -> Option<Lattice> {
    Lattice::of(rules, level).filter(|_| level >= neighbours_from)
}

/// The format version a level of `symbols` distinct entries is written
/// in: version 5 where its codes are chosen by neighbours too, else
/// version 4.
pub fn written_version(
    rules: TableRules,
    level: usize,
    symbols: usize,
    neighbours_from: usize,
) -> u32 {
    let boards = rules.level_size(level);
    if lattice_for(rules, level, neighbours_from).is_some() && codes_by_neighbours(boards, symbols)
    {
        COMPACT_VERSION
    } else {
        COMPACT_V4
    }
}

/// Converts the level file at `path` (of `rules`, `level`) to the compact
/// format in place: a raw file is checked against its checksum,
/// compressed, and replaced once the compact one decodes to the same
/// entries; a compact file of a version before 4, of the other of versions
/// 4 and 5 than [`written_version`] asks for, or of another block size
/// than `coding`'s, is decoded and coded again the same way; any other
/// compact file is left as it is.
pub fn compress_file(
    path: &Path,
    rules: TableRules,
    level: usize,
    coding: Coding,
    neighbours_from: usize,
) -> Result<Compaction, TableError> {
    let table = TableFile::open(path, rules, level, true)?;
    let header = table.header().clone();
    let width = header.encoding.bytes_per_board();
    match table.raw_payload() {
        Some(raw) => write_compact_level(path, &header, raw, coding, neighbours_from),
        // A compact file of an older version, the other of versions 4 and
        // 5, or another block size is coded again.
        None if table.compact().is_some_and(|c| {
            let target = written_version(rules, level, c.symbols().len(), neighbours_from);
            header.version < COMPACT_V4
                || header.version != target
                || c.info().coding.block_bytes != coding.block_bytes
        }) =>
        {
            let raw = table.decode_all().map_err(|error| TableError::Io {
                path: path.to_path_buf(),
                error,
            })?;
            drop(table);
            // The decoded entries must be the ones the header's checksum
            // was taken of before they are coded anew.
            let actual = crate::tb::file::checksum(&raw);
            if actual != header.checksum {
                return Err(TableError::Corrupt {
                    path: path.to_path_buf(),
                    reason: format!(
                        "decodes to entries of checksum {actual:08x}, the header says {:08x}; nothing replaced",
                        header.checksum
                    ),
                });
            }
            write_compact_level(path, &header, &raw, coding, neighbours_from)
        }
        None => Ok(Compaction {
            level,
            boards: header.boards,
            raw_bytes: header.boards * width as u64,
            compact_bytes: table.file_bytes(),
            entropy: table_entropy(&table),
            seconds: 0.0,
            converted: false,
        }),
    }
}

/// Converts every raw level of `rules` in `dir`, and every compact one of
/// another format version than [`written_version`] asks for or another
/// block size, to `coding`, the smallest
/// first, calling `report` after each level (current compact ones are
/// reported as they are). Takes the folder's build lock, so that no build
/// writes beside it; a run stopped half-way is resumed by running it
/// again (each level is replaced whole or not at all).
pub fn compress_folder(
    dir: &Path,
    rules: TableRules,
    only: Option<usize>,
    coding: Coding,
    neighbours_from: usize,
    mut report: impl FnMut(&Compaction),
) -> Result<Vec<Compaction>, crate::tb::BuildError> {
    if !dir.is_dir() {
        return Err(TableError::NoFolder(dir.to_path_buf()).into());
    }
    let _lock = crate::tb::builder::claim_folder(dir)?;
    let mut done = Vec::new();
    for level in 0..=crate::tb::index::MAX_SEEDS {
        if only.is_some_and(|l| l != level) {
            continue;
        }
        let path = crate::tb::file::table_path(dir, rules, level);
        let result = match compress_file(&path, rules, level, coding, neighbours_from) {
            Err(TableError::Missing { .. }) if only.is_none() => continue,
            result => result?,
        };
        report(&result);
        done.push(result);
    }
    Ok(done)
}
