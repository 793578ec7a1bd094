//! What a build will take, before it starts: boards, disk, peak memory and
//! time, from the level sizes and the rates measured on the project's
//! machine class (2 cores, 24 GB; see the manual's Results, "Building
//! Oware's tables"). Pure functions, so that they can be tested; `oware
//! build` prints them and checks the disk and memory against them.

use std::path::Path;

use super::file::TableFile;
use super::recheck::Recheck;
use super::resident::capture_reach;
use super::rules::TableRules;
use super::table_path;

/// The machine class the rates were measured on.
pub const MEASURED_ON: &str = "2 cores, 24 GB";

/// Threads of the measured runs.
pub const MEASURED_THREADS: usize = 2;

/// Bytes of working state a board of the level being built (the solver's
/// three-byte records, the pending bits and the payload they are compacted
/// into: 3 bytes and the pending bits, rounded up; 8.6 GB for level 30's
/// 2.74 G boards).
pub const RECORD_BYTES_PER_BOARD: f64 = 3.125;

/// Bits a board of a compact level, rounded up (Abapa's levels 0..30 in
/// format version 3: 4.17 in all, 4.22 at level 30, measured 2026-12-04;
/// version 4 takes 0.06 to 0.09 less, 4.11 at level 29, 2026-12-05, and
/// 4.15 at levels 31 and 32).
pub const COMPACT_BITS_PER_BOARD: f64 = 4.2;

/// Boards a second of level `level` with [`MEASURED_THREADS`] threads on
/// the measured machine class, copy, moves, settle, check and write
/// together, with every level a capture reaches in memory (copied, or a raw
/// file). Levels 0..30 are the rates of the raw build of 2026-12-01 (0..20
/// the rate of those levels together, 216 M boards in 53 s; 21..23 share the
/// 162 s the run spent on them); above 30 the trend of levels 27..30
/// carried on. What reading compact levels without copies adds is counted
/// apart ([`COMPACT_LOOKUP_SECONDS`]).
pub fn measured_rate(level: usize) -> f64 {
    let millions = match level {
        0..=20 => 4.08,
        21 => 3.6,
        22 => 3.5,
        23 => 3.45,
        24 => 3.43,
        25 => 3.12,
        26 => 2.89,
        27 => 2.60,
        28 => 2.50,
        29 => 2.39,
        30 => 2.09,
        31 => 1.95,
        32 => 1.82,
        _ => 1.7,
    };
    millions * 1e6
}

/// Capturing moves a board of a large level by the seeds they take (index:
/// seeds; sampled over 200,000 random boards of level 30, 2026-12-06: 0.69
/// captures a board; 0.67 to 0.69 at levels 26, 28, 31, 32, 34 and 40).
const CAPTURES_BY_SEEDS: [f64; 19] = [
    0.0, 0.0, 0.307, 0.226, 0.040, 0.061, 0.026, 0.011, 0.0084, 0.0037, 0.0016, 0.0010, 0.0003,
    0.0001, 0.0001, 0.0, 0.0, 0.0, 0.0,
];

/// Seconds of one thread a capture's child costs when its level is read
/// through its compact file rather than a copy: a block decoded in the pass
/// over the moves and again in the re-check. Fitted to the compact builds
/// of level 30 (`--memory 16GB`, which copied levels 27 and 28: 2.5 µs) and
/// level 32 (`--memory 22GB`, no copies: 2.7 µs); see the manual's Results.
pub const COMPACT_LOOKUP_SECONDS: f64 = 2.5e-6;

/// How much more a look-up costs in a level of format version 5 (coded by
/// neighbours) than in one of version 4: the ratio of their random probes
/// at levels 24 and 28 (two criterion runs, 2026-12-07, since the decoder's
/// tables of short words: 2.41 and 2.57 µs against 0.66 and 0.91 µs at
/// level 24, 2.74 and 2.86 against 0.97 and 0.94 at level 28), not yet
/// fitted to a build.
pub const NEIGHBOUR_LOOKUP_FACTOR: f64 = 3.1;

/// Seconds of one thread a board of a level coded by neighbours takes to
/// write beyond one of version 4 (its second and third passes, and the
/// slower decoding of the check): first fitted to builds of levels 24..26
/// on top of levels 0..23 (60 ns), then to the default build of levels
/// 0..30 of 2026-12-07: 100 to 150 ns more at levels 24..30 than the
/// version-3 build of 2026-12-04 wrote, 155 ns in two builds of level 25
/// alone (the manual's Results).
pub const NEIGHBOUR_WRITE_SECONDS: f64 = 1.3e-7;

/// Seconds of one thread a board of a lower level in format version 5
/// takes to copy into memory beyond one of version 4 (its slower decoding):
/// fitted to the default build of levels 0..30 of 2026-12-07, whose copy
/// phases took 33 to 66 ns a board of the version-5 levels copied more than
/// those of the version-3 build of 2026-12-04 (the manual's Results).
pub const NEIGHBOUR_COPY_SECONDS: f64 = 5.0e-8;

/// The share of a large Oware level's build the whole re-check took (23.5
/// to 29.2 % at levels 24..30 of the raw build of 2026-12-01, 22 to 29 % in
/// the compact build of 2026-12-04); a sampled re-check takes
/// [`Recheck::share`] of it.
pub const CHECK_SHARE: f64 = 0.26;

/// The share of a large Mancala difference level's build its whole
/// re-check takes (44–49 % at levels 18..22, 31–34 % at 23 and 24, the
/// largest measured; the manual's Results).
pub const MANCALA_CHECK_SHARE: f64 = 0.35;

/// The share of a race level's build its whole re-check takes, which
/// replays every need of every board (231 of 435 s at level 22 of the
/// 5-seed start, 539 of 876 s at level 23; the manual's Results).
pub const RACE_CHECK_SHARE: f64 = 0.55;

/// The format the levels are written in, as the estimate counts them.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Costs {
    /// Bytes a board on disk (compact: [`COMPACT_BITS_PER_BOARD`] / 8).
    pub disk_bytes_per_board: f64,
    /// Bytes of working state a board of the level being built.
    pub record_bytes_per_board: f64,
    /// Whether a large level's settling takes
    /// [`settling_bytes`](super::build::settling_bytes) beside its records
    /// where the memory to spare has room (Oware's).
    pub settling_buffers: bool,
    /// Bytes a board of the lower levels a level reads in memory: their raw
    /// entries, but one byte for Oware's compact levels, which are decoded
    /// into copies a byte a board from memory to spare (before they were,
    /// at their raw entries' two bytes: 2.5 GB peak RSS measured for a
    /// compact build of levels 0..24, 2.8 GB estimated).
    pub read_bytes_per_board: f64,
    /// Worker threads; the rate scales from [`MEASURED_THREADS`] in
    /// proportion (one thread measured ×0.52 of two).
    pub threads: usize,
    /// Whether a lower level without a copy is read through its compact
    /// file (Oware's compact builds; Mancala's solvers decode every lower
    /// level whole, and raw files are read as they are).
    pub compact_lookups: bool,
    /// The first level written in format version 5, whose look-ups cost
    /// [`NEIGHBOUR_LOOKUP_FACTOR`] times those of version 4 and whose
    /// writing [`NEIGHBOUR_WRITE_SECONDS`] a board more.
    pub neighbours_from: usize,
    /// The memory the build may fill, whatever the limit (the builder's
    /// [`usable_memory`](super::resident::usable_memory): what the kernel
    /// reports available less a quarter of the machine); `None`: unknown,
    /// and every level a capture reaches is taken to be copied.
    pub usable_bytes: Option<u64>,
    /// The limit `--memory` sets.
    pub limit: Option<u64>,
    /// How much of each level is re-checked (the rates are those of a whole
    /// re-check).
    pub recheck: Recheck,
    /// The share of a level's time a whole re-check takes: [`CHECK_SHARE`]
    /// for Oware, [`MANCALA_CHECK_SHARE`] for Mancala's difference tables,
    /// [`RACE_CHECK_SHARE`] for race tables.
    pub check_share: f64,
}

impl Costs {
    /// The costs of a build of `rules`, `raw` or compact, on `threads`
    /// threads, with the memory unknown (see [`Costs::with_memory`]).
    pub fn new(rules: TableRules, raw: bool, threads: usize) -> Costs {
        let width = rules.encoding().bytes_per_board() as f64;
        let oware = matches!(rules, TableRules::Oware(_));
        Costs {
            disk_bytes_per_board: if raw {
                width
            } else {
                (COMPACT_BITS_PER_BOARD / 8.0).min(width)
            },
            record_bytes_per_board: if oware {
                RECORD_BYTES_PER_BOARD
            } else {
                // Mancala's solver holds one byte a board.
                1.0
            },
            settling_buffers: oware,
            // Oware's compact levels are copied a byte a board.
            read_bytes_per_board: if oware && !raw { 1.0 } else { width },
            threads: threads.max(1),
            compact_lookups: oware && !raw,
            neighbours_from: super::compact::NEIGHBOURS_FROM,
            usable_bytes: None,
            limit: None,
            recheck: Recheck::All,
            check_share: match rules {
                TableRules::Oware(_) => CHECK_SHARE,
                TableRules::Mancala { .. } => MANCALA_CHECK_SHARE,
                TableRules::MancalaRace { .. } => RACE_CHECK_SHARE,
            },
        }
    }

    /// These costs with `recheck` as the share of each level re-checked.
    pub const fn with_recheck(self, recheck: Recheck) -> Costs {
        Costs { recheck, ..self }
    }

    /// These costs with the levels from `level` up written in format
    /// version 5 (`oware build --neighbours-from`), whose look-ups cost
    /// [`NEIGHBOUR_LOOKUP_FACTOR`] times more.
    pub const fn with_neighbours_from(self, level: usize) -> Costs {
        Costs {
            neighbours_from: level,
            ..self
        }
    }

    /// These costs with `usable_bytes` of memory the build may fill (see
    /// [`Costs::usable_bytes`]), under the `--memory` limit `limit`: the
    /// copies of lower levels the build can afford, and so the levels it
    /// reads through their compact files.
    pub const fn with_memory(self, usable_bytes: Option<u64>, limit: Option<u64>) -> Costs {
        Costs {
            usable_bytes,
            limit,
            ..self
        }
    }

    /// The costs of a build here and now: the memory this machine has to
    /// spare and the limit
    /// [`set_memory_limit`](super::resident::set_memory_limit) set.
    pub fn here(rules: TableRules, raw: bool, threads: usize) -> Costs {
        Costs::new(rules, raw, threads).with_memory(
            Some(super::resident::usable_memory()),
            super::resident::memory_limit(),
        )
    }

    /// Seconds to build a level of `boards` boards at `level`, every level
    /// its captures reach at hand.
    pub fn seconds(&self, level: usize, boards: u64) -> f64 {
        let rate = measured_rate(level) * self.threads as f64 / MEASURED_THREADS as f64;
        let unchecked = self.check_share * (1.0 - self.recheck.share());
        boards as f64 / rate * (1.0 - unchecked)
    }

    /// Whether a level of `boards` boards at `level` is written in format
    /// version 5 (coded by neighbours): Oware's compact levels from
    /// `neighbours_from` up, of a million boards or more.
    fn by_neighbours(&self, level: usize, boards: u64) -> bool {
        self.compact_lookups
            && level >= self.neighbours_from
            && boards >= super::compact::classes::MIN_BOARDS
    }

    /// Seconds more a level of `boards` boards at `level` takes to write
    /// when it is coded by neighbours (format version 5; none for raw
    /// builds, Mancala's and levels under a million boards).
    fn coding_by_neighbours(&self, level: usize, boards: u64) -> f64 {
        if self.by_neighbours(level, boards) {
            boards as f64 * NEIGHBOUR_WRITE_SECONDS / self.threads as f64
        } else {
            0.0
        }
    }

    /// The lower levels `level` reads and which of them it copies, as the
    /// builder chooses them (see [`Resident`](super::resident::Resident)
    /// and [`copy_budget`](super::resident::copy_budget)): the levels a
    /// capture reaches, highest first, while their decoded size fits in
    /// what the usable memory and the limit leave beside the level's own
    /// state (under a limit, a copied compact level costs its decoded size
    /// less its file, and the compact files within reach count too; what
    /// the process holds besides is taken to be nothing). Levels of
    /// `sizes`; `None` where every level is taken to be copied.
    fn copies(&self, level: usize, sizes: &[u64]) -> Option<Vec<usize>> {
        if !self.compact_lookups || (self.usable_bytes.is_none() && self.limit.is_none()) {
            return None;
        }
        // The builder budgets its records alone, not the pending bits and
        // the payload counted in the printed state.
        let reach = capture_reach(level);
        let file = |l: usize| sizes[l] as f64 * self.disk_bytes_per_board;
        let raw = |l: usize| sizes[l] as f64 * self.read_bytes_per_board;
        let mut left = self.spare(level) - self.files_in_reach(level, sizes);
        left -= self.settling(level, sizes, left);
        let mut copied = Vec::new();
        for lower in reach.rev() {
            let cost = if self.limit.is_some() {
                raw(lower) - file(lower)
            } else {
                raw(lower)
            };
            if cost <= left {
                left -= cost;
                copied.push(lower);
            }
        }
        Some(copied)
    }

    /// The memory the build may fill beside the records of `level`.
    fn spare(&self, level: usize) -> f64 {
        let cap = |bytes: Option<u64>| bytes.map_or(f64::INFINITY, |b| b as f64);
        cap(self.usable_bytes).min(cap(self.limit)) - super::build::working_memory(level) as f64
    }

    /// The bytes of the compact files a capture from `level` reaches, which
    /// count against a `--memory` limit (nothing without one).
    fn files_in_reach(&self, level: usize, sizes: &[u64]) -> f64 {
        if self.limit.is_none() {
            return 0.0;
        }
        capture_reach(level)
            .map(|l| sizes[l] as f64 * self.disk_bytes_per_board)
            .sum()
    }

    /// The bytes the settling of `level` takes beside its records when
    /// `spare` bytes are free beside them (see
    /// [`Settling::within`](super::build::Settling::within)).
    fn settling(&self, level: usize, sizes: &[u64], spare: f64) -> f64 {
        let bytes = if self.settling_buffers {
            super::build::settling_bytes(sizes[level])
        } else {
            0
        };
        if bytes as f64 <= spare {
            bytes as f64
        } else {
            0.0
        }
    }

    /// What building `level` takes: [`Costs::seconds`] plus the coding by
    /// neighbours of the level, the decoding of the version-5 levels it
    /// copies that the level built just before (`before`: its copies) did
    /// not copy already, and its look-ups into the compact files of lower
    /// levels it cannot copy.
    fn level(&self, level: usize, sizes: &[u64], before: Option<&[usize]>) -> LevelPlan {
        let boards = sizes[level];
        let base = self.seconds(level, boards) + self.coding_by_neighbours(level, boards);
        let Some(copied) = self.copies(level, sizes) else {
            return LevelPlan {
                seconds: base,
                held: None,
                copied: None,
            };
        };
        let mut lookups = 0.0;
        let spare = self.spare(level) - self.files_in_reach(level, sizes);
        let mut held =
            super::build::working_memory(level) as f64 + self.settling(level, sizes, spare);
        let mut copying = 0.0;
        for lower in capture_reach(level) {
            if copied.contains(&lower) {
                held += sizes[lower] as f64 * self.read_bytes_per_board;
                let kept = before.is_some_and(|b| b.contains(&lower));
                if self.by_neighbours(lower, sizes[lower]) && !kept {
                    copying += sizes[lower] as f64 * NEIGHBOUR_COPY_SECONDS;
                }
            } else {
                let dearer = if self.by_neighbours(lower, sizes[lower]) {
                    NEIGHBOUR_LOOKUP_FACTOR
                } else {
                    1.0
                };
                lookups += CAPTURES_BY_SEEDS[level - lower] * dearer;
                held += sizes[lower] as f64 * self.disk_bytes_per_board;
            }
        }
        // Half the look-ups are the re-check's.
        let passes = (1.0 + self.recheck.share()) / 2.0;
        let extra = boards as f64 * lookups * passes * COMPACT_LOOKUP_SECONDS / self.threads as f64;
        LevelPlan {
            seconds: base + extra + copying / self.threads as f64,
            held: Some(held),
            copied: Some(copied),
        }
    }
}

/// What [`Costs::level`] plans for one level.
struct LevelPlan {
    /// Seconds.
    seconds: f64,
    /// Bytes held at its peak: its state, its copies and the compact files
    /// within reach it reads (`None` where the memory is unknown).
    held: Option<f64>,
    /// The lower levels it copies (`None` where every level is taken to be
    /// copied).
    copied: Option<Vec<usize>>,
}

/// What building some levels takes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    /// The levels to build, in order.
    pub levels: Vec<usize>,
    /// Their boards.
    pub boards: u64,
    /// Bytes of disk their files take.
    pub disk_bytes: u64,
    /// The peak of the working state of the level being built plus the
    /// lower levels it reads: with the memory known
    /// ([`Costs::with_memory`]) and compact files, the copies it can afford
    /// and the compact files of the others; else every lower level raw.
    pub peak_memory: u64,
    /// The largest working state alone: anonymous memory, which must fit
    /// in the memory available (the mapped files are page cache).
    pub working_memory: u64,
    /// Seconds, level by level (as `levels`).
    pub level_seconds: Vec<f64>,
    /// Seconds in all.
    pub seconds: f64,
}

impl Estimate {
    /// The seconds planned for `level` (`None` if it is not to be built).
    pub fn seconds_of(&self, level: usize) -> Option<f64> {
        let i = self.levels.iter().position(|&l| l == level)?;
        self.level_seconds.get(i).copied()
    }
}

/// The estimate for building the levels `n` with `!present[n]`, where
/// `sizes[n]` is the boards of level `n` (levels 0..sizes.len()).
pub fn estimate(sizes: &[u64], present: &[bool], costs: &Costs) -> Estimate {
    let mut e = Estimate::default();
    let mut below = 0.0;
    // The copies of the last level built, which the builder keeps for the
    // next (past a level already there).
    let mut kept: Option<Vec<usize>> = None;
    for (level, &boards) in sizes.iter().enumerate() {
        let file = boards as f64 * costs.disk_bytes_per_board;
        if !present.get(level).copied().unwrap_or(false) {
            let working = boards as f64 * costs.record_bytes_per_board;
            let LevelPlan {
                seconds,
                held,
                copied,
            } = costs.level(level, sizes, kept.as_deref());
            kept = copied;
            // Without the memory known, every lower level counts raw.
            let peak = held.unwrap_or(working + below);
            e.levels.push(level);
            e.boards += boards;
            e.disk_bytes += file.ceil() as u64;
            e.working_memory = e.working_memory.max(working.ceil() as u64);
            e.peak_memory = e.peak_memory.max(peak.ceil() as u64);
            e.level_seconds.push(seconds);
            e.seconds += seconds;
        }
        below += boards as f64 * costs.read_bytes_per_board;
    }
    e
}

/// Which levels 0..=`max_seeds` of `rules` in `dir` are present and whole
/// (header and size checked, not the checksum: the build checks that).
pub fn present_levels(dir: &Path, rules: TableRules, max_seeds: usize) -> Vec<bool> {
    (0..=max_seeds)
        .map(|level| TableFile::open(&table_path(dir, rules, level), rules, level, false).is_ok())
        .collect()
}

/// `bytes` as `432 MB`, `2.3 GB` (powers of 1000).
pub fn bytes(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.0} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.0} kB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

/// A count as `1.17 G`, `216 M`, `2,685` (below a million, in full).
pub fn count(n: u64) -> String {
    let x = n as f64;
    if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.0} M", x / 1e6)
    } else {
        thousands(n)
    }
}

/// `n` with thousands separators: `1,172,233,170`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Seconds as `5 min 27 s`, `1 h 05 min`, `42 s`, `0.4 s`.
pub fn duration(seconds: f64) -> String {
    if seconds < 10.0 {
        return format!("{seconds:.1} s");
    }
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, (s % 3600) / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn sizes(rules: TableRules, max: usize) -> Vec<u64> {
        (0..=max).map(|n| rules.level_size(n)).collect()
    }

    #[test]
    fn a_whole_build_matches_the_measured_runs() {
        let rules = TableRules::Oware(Variant::Abapa);
        let raw = Costs::new(rules, true, 2);
        // (The measured builds wrote no level in format version 5.)
        let compact = Costs::new(rules, false, 2).with_neighbours_from(49);
        // Levels 0..24: 1.17 G boards, 327 s, 2.3 GB raw, 0.59 GB compact.
        let s = sizes(rules, 24);
        let e = estimate(&s, &[], &raw);
        assert_eq!(e.boards, 1_165_184_475);
        assert_eq!(e.levels, (0..=24).collect::<Vec<_>>());
        assert!((e.seconds - 327.0).abs() < 10.0, "{}", e.seconds);
        assert_eq!(e.disk_bytes, 2 * 1_165_184_475);
        let c = estimate(&s, &[], &compact);
        // Measured: 591 MB (format version 3, levels 0..24).
        assert!(
            (c.disk_bytes as f64 / 0.591e9 - 1.0).abs() < 0.05,
            "{}",
            c.disk_bytes
        );
        assert_eq!(c.seconds, e.seconds);
        // Level 24 in version 5 (the default) takes its coding's time more.
        let v5 = estimate(&s, &[], &Costs::new(rules, false, 2));
        let coding = 382_628_610.0 * NEIGHBOUR_WRITE_SECONDS / 2.0;
        assert!(
            (v5.seconds - c.seconds - coding).abs() < 1e-6,
            "{}",
            v5.seconds
        );
        // Level 24's records and the raw levels 0..23 it reads; compact,
        // their copies a byte a board.
        let working = (382_628_610.0f64 * 3.125).ceil() as u64;
        assert_eq!(e.working_memory, working);
        assert_eq!(e.peak_memory, working + 2 * 782_555_865);
        assert_eq!(c.peak_memory, working + 782_555_865);
        // Levels 0..20: 53 s; 0..30: 65 min 33 s, 19 GB, under 24 GB.
        let e = estimate(&sizes(rules, 20), &[], &raw);
        assert!((e.seconds - 53.0).abs() < 2.0, "{}", e.seconds);
        let e = estimate(&sizes(rules, 30), &[], &raw);
        assert!((e.seconds - 3933.0).abs() < 60.0, "{}", e.seconds);
        assert_eq!(bytes(e.disk_bytes), "19.6 GB");
        assert!(e.peak_memory > 22_000_000_000 && e.peak_memory < 24_000_000_000);
        // One thread: twice as long.
        let one = estimate(&sizes(rules, 20), &[], &Costs::new(rules, true, 1));
        assert!((one.seconds - 106.0).abs() < 4.0, "{}", one.seconds);
    }

    #[test]
    fn levels_present_are_not_counted() {
        let rules = TableRules::Oware(Variant::Abapa);
        let costs = Costs::new(rules, true, 2);
        let s = sizes(rules, 24);
        let mut present = vec![true; 23];
        present.extend([false, false]);
        let e = estimate(&s, &present, &costs);
        assert_eq!(e.levels, [23, 24]);
        assert_eq!(e.boards, 264_623_580 + 382_628_610);
        assert_eq!(e.disk_bytes, 2 * (264_623_580 + 382_628_610));
        assert!((e.seconds - 76.7 - 111.6).abs() < 1.0, "{}", e.seconds);
        assert_eq!(e.level_seconds.len(), 2);
        // Everything there: nothing to do.
        let none = estimate(&s, &[true; 25], &costs);
        assert!(none.levels.is_empty());
        assert_eq!((none.boards, none.disk_bytes, none.peak_memory), (0, 0, 0));
        assert_eq!(none.seconds, 0.0);
    }

    #[test]
    fn one_byte_tables_and_mancala() {
        let awari = TableRules::Oware(Variant::Awari);
        assert_eq!(Costs::new(awari, true, 2).disk_bytes_per_board, 1.0);
        assert!(
            (Costs::new(awari, false, 2).disk_bytes_per_board - COMPACT_BITS_PER_BOARD / 8.0).abs()
                < 1e-9
        );
        let mancala = TableRules::Mancala {
            empty_capture: false,
        };
        assert_eq!(Costs::new(mancala, true, 2).record_bytes_per_board, 1.0);
    }

    /// The project's machine, idle: 24,683,772 kB (`MemTotal`), a quarter
    /// kept free.
    const HERE: u64 = 24_683_772 * 1024 * 3 / 4;

    /// A machine of `gib` GiB nominal, with as much of it reported as here
    /// (24,683,772 kB of 24 GiB) and a quarter kept free.
    fn machine(gib: u64) -> u64 {
        HERE / 24 * gib
    }

    /// The costs of a compact Abapa build on 2 threads with `usable` bytes
    /// and `limit`, its lower levels in format version 4 (none coded by
    /// neighbours), as the builds measured read them.
    fn abapa_v4(usable: u64, limit: Option<u64>) -> Costs {
        Costs::new(TableRules::Oware(Variant::Abapa), false, 2)
            .with_memory(Some(usable), limit)
            .with_neighbours_from(49)
    }

    /// A large level's settling takes its buckets' buffers where the memory
    /// to spare has room for them, and tells each parent at once where it
    /// has not; the plan's peak counts the buffers only where they fit.
    #[test]
    fn the_buckets_take_memory_to_spare_first() {
        use crate::tb::build::{Settling, settling_bytes, working_memory};
        let s = sizes(TableRules::Oware(Variant::Abapa), 30);
        let buffers = settling_bytes(s[30]);
        // A tell of 16 bytes for every 128 boards, six times over.
        assert_eq!(buffers, s[30] / 8 * 6);
        assert_eq!(settling_bytes(s[24]), 0, "level 24 is settled at once");
        for (level, spare, expected) in [
            (30, 0, Settling::Direct),
            (30, buffers - 1, Settling::Direct),
            (30, buffers, Settling::Bucketed),
            (30, u64::MAX, Settling::Bucketed),
            (25, u64::MAX, Settling::Bucketed),
            (24, u64::MAX, Settling::Direct),
        ] {
            assert_eq!(Settling::within(level, spare), expected, "{level} {spare}");
        }
        let peak = |limit: u64, buckets: bool| {
            let costs = Costs {
                settling_buffers: buckets,
                ..abapa_v4(HERE, Some(limit))
            };
            estimate(&s, &[], &costs).peak_memory
        };
        // Room for the buffers and more: they add to the peak, and the
        // copies the rest affords are the same.
        let roomy = 20_000_000_000;
        assert_eq!(peak(roomy, true), peak(roomy, false) + buffers);
        // Room for half of them: none taken.
        let short = working_memory(30) + buffers / 2;
        assert_eq!(peak(short, true), peak(short, false));
    }

    #[test]
    fn the_memory_sets_the_copies_and_the_time() {
        let rules = TableRules::Oware(Variant::Abapa);
        let s = sizes(rules, 32);
        let on = abapa_v4;
        // No limit: level 30 copies every level a capture reaches and goes
        // at the rate of the raw build (0..30: 65 min 33 s).
        let free = on(HERE, None);
        assert_eq!(free.copies(30, &s), Some((12..=28).rev().collect()));
        let whole = estimate(&s[..=30], &[], &free);
        assert!((whole.seconds - 3933.0).abs() < 60.0, "{}", whole.seconds);
        // Under 16 GB, a byte a board, it still copies them all, where
        // copies of the raw entries (as the builds before 2026-12-07 made
        // them) left some to be read compact: slower, with more than its
        // own state and the copies' files in memory, and within the limit.
        // Measured: 1,837 s for level 30 (the build of 2026-12-04, which
        // copied levels 27 and 28).
        let narrow = on(HERE, Some(16_000_000_000));
        assert_eq!(narrow.copies(30, &s), free.copies(30, &s));
        // (That build settled every level told at once: no buffers.)
        let tight = Costs {
            read_bytes_per_board: 2.0,
            settling_buffers: false,
            ..narrow
        };
        let copied = tight.copies(30, &s).unwrap();
        assert!(copied.contains(&28) && !copied.contains(&24), "{copied:?}");
        let limited = estimate(&s[..=30], &[], &tight);
        assert!(limited.seconds > whole.seconds);
        assert!(estimate(&s[..=30], &[], &narrow).seconds < limited.seconds);
        let state = (s[30] as f64 * RECORD_BYTES_PER_BOARD) as u64;
        assert!(
            limited.peak_memory > state + 4_000_000_000 && limited.peak_memory <= 16_000_000_000,
            "{}",
            limited.peak_memory
        );
        let level30 = limited.seconds_of(30).unwrap();
        assert!((level30 / 1837.0 - 1.0).abs() < 0.2, "{level30}");
        // Level 32 under 22 GB: what the machine has to spare binds before
        // the limit, and its 14.7 GB of records and the compact files within
        // reach leave nothing for copies. Measured: 7,201 s, no copies.
        let level32 = on(HERE, Some(22_000_000_000));
        assert_eq!(level32.copies(32, &s), Some(Vec::new()));
        let last = estimate(&s, &[], &level32).seconds_of(32).unwrap();
        assert!((last / 7201.0 - 1.0).abs() < 0.1, "{last}");
        // Levels 24..31 in version 5 make its look-ups into them dearer.
        let v5 = level32.with_neighbours_from(24);
        let dearer = estimate(&s, &[], &v5).seconds_of(32).unwrap();
        assert!(dearer > 1.5 * last, "{dearer} against {last}");
        // More memory is never slower; on 64 GB level 32 copies every
        // level in reach.
        let mut before = f64::INFINITY;
        for gib in [24, 32, 64, 128] {
            let e = estimate(&s, &[], &on(machine(gib), None));
            assert!(e.seconds <= before, "{gib} GiB: {}", e.seconds);
            before = e.seconds;
        }
        // Where the kernel does not say, the build copies nothing.
        assert_eq!(on(0, None).copies(30, &s), Some(Vec::new()));
        let big = on(machine(64), None);
        assert_eq!(big.copies(32, &s), Some((14..=30).rev().collect()));
        assert_eq!(
            estimate(&s, &[], &big).seconds_of(32),
            Some(big.seconds(32, s[32]))
        );
        // With every level in reach copied, a level written in version 5
        // costs its coding's extra time and the decoding of its copies of
        // version-5 levels (14..30 here, all of a million boards or more);
        // a level under a million boards (written in version 4 whatever the
        // flag) costs nothing more.
        let big5 = big.with_neighbours_from(10);
        let below: Vec<bool> = (0..=32).map(|level| level < 32).collect();
        let alone = estimate(&s, &below, &big5).seconds_of(32).unwrap();
        let extra = |copied: u64| {
            (s[32] as f64 * NEIGHBOUR_WRITE_SECONDS + copied as f64 * NEIGHBOUR_COPY_SECONDS) / 2.0
        };
        let own = big.seconds(32, s[32]);
        assert!(
            (alone - own - extra(s[14..=30].iter().sum())).abs() < 1e-6,
            "{alone}"
        );
        // Built after level 31, it decodes only level 30: level 31 copied
        // the others, and they were kept.
        let after = estimate(&s, &[], &big5).seconds_of(32).unwrap();
        assert!((after - own - extra(s[30])).abs() < 1e-6, "{after}");
        // Past a level already there, what the last level built copied is
        // still kept: level 32 after level 30 decodes levels 29 and 30.
        let skip31: Vec<bool> = (0..=32).map(|level| level == 31).collect();
        let past = estimate(&s, &skip31, &big5).seconds_of(32).unwrap();
        assert!((past - own - extra(s[29] + s[30])).abs() < 1e-6, "{past}");
        assert_eq!(big5.coding_by_neighbours(10, s[10]), 0.0);
        assert!(big5.coding_by_neighbours(16, s[16]) > 0.0);
        // One thread: twice the time of two, copies and all.
        let one = Costs {
            threads: 1,
            ..tight
        };
        let single = estimate(&s[..=30], &[], &one).seconds;
        assert!((single / limited.seconds - 2.0).abs() < 1e-9, "{single}");
    }

    #[test]
    fn a_sampled_recheck_takes_most_of_the_recheck_off() {
        let rules = TableRules::Oware(Variant::Abapa);
        let s = sizes(rules, 32);
        let on = |recheck, limit| abapa_v4(HERE, limit).with_recheck(recheck);
        // Every level in reach copied: the rate alone, less 15/16 of the
        // re-check's share.
        let whole = estimate(&s[..=30], &[], &on(Recheck::All, None)).seconds;
        let sampled = estimate(&s[..=30], &[], &on(Recheck::Sample, None)).seconds;
        let kept = 1.0 - CHECK_SHARE * (1.0 - Recheck::Sample.share());
        assert!((sampled / whole - kept).abs() < 1e-9, "{sampled} {whole}");
        // Under 12 GB the look-ups into compact files lose their re-check
        // half too: more off than the rate alone.
        let limit = Some(12_000_000_000);
        let whole = estimate(&s[..=30], &[], &on(Recheck::All, limit)).seconds;
        let sampled = estimate(&s[..=30], &[], &on(Recheck::Sample, limit)).seconds;
        assert!(sampled < kept * whole, "{sampled} {whole}");
        // Race tables spend more of a level on their re-check.
        let race = TableRules::MancalaRace {
            empty_capture: false,
            total: 60,
        };
        let c = Costs::new(race, false, 2);
        let ratio = c.with_recheck(Recheck::Sample).seconds(20, 1 << 30) / c.seconds(20, 1 << 30);
        assert!(
            (ratio - (1.0 - RACE_CHECK_SHARE * (1.0 - Recheck::Sample.share()))).abs() < 1e-9,
            "{ratio}"
        );
        // The manual's machines, each to its last level: a third or so off.
        for (gib, last) in [(24, 32), (32, 33), (64, 36), (128, 38)] {
            let s = sizes(rules, last);
            let at = |recheck| {
                estimate(&s, &[], &abapa_v4(machine(gib), None).with_recheck(recheck)).seconds
            };
            let ratio = at(Recheck::Sample) / at(Recheck::All);
            assert!(ratio > 0.6 && ratio < kept, "{gib} GiB: {ratio}");
        }
    }

    #[test]
    fn raw_and_mancala_builds_have_no_copies_to_plan() {
        let abapa = TableRules::Oware(Variant::Abapa);
        let mancala = TableRules::Mancala {
            empty_capture: false,
        };
        // (rules, costs, bytes a board of a lower level read: raw Abapa's
        // pairs, Mancala's byte, compact Abapa's copies a byte a board)
        for (rules, costs, read) in [
            (
                abapa,
                Costs::new(abapa, true, 2).with_memory(Some(HERE), Some(16_000_000_000)),
                2,
            ),
            (
                mancala,
                Costs::new(mancala, false, 2).with_memory(Some(HERE), None),
                1,
            ),
            (abapa, Costs::new(abapa, false, 2), 1),
        ] {
            let s = sizes(rules, 30);
            assert_eq!(costs.copies(30, &s), None);
            let e = estimate(&s, &[], &costs);
            let at_rates: f64 = (0..=30)
                .map(|l| costs.seconds(l, s[l]) + costs.coding_by_neighbours(l, s[l]))
                .sum();
            // Only Oware's compact levels are coded by neighbours.
            let coded = (0..=30).any(|l| costs.coding_by_neighbours(l, s[l]) > 0.0);
            assert_eq!(coded, rules == abapa && costs.compact_lookups);
            assert_eq!(e.seconds, at_rates);
            // Every lower level counted as it is read.
            let below = s[..30].iter().sum::<u64>() * read;
            let state = (s[30] as f64 * costs.record_bytes_per_board).ceil() as u64;
            assert_eq!(e.peak_memory, state + below);
        }
    }

    #[test]
    fn numbers_for_people() {
        assert_eq!(thousands(1_172_233_170), "1,172,233,170");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(0), "0");
        assert_eq!(count(1_165_184_475), "1.17 G");
        assert_eq!(count(216_135_140), "216 M");
        assert_eq!(count(2685), "2,685");
        assert_eq!(bytes(432_000_000), "432 MB");
        assert_eq!(bytes(2_330_368_950), "2.3 GB");
        assert_eq!(duration(327.0), "5 min 27 s");
        assert_eq!(duration(3933.0), "1 h 05 min");
        assert_eq!(duration(42.4), "42 s");
        assert_eq!(duration(0.42), "0.4 s");
    }
}
