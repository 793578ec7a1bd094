//! A folder of tables of one rule set, opened for probing.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

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
    rejected: Vec<TableError>,
}

impl Tablebase {
    /// A tablebase with no level loaded.
    pub fn empty(dir: &Path, variant: Variant) -> Tablebase {
        Tablebase {
            dir: dir.to_path_buf(),
            variant,
            levels: (0..=MAX_SEEDS).map(|_| None).collect(),
            rejected: Vec::new(),
        }
    }

    /// Opens every level present in `dir` (validating headers and sizes,
    /// not checksums). A file that is present but invalid is an error, and
    /// so is a `dir` that is not a folder ([`TableError::NoFolder`]).
    pub fn open(dir: &Path, variant: Variant) -> Result<Tablebase, TableError> {
        require_folder(dir)?;
        let mut tb = Tablebase::empty(dir, variant);
        for level in 0..=MAX_SEEDS {
            match tb.load(level, false) {
                Ok(()) | Err(TableError::Missing(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(tb)
    }

    /// Opens the levels up to `max_level` present in `dir`, for a search,
    /// and asks the kernel to start reading them into memory: a probe of a
    /// page not yet read waits for the disk, which a search can ill afford.
    /// Levels above the limit stay closed: they are too big to read in
    /// quickly and help only once their pages are cached.
    ///
    /// Each level's checksum is verified (the levels on threads of their
    /// own, each payload read in order, which also brings it into the page
    /// cache). A level whose header, size or checksum is wrong is left
    /// closed and listed in [`Tablebase::rejected`]; only a `dir` that is
    /// not a folder is an error ([`TableError::NoFolder`]).
    pub fn open_for_search(
        dir: &Path,
        variant: Variant,
        max_level: usize,
    ) -> Result<Tablebase, TableError> {
        require_folder(dir)?;
        let mut tb = Tablebase::empty(dir, variant);
        let mut rejected: Vec<(usize, TableError)> = Vec::new();
        for level in 0..=max_level.min(MAX_SEEDS) {
            match tb.load(level, false) {
                Ok(()) => {
                    if let Some(table) = &tb.levels[level] {
                        table.read_ahead();
                    }
                }
                Err(TableError::Missing(_)) => {}
                Err(e) => rejected.push((level, e)),
            }
        }
        for (level, result) in check_sums(&tb.levels).into_iter().enumerate() {
            if let Err(e) = result {
                tb.levels[level] = None;
                rejected.push((level, e));
            }
        }
        rejected.sort_by_key(|&(level, _)| level);
        tb.rejected = rejected.into_iter().map(|(_, e)| e).collect();
        Ok(tb)
    }

    /// The files [`Tablebase::open_for_search`] found present but left
    /// closed (damaged, truncated, of other rules…), by level; each error
    /// names the file and says what to do about it.
    pub fn rejected(&self) -> &[TableError] {
        &self.rejected
    }

    /// The levels in use, in one line: "levels 0..20 of abapa from DIR",
    /// "levels 0..5, 7 of abapa from DIR", or "no levels of abapa in DIR".
    pub fn describe(&self) -> String {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for level in (0..self.levels.len()).filter(|&l| self.has_level(l)) {
            match runs.last_mut() {
                Some((_, end)) if *end + 1 == level => *end = level,
                _ => runs.push((level, level)),
            }
        }
        let (variant, dir) = (self.variant.name(), self.dir.display());
        if runs.is_empty() {
            return format!("no levels of {variant} in {dir}");
        }
        let runs: Vec<String> = runs
            .iter()
            .map(|&(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}..{b}")
                }
            })
            .collect();
        let noun = if runs.len() == 1 && !runs[0].contains("..") {
            "level"
        } else {
            "levels"
        };
        format!("{noun} {} of {variant} from {dir}", runs.join(", "))
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

/// [`TableError::NoFolder`] unless `dir` is a folder.
fn require_folder(dir: &Path) -> Result<(), TableError> {
    if dir.is_dir() {
        Ok(())
    } else {
        Err(TableError::NoFolder(dir.to_path_buf()))
    }
}

/// Verifies the checksum of each open level, the levels spread over plain
/// scoped threads (one a core at most; rayon's pool is left to the caller's
/// work), the largest first. The calling thread takes part, and checks
/// whatever level a thread that could not start, or failed, left unchecked:
/// the result has one entry a level, `Ok` for a closed one.
fn check_sums(levels: &[Option<TableFile>]) -> Vec<Result<(), TableError>> {
    let mut order: Vec<usize> = (0..levels.len()).filter(|&l| levels[l].is_some()).collect();
    order.sort_by_key(|&l| std::cmp::Reverse(levels[l].as_ref().map_or(0, |t| t.payload().len())));
    let results: Vec<Mutex<Option<Result<(), TableError>>>> =
        levels.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        while let Some(&level) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
            if let Some(table) = &levels[level] {
                let result = table.verify_checksum_serial();
                *results[level].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
            }
        }
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(order.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads)
            .filter_map(|i| {
                std::thread::Builder::new()
                    .name(format!("tb-check-{i}"))
                    .spawn_scoped(scope, work)
                    .ok()
            })
            .collect();
        work();
        for handle in handles {
            // A thread that panicked left its level unchecked: done below.
            let _ = handle.join();
        }
    });
    results
        .into_iter()
        .enumerate()
        .map(|(level, slot)| {
            let slot = slot.into_inner().unwrap_or_else(|e| e.into_inner());
            match (slot, &levels[level]) {
                (Some(result), _) => result,
                (None, Some(table)) => table.verify_checksum_serial(),
                (None, None) => Ok(()),
            }
        })
        .collect()
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
