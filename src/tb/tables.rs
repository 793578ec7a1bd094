//! A folder of tables of one Oware rule set, opened for probing.

use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;

use super::build::LowerLevels;
use super::file::{Encoding, TableError, TableFile};
use super::levels::{Levels, decode_budget};
use super::prefetch::prefetch;
use super::rules::TableRules;
use super::value::Value;
use crate::Variant;

/// The tables of one variant found in a folder, memory-mapped.
pub struct Tablebase {
    levels: Levels,
    variant: Variant,
    rejected: Vec<TableError>,
}

impl Tablebase {
    /// A tablebase with no level loaded.
    pub fn empty(dir: &Path, variant: Variant) -> Tablebase {
        Tablebase::of(Levels::empty(dir, TableRules::Oware(variant)), variant)
    }

    fn of(levels: Levels, variant: Variant) -> Tablebase {
        Tablebase {
            levels,
            variant,
            rejected: Vec::new(),
        }
    }

    /// Opens every level present in `dir` (validating headers and sizes,
    /// not checksums). A file that is present but invalid is an error, and
    /// so is a `dir` that is not a folder ([`TableError::NoFolder`]).
    pub fn open(dir: &Path, variant: Variant) -> Result<Tablebase, TableError> {
        Ok(Tablebase::of(
            Levels::open(dir, TableRules::Oware(variant))?,
            variant,
        ))
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
    ///
    /// Compact levels are then decoded into memory, the smallest first, as
    /// far as `OWARE_TB_MEMORY` allows (see [`Levels::decode_in_memory`]),
    /// before this returns; [`Tablebase::open_for_search_lazily`] leaves
    /// that to [`Tablebase::decode_in_background`].
    pub fn open_for_search(
        dir: &Path,
        variant: Variant,
        max_level: usize,
    ) -> Result<Tablebase, TableError> {
        let tables = Tablebase::open_for_search_lazily(dir, variant, max_level)?;
        tables.levels.decode_in_memory(decode_budget());
        Ok(tables)
    }

    /// [`Tablebase::open_for_search`] without decoding any level: a search
    /// can start at once, probing the compact levels as they are.
    pub fn open_for_search_lazily(
        dir: &Path,
        variant: Variant,
        max_level: usize,
    ) -> Result<Tablebase, TableError> {
        let (levels, rejected) =
            Levels::open_for_search(dir, TableRules::Oware(variant), max_level)?;
        Ok(Tablebase {
            levels,
            variant,
            rejected,
        })
    }

    /// Decodes the compact levels that fit in `budget` bytes (a byte a
    /// board; [`decode_budget`] reads `OWARE_TB_MEMORY`) into memory on a
    /// thread of its own, with one worker so that a search keeps the other
    /// cores, the smallest level first. A search probes each level compact
    /// until its decoded copy is in place, then reads that. The thread
    /// ends when it is done, or within a chunk of blocks once it holds the
    /// last `Arc` of the tables (their owner has dropped them). Returns its
    /// handle, or `None` when there is nothing to decode.
    pub fn decode_in_background(self: &Arc<Self>, budget: u64) -> Option<JoinHandle<()>> {
        let plan = self.levels.decode_plan(budget);
        if plan.is_empty() {
            return None;
        }
        let tables = Arc::downgrade(self);
        let decode = move || {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build();
            for level in plan {
                let Some(tables) = tables.upgrade() else {
                    return;
                };
                let wanted = || Arc::strong_count(&tables) > 1;
                let decode = || tables.levels.decode_level_while(level, &wanted);
                match &pool {
                    Ok(pool) => pool.install(decode),
                    // Without a pool of its own it decodes on the global one.
                    Err(_) => decode(),
                };
            }
        };
        std::thread::Builder::new()
            .name("oware-tables".to_string())
            .spawn(decode)
            .ok()
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
        self.levels.describe()
    }

    /// Opens level `level` from the folder, optionally checking its checksum.
    pub fn load(&mut self, level: usize, check_sum: bool) -> Result<(), TableError> {
        self.levels.load(level, check_sum)
    }

    /// The rules of these tables.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        self.levels.dir()
    }

    /// The open levels, as a game-independent set.
    pub fn levels(&self) -> &Levels {
        &self.levels
    }

    /// The open table of `level`, if any.
    pub fn table(&self, level: usize) -> Option<&TableFile> {
        self.levels.table(level)
    }

    /// Whether `level` is loaded.
    pub fn has_level(&self, level: usize) -> bool {
        self.levels.has_level(level)
    }

    /// The largest `n` such that levels 0..=n are all loaded.
    pub fn complete_up_to(&self) -> Option<usize> {
        self.levels.complete_up_to()
    }

    /// The value of the board of rank `r` in `level`, which must be loaded.
    #[inline]
    pub fn value_at(&self, level: usize, r: u64) -> Value {
        LowerLevels::value_at(&self.levels, level, r)
    }

    /// The open table of `level`, or an error naming the missing file.
    pub fn require(&self, level: usize) -> Result<&TableFile, TableError> {
        self.levels.require(level)
    }
}

/// Reads the value of rank `r` from a payload.
#[inline]
pub fn decode(encoding: Encoding, payload: &[u8], r: u64) -> Value {
    encoding.value(encoding.entry(payload, r))
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
        LowerLevels::prefetch(&self.levels, level, r);
    }
}

/// Oware's values of the open levels (a Mancala table reads as scores).
impl LowerLevels for Levels {
    #[inline]
    fn value_at(&self, level: usize, r: u64) -> Value {
        self.loaded(level).value(r)
    }

    #[inline]
    fn prefetch(&self, level: usize, r: u64) {
        self.loaded(level).prefetch(r);
    }
}
