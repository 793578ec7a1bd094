//! The table files of one rule set in a folder, by level: what Oware's
//! [`Tablebase`](super::Tablebase) and Mancala's tables share.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::file::{TableError, TableFile, table_path};
use super::index::MAX_SEEDS;
use super::resident::KeptCopies;
use super::rules::TableRules;

/// The open levels of one rule set in a folder, memory-mapped.
pub struct Levels {
    dir: PathBuf,
    rules: TableRules,
    files: Vec<Option<TableFile>>,
    /// Copies of levels a build keeps from one level to the next.
    kept: KeptCopies,
}

impl Levels {
    /// No level open yet.
    pub fn empty(dir: &Path, rules: TableRules) -> Levels {
        Levels {
            dir: dir.to_path_buf(),
            rules,
            files: (0..=MAX_SEEDS).map(|_| None).collect(),
            kept: KeptCopies::default(),
        }
    }

    /// Opens every level present in `dir` (validating headers and sizes,
    /// not checksums). A file that is present but invalid is an error, and
    /// so is a `dir` that is not a folder ([`TableError::NoFolder`]).
    pub fn open(dir: &Path, rules: TableRules) -> Result<Levels, TableError> {
        require_folder(dir)?;
        let mut levels = Levels::empty(dir, rules);
        for level in 0..=MAX_SEEDS {
            match levels.load(level, false) {
                Ok(()) | Err(TableError::Missing { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(levels)
    }

    /// Opens the levels up to `max_level` present in `dir` for a search:
    /// asks the kernel to read them in, and verifies each checksum (see
    /// [`Tablebase::open_for_search`](super::Tablebase::open_for_search)).
    /// Returns the levels and the files left closed, by level. Compact
    /// levels are not decoded yet (see [`Levels::decode_in_memory`]).
    pub fn open_for_search(
        dir: &Path,
        rules: TableRules,
        max_level: usize,
    ) -> Result<(Levels, Vec<TableError>), TableError> {
        require_folder(dir)?;
        let mut levels = Levels::empty(dir, rules);
        let mut rejected: Vec<(usize, TableError)> = Vec::new();
        for level in 0..=max_level.min(MAX_SEEDS) {
            match levels.load(level, false) {
                Ok(()) => {
                    if let Some(table) = &levels.files[level] {
                        table.read_ahead();
                    }
                }
                Err(TableError::Missing { .. }) => {}
                Err(e) => rejected.push((level, e)),
            }
        }
        for (level, result) in check_sums(&levels.files).into_iter().enumerate() {
            if let Err(e) = result {
                levels.files[level] = None;
                rejected.push((level, e));
            }
        }
        rejected.sort_by_key(|&(level, _)| level);
        Ok((levels, rejected.into_iter().map(|(_, e)| e).collect()))
    }

    /// The compact levels not yet decoded that a search decodes within
    /// `budget` bytes, a byte a board, the smallest first (levels already
    /// decoded count against the budget).
    pub fn decode_plan(&self, budget: u64) -> Vec<usize> {
        let mut left = budget;
        let mut plan = Vec::new();
        for (level, table) in self.files.iter().enumerate() {
            let Some(table) = table.as_ref().filter(|t| t.is_compact()) else {
                continue;
            };
            let bytes = table.header().boards;
            if bytes <= left {
                left -= bytes;
                if !table.is_decoded() {
                    plan.push(level);
                }
            }
        }
        plan
    }

    /// Decodes the open compact levels into memory, a byte a board, the
    /// smallest first, while they fit in `budget` bytes (a probe of a
    /// decoded level is a load, of a compact one a block's decode).
    /// Returns the bytes decoded.
    pub fn decode_in_memory(&self, budget: u64) -> u64 {
        let plan = self.decode_plan(budget);
        plan.into_iter().map(|level| self.decode_level(level)).sum()
    }

    /// Decodes `level` into memory if it is open and compact; returns the
    /// bytes it holds decoded (0 when the memory could not be had: the
    /// level is then probed compact, slower but not wrong).
    pub fn decode_level(&self, level: usize) -> u64 {
        self.decode_level_while(level, &|| true)
    }

    /// [`Levels::decode_level`], asking `keep_going` as it goes (see
    /// [`TableFile::decode_in_memory_while`]).
    pub fn decode_level_while(&self, level: usize, keep_going: &(dyn Fn() -> bool + Sync)) -> u64 {
        self.table(level)
            .map_or(0, |t| t.decode_in_memory_while(keep_going).unwrap_or(0))
    }

    /// Opens level `level` from the folder, optionally checking its checksum.
    pub fn load(&mut self, level: usize, check_sum: bool) -> Result<(), TableError> {
        let path = self.path(level);
        self.kept.forget(level);
        self.files[level] = Some(TableFile::open(&path, self.rules, level, check_sum)?);
        Ok(())
    }

    /// The file name of `level`.
    pub fn path(&self, level: usize) -> PathBuf {
        table_path(&self.dir, self.rules, level)
    }

    /// The rules of these tables.
    pub fn rules(&self) -> TableRules {
        self.rules
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The open table of `level`, if any.
    #[inline]
    pub fn table(&self, level: usize) -> Option<&TableFile> {
        self.files.get(level).and_then(|t| t.as_ref())
    }

    /// The copies of lower levels a build keeps from one level to the next
    /// (see [`Resident`](super::resident::Resident)).
    pub fn kept_copies(&self) -> &KeptCopies {
        &self.kept
    }

    /// The table of `level`, which must be open.
    #[inline]
    pub fn loaded(&self, level: usize) -> &TableFile {
        self.files[level].as_ref().expect("level loaded")
    }

    /// Whether `level` is open.
    pub fn has_level(&self, level: usize) -> bool {
        self.table(level).is_some()
    }

    /// The open levels, ascending.
    pub fn present(&self) -> Vec<usize> {
        (0..self.files.len())
            .filter(|&l| self.has_level(l))
            .collect()
    }

    /// The largest `n` such that levels 0..=n are all open.
    pub fn complete_up_to(&self) -> Option<usize> {
        self.files
            .iter()
            .position(|t| t.is_none())
            .map_or(Some(MAX_SEEDS), |k| k.checked_sub(1))
    }

    /// The open table of `level`, or an error naming the missing file.
    /// Above the levels built (0..=k all open, `level` past k and absent),
    /// the error says how far the tables reach instead.
    pub fn require(&self, level: usize) -> Result<&TableFile, TableError> {
        self.table(level)
            .ok_or_else(|| match self.complete_up_to() {
                Some(reach) if level > reach && !self.path(level).exists() => {
                    TableError::NotReached {
                        dir: self.dir.clone(),
                        reach,
                        seeds: level,
                        build: self.rules.build_flags(),
                    }
                }
                _ => TableError::missing(&self.path(level), self.rules, level),
            })
    }

    /// The open levels in one line: "levels 0..20 of abapa from DIR",
    /// "levels 0..5, 7 of abapa from DIR", or "no levels of abapa in DIR".
    pub fn describe(&self) -> String {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for level in self.present() {
            match runs.last_mut() {
                Some((_, end)) if *end + 1 == level => *end = level,
                _ => runs.push((level, level)),
            }
        }
        let (rules, dir) = (self.rules.name(), self.dir.display());
        if runs.is_empty() {
            return format!("no levels of {rules} in {dir}");
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
        format!("{noun} {} of {rules} from {dir}", runs.join(", "))
    }
}

/// The memory a search spends on decoding compact levels: the
/// environment variable `OWARE_TB_MEMORY` in MiB, else
/// [`DEFAULT_DECODE_MIB`].
pub fn decode_budget() -> u64 {
    let mib = match std::env::var("OWARE_TB_MEMORY") {
        Err(_) => DEFAULT_DECODE_MIB,
        Ok(v) => v.trim().parse::<u64>().unwrap_or_else(|_| {
            eprintln!("OWARE_TB_MEMORY={v:?} is not a number of MiB; using {DEFAULT_DECODE_MIB}");
            DEFAULT_DECODE_MIB
        }),
    };
    mib.min(1 << 40) << 20
}

/// The default of [`decode_budget`], in MiB: levels 0..24 of Abapa
/// decoded a byte a board take 1.17 GB, where the raw files' pages took
/// 2.33 GB; level 25 (546 MB more) stays compact.
pub const DEFAULT_DECODE_MIB: u64 = 1536;

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
                crate::threads::builder()
                    .and_then(|b| b.name(format!("tb-check-{i}")).spawn_scoped(scope, work))
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
