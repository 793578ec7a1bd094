//! `oware build`: levels 0..N in order, each solved, re-checked and written
//! atomically; levels already present and valid are kept.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::build::FixpointError;
use super::compact::Coding;
use super::estimate::{self, Costs};
use super::file::{Encoding, FORMAT_VERSION, Header, TableError, TableFile, checksum, write_table};
use super::game::TableGame;
use super::index::MAX_SEEDS;
use super::levels::Levels;
use super::recheck::Recheck;
use super::rules::TableRules;
use super::tables::decode;
use super::value::Value;
use crate::Variant;

/// What went wrong in a build.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Reading or writing a table failed.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A solved level failed the fixpoint re-check (a bug: nothing written).
    #[error("fixpoint re-check failed, level not written: {0}")]
    Fixpoint(#[from] FixpointError),
    /// A solved Mancala level failed its re-check against the children's
    /// values (a bug: nothing written).
    #[error("re-check failed, level not written: {0}")]
    Recheck(#[from] FixpointError<i8>),
    /// A race level's board has outcomes no race entry holds: a draw band
    /// wider than a byte's or a profile that is not monotone (nothing
    /// written).
    #[error(
        "level {level}, board {board:?}: its outcomes fit no race entry (draws at more than 7 needs above its last winning one, or a better outcome at a larger need); level not written"
    )]
    RaceEntry {
        /// The level.
        level: usize,
        /// The board.
        board: [u8; 12],
    },
    /// A solved race level failed its re-check (a bug: nothing written).
    #[error("race re-check failed, level not written: {0}")]
    RaceRecheck(#[from] FixpointError<u8>),
    /// The folder could not be created.
    #[error("cannot create {}: {error}", path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// Another build holds the folder's lock file.
    #[error(
        "{}: another build holds this folder (lock file {}); wait for it to finish or use another --db",
        dir.display(),
        lock.display()
    )]
    Busy {
        /// The folder.
        dir: PathBuf,
        /// Its lock file.
        lock: PathBuf,
    },
    /// The lock file could not be locked (a file system without locks).
    #[error("cannot lock {}: {error}", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// The folder exists but a file cannot be created in it.
    #[error("cannot write in {}: {error}", path.display())]
    NotWritable {
        /// The folder.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// A file under a level's name is a valid table of other rules or of
    /// another level; the build does not overwrite it.
    #[error("{}: {reason}; move or delete it, or build into another --db", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What differs.
        reason: String,
    },
    /// The working memory of a level could not be mapped.
    #[error("level {level}: cannot map its working memory: {error}")]
    Memory {
        /// The level.
        level: usize,
        /// The error.
        error: std::io::Error,
    },
    /// Another rank of a distributed build failed (it printed why).
    #[error("rank {rank} of the distributed build failed: {message}")]
    Remote {
        /// The rank that failed.
        rank: usize,
        /// What it reported.
        message: String,
    },
    /// A level above 48 or equal to 47 (which no game reaches).
    #[error("--max-seeds must be at most 48")]
    TooManySeeds,
    /// [`INTERRUPTED`] was set (Ctrl-C or SIGTERM): the level being built was dropped
    /// and its temporary files removed; `built` is the last level whose
    /// file is in place with every level below it (`None`: none).
    #[error(
        "interrupted: {}; run the same command to resume",
        match built {
            Some(k) => format!("levels 0..{k} are built"),
            None => "no level is built yet".to_string(),
        }
    )]
    Interrupted {
        /// The last level built, with every level below it.
        built: Option<usize>,
    },
}

impl BuildError {
    /// The error of copying level `level`'s lower levels into memory: a
    /// copy that could not be mapped is [`BuildError::Memory`], a level
    /// that does not decode to its entries [`BuildError::Table`].
    pub fn copying(level: usize, error: TableError) -> BuildError {
        match error {
            TableError::Io { error, .. } => BuildError::Memory { level, error },
            error => BuildError::Table(error),
        }
    }
}

/// Set to stop a build (by `oware build`'s handler of SIGINT and
/// SIGTERM, which only stores `true` here): the solvers skip the chunks of work not yet
/// started, and the build returns [`BuildError::Interrupted`] before it
/// writes anything more.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether [`INTERRUPTED`] is set.
#[inline]
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Removes what writing level file `path` may leave while it runs: the
/// raw temporary file, the compact staging file and its temporary file.
fn remove_temporaries(path: &Path) {
    let staging = {
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".compact");
        path.with_file_name(name)
    };
    for p in [
        path.with_extension("owt.tmp"),
        staging.with_extension("owt.tmp"),
        staging,
    ] {
        let _ = std::fs::remove_file(p);
    }
}

/// What one level of a build did.
#[derive(Clone, Debug)]
pub struct LevelSummary {
    /// Seeds on the board.
    pub level: usize,
    /// Boards in the level.
    pub boards: u64,
    /// False when a valid file was already there.
    pub built: bool,
    /// Seconds spent (0 when skipped).
    pub seconds: f64,
    /// Where those seconds went (all 0 when skipped).
    pub phases: Phases,
    /// Exact boards (Abapa; every board for the tables of scores) and the
    /// histogram of values.
    pub stats: LevelStats,
    /// The process's peak resident memory while the level was built, in
    /// bytes, sampled every 50 ms (`None` when skipped, in the MPI build,
    /// or where the kernel does not say).
    pub peak_rss: Option<u64>,
}

/// Seconds spent in each phase of building one level; they add up to the
/// level's time but for the bookkeeping between them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Phases {
    /// Copying the nearest lower levels into memory.
    pub copy: f64,
    /// The pass over the moves: capture values looked up, counters set.
    pub moves: f64,
    /// The thresholds: the retrograde settling of the values.
    pub settle: f64,
    /// The fixpoint re-check.
    pub check: f64,
    /// Statistics, checksum, writing and syncing the file.
    pub write: f64,
}

impl Phases {
    /// The phases as `copy 0.1 + moves 1.2 + … s`.
    pub fn describe(&self) -> String {
        format!(
            "copy {:.1} + moves {:.1} + settle {:.1} + check {:.1} + write {:.1} s",
            self.copy, self.moves, self.settle, self.check, self.write
        )
    }
}

impl LevelSummary {
    /// The line `oware build` prints: boards, exact share (tables of
    /// scores, Awari's and Mancala's: the range of scores), and seconds,
    /// rate, phases and peak memory, or "already built".
    pub fn describe(&self, rules: impl Into<TableRules>) -> String {
        let values = if rules.into().encoding() == Encoding::Score {
            let mut scores = self
                .stats
                .histogram
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(v, _)| v as i32 - 48);
            let low = scores.next().unwrap_or(0);
            let high = scores.next_back().unwrap_or(low);
            format!("scores {low:+}..{high:+}")
        } else {
            format!(
                "exact {:>5.1}%",
                100.0 * self.stats.exact as f64 / self.boards as f64
            )
        };
        let head = format!(
            "level {:>2}: {:>13} boards  {values}",
            self.level, self.boards
        );
        if self.built {
            let rate = self.boards as f64 / self.seconds.max(1e-9);
            let peak = self
                .peak_rss
                .map(|b| format!("; peak RSS {}", super::estimate::bytes(b)))
                .unwrap_or_default();
            format!(
                "{head}  {:>8.2} s  {:>6.2} M boards/s  ({}{peak})",
                self.seconds,
                rate / 1e6,
                self.phases.describe()
            )
        } else {
            format!("{head}  already built")
        }
    }
}

/// Counts over one level's values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LevelStats {
    /// Boards whose value does not depend on history (gM + gN = n); for
    /// the tables of scores (Awari, Mancala), every board.
    pub exact: u64,
    /// Boards by gM (Abapa) or by score + 48 (Awari, Mancala).
    pub histogram: Vec<u64>,
    /// Boards holding a value no board of the level can have (gM + gN
    /// above the seeds, an Awari score beyond them, a Mancala score beyond
    /// ±48): a damaged file's, counted apart from the histogram.
    pub impossible: u64,
}

impl LevelStats {
    /// Counts the values of a level of `rules` (an Oware [`Variant`] or
    /// any [`TableRules`]).
    pub fn of(
        level: usize,
        rules: impl Into<TableRules>,
        value: impl Fn(u64) -> Value + Sync,
    ) -> LevelStats {
        const BLOCK: u64 = 1 << 16;
        let rules = rules.into();
        let size = rules.level_size(level);
        (0..size.div_ceil(BLOCK))
            .into_par_iter()
            .map(|block| {
                let mut s = LevelStats::empty(rules);
                for r in block * BLOCK..(block * BLOCK + BLOCK).min(size) {
                    s.count(level, rules, value(r));
                }
                s
            })
            .reduce(|| LevelStats::empty(rules), LevelStats::join)
    }

    /// [`LevelStats::of`] the level `table` holds, read chunk by chunk; a
    /// value no board of the level can have (a file whose checksum was
    /// made to fit damaged entries) is an error naming the file.
    pub fn of_file(
        level: usize,
        rules: TableRules,
        table: &TableFile,
    ) -> Result<LevelStats, TableError> {
        let encoding = table.header().encoding;
        let width = encoding.bytes_per_board();
        let stats = table.fold_entries(
            || LevelStats::empty(rules),
            |mut s, run| {
                for r in 0..(run.len() / width) as u64 {
                    s.count(level, rules, encoding.value(encoding.entry(run, r)));
                }
                s
            },
            LevelStats::join,
        );
        if stats.impossible > 0 {
            return Err(TableError::Corrupt {
                path: table.path().to_path_buf(),
                reason: format!(
                    "values no board of {level} seeds can have ({} boards): the file is damaged (delete it and build the level again)",
                    stats.impossible
                ),
            });
        }
        Ok(stats)
    }

    fn empty(rules: TableRules) -> LevelStats {
        let bins = if rules.encoding() == Encoding::Score {
            97
        } else {
            49
        };
        LevelStats {
            exact: 0,
            histogram: vec![0; bins],
            impossible: 0,
        }
    }

    #[inline]
    fn count(&mut self, level: usize, rules: TableRules, v: Value) {
        if rules.encoding() == Encoding::Score {
            // `Value::score` widened (a byte of 0x80 is -128, which
            // `Value::score` would overflow on).
            let score = i16::from(v.mover) - i16::from(v.opponent);
            let bin = usize::try_from(score + 48)
                .ok()
                .and_then(|b| self.histogram.get_mut(b));
            match (rules, bin) {
                // A race entry packs two counts in its byte: binned when it
                // reads as a score, never impossible.
                (TableRules::MancalaRace { .. }, bin) => {
                    self.exact += 1;
                    if let Some(boards) = bin {
                        *boards += 1;
                    }
                }
                // Awari's score is a difference of the seeds on the board.
                (TableRules::Oware(_), _) if usize::from(score.unsigned_abs()) > level => {
                    self.impossible += 1;
                }
                (_, Some(boards)) => {
                    *boards += 1;
                    self.exact += 1;
                }
                (_, None) => self.impossible += 1,
            }
        } else if usize::from(v.mover) + usize::from(v.opponent) > level {
            self.impossible += 1;
        } else {
            self.exact += u64::from(v.is_exact(level as u8));
            self.histogram[usize::from(v.mover)] += 1;
        }
    }

    fn join(mut self, other: LevelStats) -> LevelStats {
        self.exact += other.exact;
        self.impossible += other.impossible;
        self.histogram
            .iter_mut()
            .zip(&other.histogram)
            .for_each(|(x, y)| *x += y);
        self
    }
}

/// The time stamp for headers: `SOURCE_DATE_EPOCH` if set, else now.
pub(crate) fn build_time() -> u64 {
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        })
}

/// The format a build writes its levels in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableFormat {
    /// Entropy-coded blocks (see [`super::compact`]): about a quarter of
    /// the raw size, a probe decodes one small block. Oware's levels from
    /// `neighbours_from` up are coded by their neighbours too (format
    /// version 5).
    Compact {
        /// The first level coded by neighbours.
        neighbours_from: usize,
    },
    /// Two bytes (Awari, Mancala: one) a board, by rank.
    Raw,
}

impl TableFormat {
    /// The compact format as `oware build` writes it by default.
    pub const COMPACT: TableFormat = TableFormat::Compact {
        neighbours_from: super::compact::NEIGHBOURS_FROM,
    };
}

impl Default for TableFormat {
    fn default() -> TableFormat {
        TableFormat::COMPACT
    }
}

/// Options of a build.
pub struct BuildOptions<'a> {
    /// The folder for the tables.
    pub dir: &'a Path,
    /// The rules.
    pub variant: Variant,
    /// The last level to build.
    pub max_seeds: usize,
    /// Show progress bars.
    pub progress: bool,
    /// The format of the levels written.
    pub format: TableFormat,
    /// How much of each level built is re-checked before it is written.
    pub recheck: Recheck,
}

/// The progress of a whole build, which the bar of each level shows before
/// the level's own phase: "level k of N", the boards done, the rate and the
/// time left for the whole build.
struct WholeBuild {
    max_seeds: usize,
    started: Instant,
    /// Boards and estimated seconds of the levels to build.
    boards: u64,
    work: f64,
    /// The shares of a level's time its solving passes and its re-check
    /// take.
    solve_share: f64,
    check_share: f64,
    current: Mutex<Current>,
}

/// The level being built, and what the levels before it in this run did.
#[derive(Default)]
struct Current {
    level: usize,
    done_boards: u64,
    done_work: f64,
    boards: u64,
    work: f64,
    /// The bar's last length and position, to tell the solving pass from
    /// the re-check (a new length or a position going back).
    len: u64,
    pos: u64,
    checking: bool,
}

impl WholeBuild {
    /// The shares of a level's time the solving passes and the re-check
    /// take under `costs` (the whole re-check's share of a level,
    /// [`Costs::check_share`], and the share re-checked; the writing is
    /// left out).
    fn shares(costs: &Costs) -> (f64, f64) {
        let solve = 1.0 - costs.check_share;
        let check = costs.check_share * costs.recheck.share();
        (solve / (solve + check), check / (solve + check))
    }

    /// Renders `level 22 of 24 · 517 M of 1.17 G boards · 3.4 M boards/s ·
    /// eta 3 min 10 s` for a bar at `pos` of `len`.
    fn render(&self, pos: u64, len: u64, out: &mut dyn std::fmt::Write) {
        let Ok(mut c) = self.current.lock() else {
            return;
        };
        if c.len != 0 && (len != c.len || pos < c.pos) {
            c.checking = true;
        }
        (c.len, c.pos) = (len, pos);
        let part = if len == 0 {
            0.0
        } else {
            (pos as f64 / len as f64).min(1.0)
        };
        let share = if c.checking {
            self.solve_share + self.check_share * part
        } else {
            self.solve_share * part
        };
        let boards = c.done_boards as f64 + share * c.boards as f64;
        let work = c.done_work + share * c.work;
        let elapsed = self.started.elapsed().as_secs_f64();
        let rate = boards / elapsed.max(1e-3);
        // The estimate until a little work is done, then the estimate
        // scaled by how fast this build goes.
        let left = if elapsed > 2.0 && work > 0.01 * self.work {
            (self.work - work).max(0.0) * elapsed / work
        } else {
            (self.work - elapsed).max(0.0)
        };
        let _ = write!(
            out,
            "level {} of {} · {} of {} boards · {:.1} M boards/s · eta {}",
            c.level,
            self.max_seeds,
            estimate::count(boards as u64),
            estimate::count(self.boards),
            rate / 1e6,
            estimate::duration(left),
        );
    }
}

/// A level's bar, showing the whole build's progress before the level's.
fn build_bar(progress: bool, whole: &Arc<WholeBuild>) -> ProgressBar {
    if !progress {
        return ProgressBar::hidden();
    }
    let whole = Arc::clone(whole);
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{whole} | {msg} [{bar:16}] {percent:>3}%")
            .expect("valid template")
            .with_key(
                "whole",
                move |state: &indicatif::ProgressState, out: &mut dyn std::fmt::Write| {
                    whole.render(state.pos(), state.len().unwrap_or(0), out);
                },
            )
            .progress_chars("=> "),
    );
    bar
}

/// The lock file of a build folder (left in place: the lock on it, not
/// its presence, says a build is running).
pub fn lock_path(dir: &Path) -> PathBuf {
    dir.join(LOCK_FILE)
}

const LOCK_FILE: &str = ".oware-build.lock";

/// Creates the folder if needed, takes the advisory lock on its lock file
/// (held until the returned file is dropped or the process ends) and checks
/// that a file can be created and removed in it.
pub(crate) fn claim_folder(dir: &Path) -> Result<File, BuildError> {
    std::fs::create_dir_all(dir).map_err(|error| BuildError::Folder {
        path: dir.to_path_buf(),
        error,
    })?;
    let not_writable = |error| BuildError::NotWritable {
        path: dir.to_path_buf(),
        error,
    };
    let lock = lock_path(dir);
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map_err(not_writable)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            return Err(BuildError::Busy {
                dir: dir.to_path_buf(),
                lock,
            });
        }
        Err(TryLockError::Error(error)) => return Err(BuildError::Lock { path: lock, error }),
    }
    // The lock file may have been there already: create a new file too.
    let probe = dir.join(format!("{LOCK_FILE}.probe"));
    File::create(&probe)
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(not_writable)?;
    Ok(file)
}

/// Builds Oware's levels 0..=`max_seeds`, calling `report` after each
/// level (see [`build_levels`]).
pub fn build(
    opts: &BuildOptions,
    report: impl FnMut(&LevelSummary),
) -> Result<Vec<LevelSummary>, BuildError> {
    build_levels_as(
        &opts.variant,
        opts.dir,
        opts.max_seeds,
        opts.progress,
        opts.format,
        opts.recheck,
        report,
    )
}

/// Builds levels 0..=`max_seeds` of `game` into `dir`, calling `report`
/// after each level.
///
/// The folder is created if missing, then locked for the build (another
/// build on it fails at once with [`BuildError::Busy`]) and checked to be
/// writable before the first level. A level already there and valid is
/// kept; each level built is re-checked whole (by the game's solver),
/// written under a temporary name and renamed into place.
pub fn build_levels<G: TableGame>(
    game: &G,
    dir: &Path,
    max_seeds: usize,
    progress: bool,
    report: impl FnMut(&LevelSummary),
) -> Result<Vec<LevelSummary>, BuildError> {
    build_levels_as(
        game,
        dir,
        max_seeds,
        progress,
        TableFormat::COMPACT,
        Recheck::All,
        report,
    )
}

/// [`build_levels`] writing the levels built in `format` (levels already
/// there are kept in theirs), each re-checked as far as `recheck` says.
pub fn build_levels_as<G: TableGame>(
    game: &G,
    dir: &Path,
    max_seeds: usize,
    progress: bool,
    format: TableFormat,
    recheck: Recheck,
    mut report: impl FnMut(&LevelSummary),
) -> Result<Vec<LevelSummary>, BuildError> {
    if max_seeds > MAX_SEEDS {
        return Err(BuildError::TooManySeeds);
    }
    let _lock = claim_folder(dir)?;
    let rules = game.rules();
    let mut levels = Levels::empty(dir, rules);
    let mut summaries = Vec::new();
    let encoding = rules.encoding();
    let mut costs = Costs::here(
        rules,
        format == TableFormat::Raw,
        rayon::current_num_threads(),
    )
    .with_recheck(recheck);
    if let TableFormat::Compact { neighbours_from } = format {
        costs = costs.with_neighbours_from(neighbours_from);
    }
    let sizes: Vec<u64> = (0..=max_seeds).map(|n| rules.level_size(n)).collect();
    let present = estimate::present_levels(dir, rules, max_seeds);
    let planned = estimate::estimate(&sizes, &present, &costs);
    let (solve_share, check_share) = WholeBuild::shares(&costs);
    let whole = Arc::new(WholeBuild {
        max_seeds,
        started: Instant::now(),
        boards: planned.boards,
        work: planned.seconds,
        solve_share,
        check_share,
        current: Mutex::new(Current::default()),
    });
    // The last level in place with every level below it.
    let interrupted_after = |level: usize| BuildError::Interrupted {
        built: level.checked_sub(1),
    };
    for level in 0..=max_seeds {
        if interrupted() {
            return Err(interrupted_after(level));
        }
        let path = levels.path(level);
        let started = Instant::now();
        // A complete, valid file from an earlier run is kept. A damaged or
        // partial one (never visible under its final name, but possibly
        // corrupted later) is rebuilt; a table of other rules is an error.
        // Its values are counted through a map of its own, dropped with
        // the pages the counting read (they would count in the resident
        // memory of the levels still to build); a file whose values no
        // board can have is damaged too.
        let kept = TableFile::open(&path, rules, level, true)
            .and_then(|file| LevelStats::of_file(level, rules, &file));
        match kept {
            Ok(stats) => {
                levels.load(level, false)?;
                let summary = LevelSummary {
                    level,
                    boards: rules.level_size(level),
                    built: false,
                    seconds: 0.0,
                    phases: Phases::default(),
                    stats,
                    peak_rss: None,
                };
                report(&summary);
                summaries.push(summary);
                continue;
            }
            Err(TableError::Missing { .. } | TableError::Corrupt { .. }) => {}
            Err(TableError::Mismatch { path, reason }) => {
                return Err(BuildError::Foreign { path, reason });
            }
            Err(e) => return Err(e.into()),
        }
        let peak = super::resident::PeakRss::start();
        if let Ok(mut c) = whole.current.lock() {
            let (done_boards, done_work) = (c.done_boards, c.done_work);
            *c = Current {
                level,
                done_boards,
                done_work,
                boards: rules.level_size(level),
                work: planned
                    .seconds_of(level)
                    .unwrap_or_else(|| costs.seconds(level, rules.level_size(level))),
                ..Current::default()
            };
        }
        let bar = build_bar(progress, &whole);
        let mut phases = Phases::default();
        let solved = game.solve(level, &levels, &bar, &mut phases, recheck);
        // An interrupted solve skipped work: whatever it returned is
        // dropped, never checked or written.
        if interrupted() {
            bar.finish_and_clear();
            remove_temporaries(&path);
            return Err(interrupted_after(level));
        }
        let payload = solved?;
        // The copies the next level reads too are kept through the write
        // (they were held beside the level's records, which took more than
        // its payload and the writing); the others are let go now, all of
        // them after the last level.
        levels
            .kept_copies()
            .keep_for((level < max_seeds).then_some(level + 1));
        let lap = Instant::now();
        let stats = LevelStats::of(level, rules, |r| decode(encoding, &payload, r));
        bar.set_message(format!("level {level}: write"));
        if interrupted() {
            bar.finish_and_clear();
            return Err(interrupted_after(level));
        }
        let header = Header {
            version: FORMAT_VERSION,
            rules,
            level: level as u8,
            boards: rules.level_size(level),
            encoding,
            checksum: checksum(&payload),
            built_unix: build_time(),
            tool_version: env!("CARGO_PKG_VERSION").to_string(),
        };
        match format {
            TableFormat::Raw => write_table(&path, &header, |out| out.write_all(&payload))?,
            TableFormat::Compact { neighbours_from } => {
                super::compact::write_compact_level(
                    &path,
                    &header,
                    &payload,
                    Coding::DEFAULT,
                    neighbours_from,
                )?;
            }
        }
        drop(payload);
        bar.finish_and_clear();
        levels.load(level, false)?;
        phases.write += lap.elapsed().as_secs_f64();
        if let Ok(mut c) = whole.current.lock() {
            c.done_boards += c.boards;
            c.done_work += c.work;
        }
        let summary = LevelSummary {
            level,
            boards: rules.level_size(level),
            built: true,
            seconds: started.elapsed().as_secs_f64(),
            phases,
            stats,
            peak_rss: peak.finish(),
        };
        report(&summary);
        summaries.push(summary);
    }
    Ok(summaries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_race_entry_is_never_counted_impossible() {
        // A race byte packs a win count and a draw band (`win | band << 5`),
        // so it may read as a score beyond any level's; Awari's may not.
        let race = TableRules::MancalaRace {
            empty_capture: false,
            total: 40,
        };
        let awari = TableRules::Oware(crate::Variant::Awari);
        for (rules, byte, impossible) in [
            (race, 0x31u8, 0),
            (race, 0x80, 0),
            (race, 0xFF, 0),
            (awari, 0x31, 1),
            (awari, 0x80, 1),
            (awari, 3, 0),
        ] {
            let mut s = LevelStats::empty(rules);
            s.count(6, rules, Value::from_score(byte as i8));
            assert_eq!(s.impossible, impossible, "{rules} {byte:#x}");
            assert_eq!(s.exact, 1 - impossible, "{rules} {byte:#x}");
        }
    }
}
