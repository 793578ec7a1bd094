//! The table file: a validated header followed by the payload, written to a
//! temporary file and renamed into place, read through a memory map.
//!
//! Layout: the 8-byte magic, a little-endian `u32` header length, the header
//! (serde + bincode), zero padding to a multiple of 64 bytes, the payload.
//! The header's version says which payload follows: the raw entries
//! (version [`FORMAT_VERSION`], an entry a board by rank) or the compact
//! sections (version [`COMPACT_VERSION`] with codes chosen by neighbours
//! too, [`COMPACT_V4`] without, [`COMPACT_V3`] from before the
//! 64-byte blocks, or [`COMPACT_V2`] from before the classes of codes; see
//! [`super::compact`]). All read
//! through [`TableFile::value`].

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use memmap2::Mmap;
use serde::{Deserialize, Serialize};

use super::compact::narrow::NarrowLevel;
use super::compact::{
    BLOCK_BYTES, COMPACT_V2, COMPACT_V3, COMPACT_V4, COMPACT_VERSION, CompactInfo, CompactLevel,
    Compressed, Lattice,
};
use super::rules::TableRules;
use super::value::Value;
use crate::Variant;

/// The first eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"OWARETB\x01";
/// The format version of raw tables (compact ones are [`COMPACT_V2`],
/// [`COMPACT_V3`], [`COMPACT_V4`] and [`COMPACT_VERSION`]).
pub const FORMAT_VERSION: u32 = 1;
const MAX_HEADER: usize = 4096;
const ALIGN: usize = 64;

/// How the payload stores a board's value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Encoding {
    /// Two bytes a board: the seeds the mover can force (`gM`), then the
    /// seeds the opponent can force (`gN`).
    ForcedPair,
    /// One signed byte a board, −n..n: the Romein & Bal score (Awari), or
    /// the final store difference (Mancala).
    Score,
}

impl Encoding {
    /// The encoding tables of `variant` use.
    pub const fn for_variant(variant: Variant) -> Encoding {
        match variant {
            Variant::Awari => Encoding::Score,
            _ => Encoding::ForcedPair,
        }
    }

    /// Payload bytes per board.
    pub const fn bytes_per_board(self) -> usize {
        match self {
            Encoding::ForcedPair => 2,
            Encoding::Score => 1,
        }
    }

    /// The raw entry of rank `r` of a raw payload as a `u16` (a pair as
    /// `mover << 8 | opponent`, a score as its byte).
    #[inline]
    pub fn entry(self, payload: &[u8], r: u64) -> u16 {
        let r = r as usize;
        match self {
            Encoding::ForcedPair => u16::from_be_bytes([payload[2 * r], payload[2 * r + 1]]),
            Encoding::Score => u16::from(payload[r]),
        }
    }

    /// The value of a raw entry (see [`Encoding::entry`]).
    #[inline]
    pub const fn value(self, entry: u16) -> Value {
        match self {
            Encoding::ForcedPair => Value::new((entry >> 8) as u8, entry as u8),
            Encoding::Score => Value::from_score(entry as u8 as i8),
        }
    }
}

/// The header of a compact file: the common fields (version
/// [`COMPACT_VERSION`], `checksum` over the raw payload it decodes to),
/// then the compact ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactHeader {
    /// The fields every table has.
    pub table: Header,
    /// The coding and the sections.
    pub compact: CompactInfo,
}

/// The header at the start of a table file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT_VERSION`] at the time of writing.
    pub version: u32,
    /// The rules the table was built for (encoded as the Oware variant was
    /// before Mancala's tables came, see [`TableRules`]).
    pub rules: TableRules,
    /// Seeds on the board.
    pub level: u8,
    /// Boards in the level.
    pub boards: u64,
    /// How values are stored.
    pub encoding: Encoding,
    /// CRC-32 of the payload.
    pub checksum: u32,
    /// Seconds since the Unix epoch when the build finished, or
    /// `SOURCE_DATE_EPOCH` when set (for byte-identical rebuilds).
    pub built_unix: u64,
    /// The version of `oware` that wrote the file.
    pub tool_version: String,
}

/// What is wrong with a table file.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The file does not exist.
    #[error(
        "{}: table not built (`oware build {build} --max-seeds {level} --db {}` builds levels 0..{level})",
        path.display(),
        folder_of(path).display()
    )]
    Missing {
        /// The file looked for.
        path: PathBuf,
        /// The flags of `oware build` naming its rules.
        build: String,
        /// Its level.
        level: usize,
    },
    /// A board above the levels built.
    #[error(
        "{}: the tables reach {reach} seeds; this position has {seeds} (`oware build {build} --max-seeds {seeds} --db {}` builds up to it)",
        dir.display(),
        dir.display()
    )]
    NotReached {
        /// The folder.
        dir: PathBuf,
        /// The last level of the run 0..=reach built.
        reach: usize,
        /// The board's seeds.
        seeds: usize,
        /// The build's rule flags.
        build: String,
    },
    /// The folder of the tables does not exist (or is not a folder).
    #[error("{}: no such folder (build tables with `oware build --max-seeds 16 --db {}`)", .0.display(), .0.display())]
    NoFolder(PathBuf),
    /// Reading or writing failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: io::Error,
    },
    /// The file is not a table or is damaged.
    #[error("{}: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The file is a valid table of other rules or another level.
    #[error("{}: {reason}", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        reason: String,
    },
}

impl TableError {
    /// The file of `rules`' level `level` at `path` is not there.
    pub fn missing(path: &Path, rules: TableRules, level: usize) -> TableError {
        TableError::Missing {
            path: path.to_path_buf(),
            build: rules.build_flags(),
            level,
        }
    }

    fn io(path: &Path, error: io::Error) -> TableError {
        TableError::Io {
            path: path.to_path_buf(),
            error,
        }
    }

    fn corrupt(path: &Path, reason: impl Into<String>) -> TableError {
        TableError::Corrupt {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }
}

/// The folder of a table file (`.` for a bare file name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// What to do about a damaged table file: delete it and rebuild its level
/// (a build keeps the valid levels below it).
fn remedy(path: &Path, rules: TableRules, level: usize) -> String {
    let dir = folder_of(path);
    format!(
        "delete it and run `oware build {} --max-seeds {level} --db {}`",
        rules.build_flags(),
        dir.display()
    )
}

/// The file name of a level's table in a database folder:
/// `abapa-07.owt`, `mancala-07.owt`, `mancala-empty-capture-07.owt`…
pub fn table_path(dir: &Path, rules: impl Into<TableRules>, level: usize) -> PathBuf {
    dir.join(format!("{}-{level:02}.owt", rules.into().name()))
}

/// The CRC-32 of [`checksum`] computed on the calling thread alone, reading
/// the payload in order (for checks that run beside others on threads of
/// their own, away from rayon's pool).
pub fn checksum_serial(payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(payload);
    h.finalize()
}

/// Adds a run of a payload to a CRC-32 folded over runs in parallel (see
/// [`crc_join`]).
pub(crate) fn crc_add(mut crc: crc32fast::Hasher, run: &[u8]) -> crc32fast::Hasher {
    crc.update(run);
    crc
}

/// Joins the CRC-32s of two spans, `a` before `b`: folds over runs joined
/// in rank order (as rayon joins them) give the whole payload's.
pub(crate) fn crc_join(mut a: crc32fast::Hasher, b: crc32fast::Hasher) -> crc32fast::Hasher {
    a.combine(&b);
    a
}

/// CRC-32 of a payload, in parallel over 16 MiB blocks (combined in order,
/// so the result does not depend on the number of threads).
pub fn checksum(payload: &[u8]) -> u32 {
    use rayon::prelude::*;
    const BLOCK: usize = 16 << 20;
    let parts: Vec<(u32, usize)> = payload
        .par_chunks(BLOCK)
        .map(|c| {
            let mut h = crc32fast::Hasher::new();
            h.update(c);
            (h.finalize(), c.len())
        })
        .collect();
    let mut all = crc32fast::Hasher::new();
    for (crc, len) in parts {
        all.combine(&crc32fast::Hasher::new_with_initial_len(crc, len as u64));
    }
    all.finalize()
}

fn encode_header(header: &impl Serialize) -> Vec<u8> {
    let body = bincode::serde::encode_to_vec(header, bincode::config::standard())
        .expect("a header always serialises");
    let mut out = Vec::with_capacity(ALIGN * 2);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(&body);
    out.resize(out.len().div_ceil(ALIGN) * ALIGN, 0);
    out
}

/// Writes a table: header then payload (produced by `write_payload`, which
/// must write exactly `header.boards × bytes_per_board` bytes), into a
/// temporary file that is synced and then renamed to `path`. A failure
/// removes the temporary file and leaves any existing `path` untouched.
pub fn write_table(
    path: &Path,
    header: &Header,
    write_payload: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), TableError> {
    write_framed(path, &encode_header(header), write_payload)
}

/// Writes a compact table: `header` (whose `checksum` is the raw
/// payload's; its version is set to the one `compressed` was coded in) and the sections
/// of `compressed`, under a temporary name renamed into place.
pub fn write_compact(
    path: &Path,
    header: &Header,
    compressed: &Compressed,
) -> Result<(), TableError> {
    let (info, meta) = compressed.layout();
    let header = CompactHeader {
        table: Header {
            version: compressed.version,
            ..header.clone()
        },
        compact: info,
    };
    let s = info.sections;
    let parts = [
        (s.model, &meta[0][..]),
        (s.sparse, &meta[1][..]),
        (s.counts, &meta[2][..]),
        (s.chunk_checksums, &meta[3][..]),
    ];
    write_framed(path, &encode_header(&header), |out| {
        let mut at = 0u64;
        for (section, bytes) in parts {
            let pad = section.offset - at;
            out.write_all(&vec![0u8; pad as usize])?;
            out.write_all(bytes)?;
            at = section.offset + bytes.len() as u64;
        }
        out.write_all(&vec![0u8; (s.data.offset - at) as usize])?;
        for part in compressed.data_parts() {
            out.write_all(part)?;
        }
        Ok(())
    })
}

fn write_framed(
    path: &Path,
    header: &[u8],
    write_payload: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), TableError> {
    let tmp = path.with_extension("owt.tmp");
    let result = (|| -> io::Result<()> {
        let file = File::create(&tmp)?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        out.write_all(header)?;
        write_payload(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        fs::rename(&tmp, path)?;
        if let Some(dir) = path.parent() {
            // Persist the rename itself.
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        TableError::io(path, e)
    })
}

/// Reads the start of a file of ours: the 8-byte `magic`, a little-endian
/// `u32` length, and a header of that length (serde + bincode, at most 4
/// KiB); returns the header and where it ends, or what is wrong (`what`
/// names the kind of file: "table", "book").
pub fn read_framed_header<H: serde::de::DeserializeOwned>(
    bytes: &[u8],
    magic: &[u8; 8],
    what: &str,
) -> Result<(H, usize), String> {
    if bytes.len() < 12 || bytes[..8] != *magic {
        return Err(format!("not an oware {what} (bad magic)"));
    }
    let len = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
    if len > MAX_HEADER || 12 + len > bytes.len() {
        return Err(format!("header length {len} is out of range"));
    }
    let (header, _) = bincode::serde::decode_from_slice(
        &bytes[12..12 + len],
        bincode::config::standard().with_limit::<MAX_HEADER>(),
    )
    .map_err(|_| "unreadable header (damaged, or not written by oware)".to_string())?;
    Ok((header, 12 + len))
}

/// An open, validated table: its header and the memory-mapped payload,
/// raw or compact.
pub struct TableFile {
    header: Header,
    map: Mmap,
    offset: usize,
    path: PathBuf,
    compact: Option<Box<CompactLevel>>,
    /// A compact level's entries decoded into memory a byte a board, when
    /// a search asked for it (see [`TableFile::decode_in_memory`]); set
    /// once, possibly by another thread while probes go on.
    decoded: OnceLock<NarrowLevel>,
}

/// The version a framed header starts with (its first field).
fn header_version(bytes: &[u8]) -> Option<u32> {
    let len = u32::from_le_bytes(bytes.get(8..12)?.try_into().ok()?) as usize;
    let body = bytes.get(12..12 + len.min(MAX_HEADER))?;
    bincode::serde::decode_from_slice::<u32, _>(body, bincode::config::standard())
        .ok()
        .map(|(v, _)| v)
}

impl TableFile {
    /// Asks the kernel to read the whole file into the page cache in the
    /// background (only advice: failure changes nothing but speed).
    pub fn read_ahead(&self) {
        let _ = self.map.advise(memmap2::Advice::WillNeed);
    }

    /// Opens and validates `path` as the table of `rules` (an Oware
    /// [`Variant`] or any [`TableRules`]) at `level`: magic, version,
    /// rules, level, board count, encoding and size, and the checksum when
    /// `check_sum` is set.
    pub fn open(
        path: &Path,
        rules: impl Into<TableRules>,
        level: usize,
        check_sum: bool,
    ) -> Result<TableFile, TableError> {
        let rules = rules.into();
        // Asked before opening: opening a pipe would wait for a writer.
        match std::fs::metadata(path) {
            Ok(m) if !m.is_file() => {
                return Err(TableError::corrupt(
                    path,
                    format!("not a regular file; {}", remedy(path, rules, level)),
                ));
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(TableError::missing(path, rules, level));
            }
            _ => {}
        }
        let file = File::open(path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => TableError::missing(path, rules, level),
            _ => TableError::io(path, e),
        })?;
        // SAFETY: the map is read-only and table files are only ever created
        // by renaming a finished temporary file into place, never modified in
        // place; every access below is bounds-checked against the map length.
        let map = unsafe { Mmap::map(&file) }.map_err(|e| TableError::io(path, e))?;
        let bad = |reason: String| {
            TableError::corrupt(path, format!("{reason}; {}", remedy(path, rules, level)))
        };
        let version = match read_framed_header::<u32>(&map, &MAGIC, "table") {
            Ok(_) => header_version(&map).unwrap_or(0),
            Err(reason) => return Err(bad(reason)),
        };
        let (header, compact, header_end) = match version {
            FORMAT_VERSION => {
                let (header, end): (Header, usize) =
                    read_framed_header(&map, &MAGIC, "table").map_err(bad)?;
                (header, None, end)
            }
            COMPACT_V2 | COMPACT_V3 | COMPACT_V4 | COMPACT_VERSION => {
                let (header, end): (CompactHeader, usize) =
                    read_framed_header(&map, &MAGIC, "table").map_err(bad)?;
                (header.table, Some(header.compact), end)
            }
            v => {
                let newer = if v > COMPACT_VERSION {
                    " (written by a newer oware: update it)"
                } else {
                    ""
                };
                return Err(bad(format!(
                    "format version {v}{newer}; this build reads {FORMAT_VERSION} (raw) and {COMPACT_V2}..={COMPACT_VERSION} (compact)"
                )));
            }
        };
        if header.version != version {
            return Err(bad(format!(
                "inconsistent format version {}",
                header.version
            )));
        }
        let mismatch = |reason: String| TableError::Mismatch {
            path: path.to_path_buf(),
            reason,
        };
        if header.rules != rules {
            return Err(mismatch(format!(
                "built for rules {}, not {rules}",
                header.rules
            )));
        }
        if usize::from(header.level) != level {
            return Err(mismatch(format!(
                "holds level {}, not {level}",
                header.level
            )));
        }
        if header.boards != rules.level_size(level) {
            return Err(bad(format!(
                "{} boards, level {level} has {}",
                header.boards,
                rules.level_size(level)
            )));
        }
        if header.encoding != rules.encoding() {
            return Err(bad(format!(
                "unexpected value encoding {:?}",
                header.encoding
            )));
        }
        let offset = header_end.div_ceil(ALIGN) * ALIGN;
        // (A file ending inside it is left to the size checks below.)
        if map
            .get(header_end..offset)
            .is_some_and(|gap| gap.iter().any(|&b| b != 0))
        {
            return Err(bad("damaged padding after the header".to_string()));
        }
        let compact = match compact {
            None => {
                let expected =
                    offset as u64 + header.boards * header.encoding.bytes_per_board() as u64;
                if map.len() as u64 != expected {
                    return Err(bad(format!(
                        "{} bytes, expected {expected} (truncated or padded)",
                        map.len()
                    )));
                }
                None
            }
            Some(info) => {
                if version < COMPACT_V4 && info.coding.block_bytes as usize != BLOCK_BYTES {
                    return Err(bad(format!(
                        "format version {version} with blocks of {} bytes (that version has {BLOCK_BYTES})",
                        info.coding.block_bytes
                    )));
                }
                let payload = map.get(offset..).unwrap_or(&[]);
                let lattice = match version {
                    COMPACT_VERSION => Some(Lattice::of(rules, level).ok_or_else(|| {
                        bad(format!(
                            "format version {version}, which no level of {rules} is written in"
                        ))
                    })?),
                    _ => None,
                };
                Some(Box::new(
                    CompactLevel::open(payload, header.boards, info, lattice).map_err(bad)?,
                ))
            }
        };
        let table = TableFile {
            header,
            map,
            offset,
            path: path.to_path_buf(),
            compact,
            decoded: OnceLock::new(),
        };
        if check_sum {
            table.verify_checksum()?;
        }
        Ok(table)
    }

    /// Recomputes the payload checksum (in parallel, on rayon's pool) and
    /// compares it with the header's; for a compact table, each data
    /// chunk's. The error names the file (and a compact table's damaged
    /// blocks) and says how to replace it.
    pub fn verify_checksum(&self) -> Result<(), TableError> {
        match &self.compact {
            None => self.compare_checksum(checksum(self.payload())),
            Some(c) => self.report_damage(c, c.damaged_chunks(self.payload(), true)),
        }
    }

    /// [`TableFile::verify_checksum`] on the calling thread alone, reading
    /// the payload in order.
    pub fn verify_checksum_serial(&self) -> Result<(), TableError> {
        match &self.compact {
            None => self.compare_checksum(checksum_serial(self.payload())),
            Some(c) => self.report_damage(c, c.damaged_chunks(self.payload(), false)),
        }
    }

    /// Decodes a compact table whole and checks it against the header's
    /// checksum of the raw payload (a raw table: its checksum). The
    /// strongest check short of re-solving the level.
    pub fn verify_decoded(&self) -> Result<(), TableError> {
        self.verify_checksum()?;
        if self.compact.is_none() {
            return Ok(());
        }
        // The runs come in rank order within each fold, and rayon joins the
        // folds in order: the CRCs combine to the whole payload's.
        let crc = self.fold_entries(crc32fast::Hasher::new, crc_add, crc_join);
        self.compare_checksum(crc.finalize())
    }

    fn report_damage(&self, c: &CompactLevel, damaged: Vec<usize>) -> Result<(), TableError> {
        let Some(&first) = damaged.first() else {
            return Ok(());
        };
        let more = match damaged.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        Err(TableError::corrupt(
            &self.path,
            format!(
                "checksum mismatch: damaged data in {}{more}; {}",
                c.describe_chunk(self.payload(), first),
                remedy(
                    &self.path,
                    self.header.rules,
                    usize::from(self.header.level)
                )
            ),
        ))
    }

    /// Whether the file is in the compact format.
    pub fn is_compact(&self) -> bool {
        self.compact.is_some()
    }

    /// The format's name as `stats` and `verify` print it: `"compact"` or
    /// `"raw"`.
    pub fn format_name(&self) -> &'static str {
        if self.is_compact() { "compact" } else { "raw" }
    }

    /// The compact level, for a compact file.
    pub fn compact(&self) -> Option<&CompactLevel> {
        self.compact.as_deref()
    }

    /// Lets go of the file's pages this process has touched: they stop
    /// counting in its resident memory, the page cache keeps them, and the
    /// next read maps them again. A build calls it on the lower levels it
    /// has copied or will not read, so that its memory limit holds.
    pub fn release_pages(&self) {
        // SAFETY: the map is a read-only shared mapping of a file that is
        // never modified in place (see `open`): dropping its pages only
        // unmaps them, and a later read sees the same bytes again.
        let _ = unsafe {
            self.map
                .unchecked_advise(memmap2::UncheckedAdvice::DontNeed)
        };
    }

    /// The file's size in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.map.len() as u64
    }

    /// The raw entry of rank `r` as a `u16` (see [`Encoding::entry`]).
    #[inline]
    pub fn entry(&self, r: u64) -> u16 {
        match (&self.compact, self.decoded.get()) {
            (None, _) => self.header.encoding.entry(self.payload(), r),
            (Some(_), Some(narrow)) => narrow.entry(r),
            (Some(c), None) => c.entry(self.payload(), r),
        }
    }

    /// Decodes a compact level into memory a byte a board (see
    /// [`NarrowLevel`]), so that its probes cost a load as a raw table's
    /// do, in half the memory of the raw pairs (nothing for a raw table,
    /// or one already decoded). Returns the bytes it now holds.
    /// Probes may run on other threads meanwhile: they read the compact
    /// level until the decoded one is in place.
    pub fn decode_in_memory(&self) -> io::Result<u64> {
        self.decode_in_memory_while(&|| true)
    }

    /// [`TableFile::decode_in_memory`], asking `keep_going` as it goes: once
    /// it says no, the level is left compact.
    pub fn decode_in_memory_while(
        &self,
        keep_going: &(dyn Fn() -> bool + Sync),
    ) -> io::Result<u64> {
        if let (Some(c), None) = (&self.compact, self.decoded.get())
            && let Some(narrow) = NarrowLevel::decode_while(c, self.payload(), keep_going)?
        {
            // Another thread may have decoded it first: either copy reads
            // the same.
            let _ = self.decoded.set(narrow);
        }
        Ok(self.decoded.get().map_or(0, NarrowLevel::memory))
    }

    /// Whether a compact level is held decoded in memory.
    pub fn is_decoded(&self) -> bool {
        self.decoded.get().is_some()
    }

    /// The value of the board of rank `r`.
    #[inline]
    pub fn value(&self, r: u64) -> Value {
        self.header.encoding.value(self.entry(r))
    }

    /// Starts loading what a probe of rank `r` reads into the cache.
    #[inline]
    pub fn prefetch(&self, r: u64) {
        let width = self.header.encoding.bytes_per_board();
        let byte = match (&self.compact, self.decoded.get()) {
            (None, _) => self.payload().get(width * r as usize),
            (Some(_), Some(narrow)) => narrow.byte(r),
            (Some(c), None) => self.payload().get(c.probe_address(r)),
        };
        if let Some(byte) = byte {
            super::prefetch::prefetch(byte);
        }
    }

    /// The raw payload: the file's own bytes for a raw table, `None` for
    /// a compact one (see [`TableFile::decode_all`]).
    pub fn raw_payload(&self) -> Option<&[u8]> {
        self.compact.is_none().then(|| self.payload())
    }

    /// The raw payload: borrowed from the map for a raw table, decoded
    /// into memory (in parallel) for a compact one.
    pub fn raw(&self) -> std::borrow::Cow<'_, [u8]> {
        match &self.compact {
            None => std::borrow::Cow::Borrowed(self.payload()),
            Some(c) => {
                let width = self.header.encoding.bytes_per_board();
                let mut out = vec![0u8; self.header.boards as usize * width];
                c.decode_all(self.payload(), width, &mut out);
                std::borrow::Cow::Owned(out)
            }
        }
    }

    /// The raw payload in memory (a compact table decoded in parallel).
    pub fn decode_all(&self) -> io::Result<super::scratch::Scratch> {
        let width = self.header.encoding.bytes_per_board();
        let len = self.header.boards as usize * width;
        let mut out = super::scratch::Scratch::zeroed(len)?;
        match &self.compact {
            None => out.copy_from_slice(self.payload()),
            Some(c) => c.decode_all(self.payload(), width, &mut out),
        }
        Ok(out)
    }

    /// [`TableFile::decode_all`], checked against the header's checksum of
    /// the raw entries: a compact file whose blocks are intact but decode
    /// to other entries than the level was built with (a fault of the
    /// encoder) is refused. A copy that cannot be mapped is
    /// [`TableError::Io`].
    pub fn decode_all_checked(&self) -> Result<super::scratch::Scratch, TableError> {
        let copy = self.decode_all().map_err(|error| TableError::Io {
            path: self.path.clone(),
            error,
        })?;
        self.compare_checksum(checksum(&copy))?;
        Ok(copy)
    }

    /// A compact level's entries decoded into memory a byte a board (see
    /// [`NarrowLevel`]), checked against the header's checksum of the raw
    /// entries as [`TableFile::decode_all_checked`] checks its copy; `None`
    /// for a raw level. A copy that cannot be mapped is [`TableError::Io`].
    pub fn decode_narrow_checked(&self) -> Result<Option<NarrowLevel>, TableError> {
        let Some(c) = &self.compact else {
            return Ok(None);
        };
        let narrow = NarrowLevel::decode(c, self.payload()).map_err(|error| TableError::Io {
            path: self.path.clone(),
            error,
        })?;
        let width = self.header.encoding.bytes_per_board();
        self.compare_checksum(narrow.checksum(width))?;
        Ok(Some(narrow))
    }

    /// Folds the level's raw entries chunk by chunk, in parallel: `fold`
    /// takes an accumulator and a run of the raw payload's bytes (whole
    /// entries), `reduce` joins two accumulators. A raw table's runs are
    /// slices of its map; a compact one decoded in memory is read from
    /// that copy a run at a time, and its chunks are otherwise decoded one
    /// at a time (a probe per board would decode each block again for every
    /// board).
    pub fn fold_entries<T: Send>(
        &self,
        init: impl Fn() -> T + Sync + Send,
        fold: impl Fn(T, &[u8]) -> T + Sync + Send,
        reduce: impl Fn(T, T) -> T + Sync + Send,
    ) -> T {
        use rayon::prelude::*;
        let width = self.header.encoding.bytes_per_board();
        if let Some(raw) = self.raw_payload() {
            return raw
                .par_chunks(width << 16)
                .fold(&init, &fold)
                .reduce(&init, reduce);
        }
        if let Some(narrow) = self.decoded.get() {
            return narrow.fold_raw_runs(width, init, fold, reduce);
        }
        let Some(c) = &self.compact else {
            return init();
        };
        let payload = self.payload();
        let starts = c.chunk_starts(payload);
        (0..starts.len() - 1)
            .into_par_iter()
            .fold(&init, |acc, i| {
                let mut run = vec![0u8; (starts[i + 1] - starts[i]) as usize * width];
                c.decode_chunk(payload, i, width, &mut run);
                fold(acc, &run)
            })
            .reduce(&init, reduce)
    }

    fn compare_checksum(&self, actual: u32) -> Result<(), TableError> {
        if actual != self.header.checksum {
            return Err(TableError::corrupt(
                &self.path,
                format!(
                    "checksum mismatch (header {:08x}, payload {actual:08x}); {}",
                    self.header.checksum,
                    remedy(
                        &self.path,
                        self.header.rules,
                        usize::from(self.header.level)
                    )
                ),
            ));
        }
        Ok(())
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The payload bytes as stored: the raw entries, or a compact file's
    /// sections.
    #[inline]
    pub fn payload(&self) -> &[u8] {
        &self.map[self.offset..]
    }
}
