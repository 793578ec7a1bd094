//! A folder of tables of one rule set, opened for probing.

use std::path::{Path, PathBuf};

use super::build::LowerLevels;
use super::file::{Encoding, TableError, TableFile, table_path};
use super::index::MAX_SEEDS;
use super::prefetch::prefetch;
use super::value::Value;
use crate::Variant;

/// The tables of one variant found in a folder, memory-mapped.
pub struct Tablebase {
    dir: PathBuf,
    variant: Variant,
    levels: Vec<Option<TableFile>>,
}

impl Tablebase {
    /// A tablebase with no level loaded.
    pub fn empty(dir: &Path, variant: Variant) -> Tablebase {
        Tablebase {
            dir: dir.to_path_buf(),
            variant,
            levels: (0..=MAX_SEEDS).map(|_| None).collect(),
        }
    }

    /// Opens every level present in `dir` (validating headers and sizes,
    /// not checksums). A file that is present but invalid is an error.
    pub fn open(dir: &Path, variant: Variant) -> Result<Tablebase, TableError> {
        Tablebase::open_up_to(dir, variant, MAX_SEEDS, false)
    }

    /// Opens the levels up to `max_level` present in `dir`, for a search,
    /// and asks the kernel to start reading them into memory: a probe of a
    /// page not yet read waits for the disk, which a search can ill afford.
    /// Levels above the limit stay closed: they are too big to read in
    /// quickly and help only once their pages are cached.
    pub fn open_for_search(
        dir: &Path,
        variant: Variant,
        max_level: usize,
    ) -> Result<Tablebase, TableError> {
        Tablebase::open_up_to(dir, variant, max_level, true)
    }

    /// The levels up to `max_level` present in `dir`, read ahead if asked.
    fn open_up_to(
        dir: &Path,
        variant: Variant,
        max_level: usize,
        read_ahead: bool,
    ) -> Result<Tablebase, TableError> {
        let mut tb = Tablebase::empty(dir, variant);
        for level in 0..=max_level.min(MAX_SEEDS) {
            match tb.load(level, false) {
                Ok(()) if read_ahead => {
                    if let Some(table) = &tb.levels[level] {
                        table.read_ahead();
                    }
                }
                Ok(()) | Err(TableError::Missing(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(tb)
    }

    /// Opens level `level` from the folder, optionally checking its checksum.
    pub fn load(&mut self, level: usize, check_sum: bool) -> Result<(), TableError> {
        let path = table_path(&self.dir, self.variant, level);
        self.levels[level] = Some(TableFile::open(&path, self.variant, level, check_sum)?);
        Ok(())
    }

    /// The rules of these tables.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The open table of `level`, if any.
    pub fn table(&self, level: usize) -> Option<&TableFile> {
        self.levels.get(level).and_then(|t| t.as_ref())
    }

    /// Whether `level` is loaded.
    pub fn has_level(&self, level: usize) -> bool {
        self.table(level).is_some()
    }

    /// The largest `n` such that levels 0..=n are all loaded.
    pub fn complete_up_to(&self) -> Option<usize> {
        self.levels
            .iter()
            .position(|t| t.is_none())
            .map_or(Some(MAX_SEEDS), |k| k.checked_sub(1))
    }

    /// The value of the board of rank `r` in `level`, which must be loaded.
    #[inline]
    pub fn value_at(&self, level: usize, r: u64) -> Value {
        let table = self.levels[level].as_ref().expect("level loaded");
        decode(table.header().encoding, table.payload(), r)
    }

    /// The open table of `level`, or an error naming the missing file.
    pub fn require(&self, level: usize) -> Result<&TableFile, TableError> {
        self.table(level)
            .ok_or_else(|| TableError::Missing(table_path(&self.dir, self.variant, level)))
    }
}

/// Reads the value of rank `r` from a payload.
#[inline]
pub fn decode(encoding: Encoding, payload: &[u8], r: u64) -> Value {
    let r = r as usize;
    match encoding {
        Encoding::ForcedPair => Value::new(payload[2 * r], payload[2 * r + 1]),
        Encoding::Score => Value::from_score(payload[r] as i8),
    }
}

/// Starts loading the entry of rank `r` of a payload into the cache.
#[inline]
pub fn prefetch_entry(encoding: Encoding, payload: &[u8], r: u64) {
    prefetch(&payload[encoding.bytes_per_board() * r as usize]);
}

impl LowerLevels for Tablebase {
    #[inline]
    fn value_at(&self, level: usize, r: u64) -> Value {
        Tablebase::value_at(self, level, r)
    }

    #[inline]
    fn prefetch(&self, level: usize, r: u64) {
        let table = self.levels[level].as_ref().expect("level loaded");
        prefetch_entry(table.header().encoding, table.payload(), r);
    }
}
