//! Endgame tables: the builder against a deliberately simple solver, the
//! published check figures, resumption, corruption and rules checks.

use std::collections::HashMap;
use std::path::Path;

use indicatif::ProgressBar;
use oware::tb::build::LowerLevels;
use oware::tb::index::{is_indexed, level_size, rank};
use oware::tb::{
    BuildOptions, TableError, TableFile, TableFormat, Tablebase, Value, build, table_path,
};
use oware::{Position, Side, Variant};

fn build_quiet(dir: &Path, variant: Variant, max: usize) -> Vec<oware::tb::LevelSummary> {
    build_in(dir, variant, max, TableFormat::COMPACT)
}

/// A build in the raw format, for the tests that read or damage the raw
/// layout (the compact one has its own, tests/compact.rs).
fn build_raw_quiet(dir: &Path, variant: Variant, max: usize) -> Vec<oware::tb::LevelSummary> {
    build_in(dir, variant, max, TableFormat::Raw)
}

fn build_in(
    dir: &Path,
    variant: Variant,
    max: usize,
    format: TableFormat,
) -> Vec<oware::tb::LevelSummary> {
    let opts = BuildOptions {
        dir,
        variant,
        max_seeds: max,
        progress: false,
        format,
        recheck: oware::tb::Recheck::All,
    };
    build(&opts, |_| {}).expect("build")
}

/// Settling a level with its tells sorted into buckets gives the values of
/// settling each parent at once, and values the re-check of every board
/// accepts, for every rule set. Level 11's tells (some 4.5 M) overflow the
/// smallest buffers (65,536 tells) many times over, so the level is
/// settled in many rounds of applied tells; Abapa's level 13 (2.46 M
/// boards) spans three buckets of 2^20 boards.
#[test]
fn bucketed_settling_gives_the_direct_values() {
    use oware::tb::Recheck;
    use oware::tb::build::{Settling, WithLevel, check_level, solve_level_as};
    let bar = ProgressBar::hidden();
    for variant in Variant::ALL {
        let levels: &[usize] = if variant == Variant::Abapa {
            &[11, 13]
        } else {
            &[11]
        };
        let dir = tempfile::tempdir().expect("temp dir");
        build_quiet(dir.path(), variant, levels[levels.len() - 1] - 1);
        let tables = Tablebase::open(dir.path(), variant).expect("open");
        for &level in levels {
            let solve = |settling| {
                solve_level_as(level, variant, &tables, &bar, settling)
                    .expect("memory")
                    .values
            };
            let direct = solve(Settling::Direct);
            let bucketed = solve(Settling::Bucketed);
            assert_eq!(direct.len(), bucketed.len(), "{variant} {level}");
            let differing = direct
                .iter()
                .zip(bucketed.iter())
                .filter(|(d, b)| d != b)
                .count();
            assert_eq!(differing, 0, "{variant} {level}: bytes that differ");
            assert!(
                bucketed.iter().any(|&v| v > 0),
                "{variant} {level}: all zero"
            );
            let with_level = WithLevel {
                lower: &tables,
                level,
                pairs: &bucketed,
            };
            check_level(level, variant, &with_level, &bar, Recheck::All).expect("fixpoint");
        }
    }
}

/// The phases of a built level add up to no more than its time; a level
/// already built spent nothing in any.
#[test]
fn phases_account_for_the_time() {
    let dir = tempfile::tempdir().unwrap();
    let first = build_quiet(dir.path(), Variant::Abapa, 9);
    for s in &first {
        let p = s.phases;
        let parts = [p.copy, p.moves, p.settle, p.check, p.write];
        assert!(parts.iter().all(|&t| t >= 0.0), "level {}: {p:?}", s.level);
        let sum: f64 = parts.iter().sum();
        assert!(
            sum <= s.seconds + 1e-6,
            "level {}: {p:?} over {}",
            s.level,
            s.seconds
        );
        assert!(p.settle > 0.0 && p.check > 0.0, "level {}: {p:?}", s.level);
    }
    for s in build_quiet(dir.path(), Variant::Abapa, 9) {
        assert_eq!(s.phases, oware::tb::Phases::default(), "level {}", s.level);
    }
}

/// Every board with `n` seeds (all 12-part compositions).
fn compositions(n: u8) -> Vec<[u8; 12]> {
    let mut out = vec![];
    fn rec(pit: usize, left: u8, b: &mut [u8; 12], out: &mut Vec<[u8; 12]>) {
        if pit == 11 {
            b[11] = left;
            out.push(*b);
            return;
        }
        for s in 0..=left {
            b[pit] = s;
            rec(pit + 1, left - s, b, out);
        }
    }
    rec(0, n, &mut [0; 12], &mut out);
    out
}

/// The simple solver: plain value iteration from all zeros straight from
/// the definitions (RULES.md §4), over a `HashMap` of every indexed board,
/// using only the public `Position` API. Iterating the monotone equations
/// from the bottom reaches their least fixpoint.
fn simple_solve(variant: Variant, max: u8) -> HashMap<[u8; 12], Value> {
    let mut values: HashMap<[u8; 12], Value> = HashMap::new();
    for n in 0..=max {
        let boards: Vec<[u8; 12]> = compositions(n).into_iter().filter(is_indexed).collect();
        for b in &boards {
            values.insert(*b, Value::default());
        }
        loop {
            let mut changed = false;
            for b in &boards {
                let pos = Position::new(*b, [0, 0], Side::South).unwrap();
                let moves = pos.legal_moves(variant);
                let new = if moves.is_empty() {
                    if b[..6].iter().all(|&s| s == 0) {
                        Value::new(0, n)
                    } else {
                        Value::new(n, 0)
                    }
                } else {
                    let mut x = 0u8;
                    let mut y = u8::MAX;
                    for &mv in moves.iter() {
                        let (next, c) = pos.after(mv, variant);
                        let child_board: [u8; 12] =
                            std::array::from_fn(|i| next.pits()[(i + 6) % 12]);
                        let child = values[&child_board];
                        let (cx, cy) = match variant {
                            Variant::Awari => {
                                let d = i16::from(c)
                                    - (i16::from(child.mover) - i16::from(child.opponent));
                                (d.max(0) as u8, (-d).max(0) as u8)
                            }
                            _ => (c + child.opponent, child.mover),
                        };
                        x = x.max(cx);
                        y = y.min(cy);
                    }
                    Value::new(x, y)
                };
                if values[b] != new {
                    values.insert(*b, new);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }
    values
}

#[test]
fn builder_agrees_with_the_simple_solver_up_to_level_8() {
    for variant in [
        Variant::Abapa,
        Variant::Awari,
        Variant::GrandSlamForbidden,
        Variant::CaptureAndEnd,
    ] {
        let dir = tempfile::tempdir().unwrap();
        build_quiet(dir.path(), variant, 8);
        let tb = Tablebase::open(dir.path(), variant).unwrap();
        let simple = simple_solve(variant, 8);
        let mut compared = 0;
        for (board, &expected) in &simple {
            let n = board.iter().map(|&s| s as usize).sum::<usize>();
            assert_eq!(
                tb.value_at(n, rank(board, n)),
                expected,
                "{variant} {board:?}"
            );
            compared += 1;
        }
        assert_eq!(compared as u64, (0..=8).map(level_size).sum::<u64>());
    }
}

#[test]
fn abapa_check_figures() {
    let dir = tempfile::tempdir().unwrap();
    let summaries = build_quiet(dir.path(), Variant::Abapa, 8);
    assert_eq!((summaries[4].stats.exact, summaries[4].boards), (994, 1365));
    assert_eq!(
        (summaries[8].stats.exact, summaries[8].boards),
        (46_097, 75_504)
    );
}

#[test]
#[ignore = "builds Awari levels 0..16 (about 20 s in release, minutes in debug)"]
fn awari_check_position() {
    let dir = tempfile::tempdir().unwrap();
    build_quiet(dir.path(), Variant::Awari, 16);
    let tb = Tablebase::open(dir.path(), Variant::Awari).unwrap();
    let pos: Position = "1-1-1-1-1-2-4-2-3-0-0-0-0-0-S".parse().unwrap();
    let probe = oware::tb::probe::probe(&tb, &pos).unwrap();
    assert_eq!(probe.score, Some(0));
    let moves: Vec<i8> = probe.moves.iter().map(|m| m.score.unwrap()).collect();
    assert_eq!(moves, vec![-1, -1, -2, -2, -2, 0]);
}

fn files(dir: &Path, variant: Variant, max: usize) -> Vec<Vec<u8>> {
    (0..=max)
        .map(|l| std::fs::read(table_path(dir, variant, l)).unwrap())
        .collect()
}

#[test]
fn one_and_two_threads_write_identical_files() {
    // SAFETY (of the test): no other test reads this variable.
    unsafe { std::env::set_var("SOURCE_DATE_EPOCH", "1700000000") };
    let mut outputs = vec![];
    for threads in [1, 2] {
        let dir = tempfile::tempdir().unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| build_quiet(dir.path(), Variant::Abapa, 10));
        outputs.push(files(dir.path(), Variant::Abapa, 10));
    }
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn resume_keeps_good_levels_and_rebuilds_bad_ones() {
    let dir = tempfile::tempdir().unwrap();
    build_raw_quiet(dir.path(), Variant::Abapa, 7);
    let before = files(dir.path(), Variant::Abapa, 7);
    // An interrupted build: level 5 lost, level 6 truncated, a stray temp file.
    std::fs::remove_file(table_path(dir.path(), Variant::Abapa, 5)).unwrap();
    let six = table_path(dir.path(), Variant::Abapa, 6);
    let len = std::fs::metadata(&six).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&six)
        .unwrap()
        .set_len(len - 100)
        .unwrap();
    std::fs::write(
        table_path(dir.path(), Variant::Abapa, 8).with_extension("owt.tmp"),
        b"junk",
    )
    .unwrap();
    let summaries = build_raw_quiet(dir.path(), Variant::Abapa, 8);
    let rebuilt: Vec<usize> = summaries
        .iter()
        .filter(|s| s.built)
        .map(|s| s.level)
        .collect();
    assert_eq!(
        rebuilt,
        vec![5, 6, 7, 8]
            .into_iter()
            .filter(|&l| l != 7)
            .collect::<Vec<_>>()
    );
    let after = files(dir.path(), Variant::Abapa, 7);
    for level in 0..=7 {
        // Same values (headers may differ in their time stamp).
        let a = TableFile::open(
            &table_path(dir.path(), Variant::Abapa, level),
            Variant::Abapa,
            level,
            true,
        )
        .unwrap();
        assert_eq!(a.header().checksum, {
            let n = before[level].len();
            let b = &before[level];
            assert_eq!(after[level].len(), n);
            crc32fast::hash(&b[n - a.payload().len()..])
        });
    }
    assert!(
        !table_path(dir.path(), Variant::Abapa, 8)
            .with_extension("owt.tmp")
            .exists()
    );
}

#[test]
fn corruption_and_wrong_rules_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    build_raw_quiet(dir.path(), Variant::Abapa, 6);
    let path = table_path(dir.path(), Variant::Abapa, 6);
    // A table of other rules, renamed to pass for Awari.
    let fake = table_path(dir.path(), Variant::Awari, 6);
    std::fs::copy(&path, &fake).unwrap();
    let err = TableFile::open(&fake, Variant::Awari, 6, false)
        .err()
        .unwrap();
    assert!(matches!(err, TableError::Mismatch { .. }), "{err}");
    assert!(err.to_string().contains("built for rules abapa"), "{err}");
    // The wrong level.
    let err = TableFile::open(&path, Variant::Abapa, 5, false)
        .err()
        .unwrap();
    assert!(err.to_string().contains("holds level 6"), "{err}");
    // One flipped payload byte: the header still reads, the checksum fails.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    assert!(TableFile::open(&path, Variant::Abapa, 6, false).is_ok());
    let err = TableFile::open(&path, Variant::Abapa, 6, true)
        .err()
        .unwrap();
    assert!(err.to_string().contains("checksum mismatch"), "{err}");
    // A damaged header.
    bytes[3] ^= 0xFF;
    std::fs::write(&path, &bytes).unwrap();
    let err = TableFile::open(&path, Variant::Abapa, 6, false)
        .err()
        .unwrap();
    assert!(err.to_string().contains("bad magic"), "{err}");
    // Truncated.
    std::fs::write(&path, &bytes[..20]).unwrap();
    assert!(matches!(
        TableFile::open(&path, Variant::Abapa, 6, false),
        Err(TableError::Corrupt { .. })
    ));
    // Empty.
    std::fs::write(&path, b"").unwrap();
    assert!(matches!(
        TableFile::open(&path, Variant::Abapa, 6, false),
        Err(TableError::Corrupt { .. })
    ));
}

#[test]
fn fixpoint_recheck_catches_a_wrong_value() {
    use oware::tb::Recheck;
    use oware::tb::build::check_level;
    // Level 10: 351,351 boards, 11 chunks of 32,768.
    let level = 10;
    let dir = tempfile::tempdir().unwrap();
    build_quiet(dir.path(), Variant::Abapa, level);
    let tb = Tablebase::open(dir.path(), Variant::Abapa).unwrap();
    let ok = oware::tb::verify::verify_level(&tb, level, None, &ProgressBar::hidden()).unwrap();
    assert_eq!(ok, level_size(level));
    // A solved level with one value changed fails the re-check.
    struct OneWrong<'a>(&'a Tablebase, usize, u64);
    impl LowerLevels for OneWrong<'_> {
        fn value_at(&self, level: usize, r: u64) -> Value {
            let v = self.0.value_at(level, r);
            if (level, r) == (self.1, self.2) {
                Value::new(v.mover ^ 1, v.opponent)
            } else {
                v
            }
        }
        fn prefetch(&self, level: usize, r: u64) {
            LowerLevels::prefetch(self.0, level, r)
        }
    }
    let bar = ProgressBar::hidden();
    // A board whose parents in the level all lie outside the first chunk,
    // the only one a sample covers here: its wrong value misleads none of
    // the boards the sample checks.
    const CHUNK: u64 = 32_768;
    let outside = (CHUNK..level_size(level))
        .find(|&r| {
            let mut parents = vec![];
            oware::tb::board::for_each_parent(
                &oware::tb::index::unrank(r, level),
                Variant::Abapa,
                |p| parents.push(oware::tb::index::rank(&p, level)),
            );
            !parents.is_empty() && parents.iter().all(|&p| p >= CHUNK)
        })
        .unwrap();
    // (rank changed, re-check, caught): a sample covers the first chunk and
    // not the others.
    for (rank, recheck, caught) in [
        (1234, Recheck::All, true),
        (1234, Recheck::Sample, true),
        (outside, Recheck::All, true),
        (outside, Recheck::Sample, false),
        (level_size(level) - 1, Recheck::All, true),
    ] {
        let wrong = OneWrong(&tb, level, rank);
        let result = check_level(level, Variant::Abapa, &wrong, &bar, recheck);
        match result {
            // The board changed or a parent it misleads (the chunks are
            // checked in parallel: either may be met first).
            Err(e) => {
                assert!(caught, "{rank} {recheck:?}: {e}");
                assert_eq!(e.level, level);
            }
            Ok(()) => assert!(!caught, "{rank} {recheck:?} passed"),
        }
    }
    // The untouched level passes either way.
    for recheck in [Recheck::All, Recheck::Sample] {
        assert!(check_level(level, Variant::Abapa, &tb, &bar, recheck).is_ok());
    }
}

#[test]
fn a_search_opens_only_the_levels_up_to_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    build_quiet(dir.path(), Variant::Abapa, 6);
    let tb = Tablebase::open_for_search(dir.path(), Variant::Abapa, 4).unwrap();
    for level in 0..=6 {
        assert_eq!(tb.has_level(level), level <= 4, "level {level}");
    }
    assert_eq!(tb.complete_up_to(), Some(4));
    let all = Tablebase::open(dir.path(), Variant::Abapa).unwrap();
    assert_eq!(all.complete_up_to(), Some(6));
    // The levels it does open hold the same values.
    for r in 0..level_size(4) {
        assert_eq!(tb.value_at(4, r), all.value_at(4, r));
    }
}

#[test]
fn scratch_memory_starts_zeroed_and_truncation_keeps_the_prefix() {
    use oware::tb::scratch::Scratch;
    // More than a huge page, so that freeing whole pages past the end is
    // exercised; the last byte lands in the middle of a page.
    let len = 3 * (1 << 21) + 12_345;
    let mut scratch = Scratch::zeroed(len).expect("map");
    assert_eq!(scratch.len(), len);
    assert!(scratch.iter().all(|&b| b == 0));
    for (i, b) in scratch.iter_mut().enumerate() {
        *b = (i % 251) as u8;
    }
    let kept = (1 << 21) + 777;
    scratch.truncate(kept);
    assert_eq!(scratch.len(), kept);
    assert!(
        scratch
            .iter()
            .enumerate()
            .all(|(i, &b)| b == (i % 251) as u8)
    );
    // Truncating to more than is there changes nothing.
    scratch.truncate(len);
    assert_eq!(scratch.len(), kept);
    assert!(Scratch::zeroed(0).expect("map").is_empty());
}

#[test]
fn copies_of_lower_levels_read_as_the_maps() {
    use oware::tb::resident::{Resident, copy_budget};
    // No memory is to spare beyond what the machine has.
    assert_eq!(copy_budget(u64::MAX), 0);
    for variant in [Variant::Abapa, Variant::Awari] {
        let dir = tempfile::tempdir().expect("temp dir");
        build_raw_quiet(dir.path(), variant, 9);
        let tables = Tablebase::open(dir.path(), variant).expect("open");
        // Level 9's captures reach levels 0..7, all of them copied.
        let all = Resident::copying(tables.levels(), 9, u64::MAX, 0).expect("copies");
        let expected: u64 = (0..=7)
            .map(|l| tables.table(l).expect("built").payload().len() as u64)
            .sum();
        assert_eq!(all.copied_bytes(), expected, "{variant}");
        // A budget that fits level 7 alone copies only that one. (The
        // copies `all` kept are let go first, so that each plan decodes
        // its own.)
        let kept = tables.levels().kept_copies();
        kept.keep_for(None);
        let one = tables.table(7).expect("built").payload().len() as u64;
        let nearest = Resident::copying(tables.levels(), 9, one, 0).expect("copies");
        assert_eq!(nearest.copied_bytes(), one, "{variant}");
        kept.keep_for(None);
        let none = Resident::copying(tables.levels(), 9, 0, 0).expect("copies");
        assert_eq!(none.copied_bytes(), 0, "{variant}");
        for level in 0..=8 {
            for r in 0..level_size(level) {
                let mapped = tables.value_at(level, r);
                for resident in [&all, &nearest, &none] {
                    resident.prefetch(level, r);
                    assert_eq!(resident.value_at(level, r), mapped, "{variant} {level} {r}");
                }
            }
        }
    }
}

/// Abapa's levels 0..=`max` built compact in format version 4 (no level
/// coded by neighbours) into `dir`, and opened.
fn build_version4(dir: &Path, max: usize) -> Tablebase {
    let version4 = TableFormat::Compact {
        neighbours_from: 49,
    };
    build_in(dir, Variant::Abapa, max, version4);
    Tablebase::open(dir, Variant::Abapa).expect("open")
}

/// A compact level is copied a byte a board, and reads as its file does.
#[test]
fn compact_levels_are_copied_a_byte_a_board() {
    use oware::tb::resident::Resident;
    let dir = tempfile::tempdir().expect("temp dir");
    let tables = build_version4(dir.path(), 9);
    assert!(tables.table(7).expect("built").is_compact());
    let all = Resident::copying(tables.levels(), 9, u64::MAX, 0).expect("copies");
    let boards: u64 = (0..=7).map(level_size).sum();
    // A byte a board, and a few more for boards of the rarest entries.
    assert!(
        all.copied_bytes() >= boards && all.copied_bytes() < boards + boards / 8,
        "{} bytes for {boards} boards",
        all.copied_bytes()
    );
    for level in 0..=8 {
        for r in 0..level_size(level) {
            all.prefetch(level, r);
            assert_eq!(
                all.value_at(level, r),
                tables.value_at(level, r),
                "{level} {r}"
            );
        }
    }
}

/// The copies a level takes are kept for the next one: those in its reach
/// are not decoded again, and read as the files do.
#[test]
fn copies_are_kept_for_the_next_level() {
    use oware::tb::resident::Resident;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut tables = build_version4(dir.path(), 11);
    let levels = tables.levels();
    let kept = levels.kept_copies();
    let nine = Resident::copying(levels, 9, u64::MAX, 0).expect("copies");
    assert_eq!(nine.copied_levels(), (0..=7).collect::<Vec<_>>());
    assert!(nine.reused_levels().is_empty());
    drop(nine);
    assert_eq!(kept.levels(), (0..=7).collect::<Vec<_>>());
    let ten = Resident::copying(levels, 10, u64::MAX, 0).expect("copies");
    assert_eq!(ten.copied_levels(), (0..=8).collect::<Vec<_>>());
    assert_eq!(ten.reused_levels(), &(0..=7).collect::<Vec<_>>()[..]);
    for level in 0..=9 {
        for r in 0..level_size(level) {
            ten.prefetch(level, r);
            assert_eq!(
                ten.value_at(level, r),
                tables.value_at(level, r),
                "{level} {r}"
            );
        }
    }
    drop(ten);
    // A level opened again lets go of its copy: it may be another file.
    tables.load(7, false).expect("load");
    let levels = tables.levels();
    let kept = levels.kept_copies();
    let before = kept.levels();
    assert_eq!(before, [0, 1, 2, 3, 4, 5, 6, 8]);
    // A plan with copies kept is the one made with none (here the budget
    // holds level 9 and half of what is kept), and the kept copies it
    // leaves out are let go.
    let budget = level_size(9) + kept.bytes() / 2;
    let eleven = Resident::copying(levels, 11, budget, 0).expect("copies");
    let fresh_tables = Tablebase::open(dir.path(), Variant::Abapa).expect("open");
    let fresh = Resident::copying(fresh_tables.levels(), 11, budget, 0).expect("copies");
    assert!(fresh.reused_levels().is_empty());
    assert_eq!(eleven.copied_levels(), fresh.copied_levels());
    assert!(eleven.copied_levels().contains(&9));
    assert!(
        before.iter().any(|l| !eleven.copied_levels().contains(l)),
        "{before:?} all kept in {:?}",
        eleven.copied_levels()
    );
    let reused: Vec<usize> = before
        .iter()
        .copied()
        .filter(|l| eleven.copied_levels().contains(l))
        .collect();
    assert_eq!(eleven.reused_levels(), &reused[..]);
    assert_eq!(kept.levels(), eleven.copied_levels());
    drop(eleven);
    // After the last level, nothing is kept.
    kept.keep_for(None);
    assert_eq!(kept.bytes(), 0);
    assert!(kept.levels().is_empty());
}

/// Kilobytes of `path`'s pages resident in this process, from
/// `/proc/self/smaps` (every mapping of the file summed).
#[cfg(target_os = "linux")]
fn resident_kib_of(path: &Path) -> u64 {
    let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps");
    let name = path.to_str().expect("utf-8 path");
    let mut ours = false;
    let mut kib = 0;
    for line in smaps.lines() {
        // A mapping's first line starts with its address range.
        let range = line.split_whitespace().next().is_some_and(|first| {
            first.contains('-') && first.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
        });
        if range {
            ours = line.ends_with(name);
        } else if ours && let Some(rss) = line.strip_prefix("Rss:") {
            kib += rss
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .expect("kB");
        }
    }
    kib
}

#[test]
#[cfg(target_os = "linux")]
fn released_pages_leave_the_resident_memory_and_read_the_same() {
    for format in [TableFormat::Raw, TableFormat::COMPACT] {
        let dir = tempfile::tempdir().expect("temp dir");
        build_in(dir.path(), Variant::Abapa, 10, format);
        let path = table_path(dir.path(), Variant::Abapa, 10);
        let file = TableFile::open(&path, Variant::Abapa, 10, false).expect("open");
        let read_all = || {
            (0..level_size(10))
                .map(|r| u64::from(file.entry(r)))
                .sum::<u64>()
        };
        let before = read_all();
        let touched = resident_kib_of(&path);
        assert!(
            touched * 1024 >= file.file_bytes() / 2,
            "{format:?}: {touched} KiB resident"
        );
        file.release_pages();
        assert_eq!(resident_kib_of(&path), 0, "{format:?}");
        assert_eq!(read_all(), before, "{format:?}");
    }
}

#[test]
fn a_failed_write_keeps_the_old_file_and_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    build_raw_quiet(dir.path(), Variant::Abapa, 4);
    let path = table_path(dir.path(), Variant::Abapa, 4);
    let before = std::fs::read(&path).unwrap();
    let file = TableFile::open(&path, Variant::Abapa, 4, true).unwrap();
    let (header, payload) = (file.header().clone(), file.payload().to_vec());
    drop(file);
    // The disk fills up halfway through the payload.
    let err = oware::tb::file::write_table(&path, &header, |out| {
        out.write_all(&payload[..payload.len() / 2])?;
        Err(std::io::Error::other("No space left on device"))
    })
    .unwrap_err();
    assert!(matches!(err, TableError::Io { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.contains(&path.display().to_string()) && message.contains("No space left"),
        "{message}"
    );
    assert!(!path.with_extension("owt.tmp").exists());
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // The same write, completed, gives the same file back.
    oware::tb::file::write_table(&path, &header, |out| out.write_all(&payload)).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn impossible_values_under_a_fitting_checksum_are_named_not_counted() {
    // Each case: rules, and the bytes written over board 5's entry.
    for (variant, entry) in [
        (Variant::Abapa, &[255u8, 0][..]),
        (Variant::Abapa, &[4, 3]),
        (Variant::Awari, &[100]),
        (Variant::Awari, &[7]),
        (Variant::Awari, &[0x80]),
    ] {
        let dir = tempfile::tempdir().unwrap();
        build_raw_quiet(dir.path(), variant, 6);
        let path = table_path(dir.path(), variant, 6);
        let file = TableFile::open(&path, variant, 6, true).unwrap();
        let (mut header, mut payload) = (file.header().clone(), file.payload().to_vec());
        let before = oware::tb::LevelStats::of_file(6, variant.into(), &file).unwrap();
        assert_eq!(before.impossible, 0);
        drop(file);
        payload[5 * entry.len()..6 * entry.len()].copy_from_slice(entry);
        header.checksum = oware::tb::file::checksum(&payload);
        oware::tb::file::write_table(&path, &header, |out| out.write_all(&payload)).unwrap();
        // The checksum fits: opening passes, counting does not.
        let file = TableFile::open(&path, variant, 6, true).unwrap();
        let err = oware::tb::LevelStats::of_file(6, variant.into(), &file)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("abapa-06.owt") || err.contains("awari-06.owt"),
            "{err}"
        );
        assert!(
            err.contains("values no board of 6 seeds can have (1 boards)"),
            "{variant:?} {entry:?}: {err}"
        );
        drop(file);
        // A build run again takes the level for damaged and solves it anew.
        build_raw_quiet(dir.path(), variant, 6);
        let file = TableFile::open(&path, variant, 6, true).unwrap();
        let after = oware::tb::LevelStats::of_file(6, variant.into(), &file).unwrap();
        assert_eq!(after, before, "{variant:?} {entry:?}");
    }
}

/// Flips a few payload bytes of the table of `level` at `path`, keeping
/// its size and header.
fn damage_payload(path: &Path, level: usize) {
    let mut bytes = std::fs::read(path).unwrap();
    let n = bytes.len();
    for at in [n - 1, n - 100, n - 5000] {
        bytes[at] ^= 0x5A;
    }
    std::fs::write(path, &bytes).unwrap();
    // Still a valid header and size: only the checksum tells.
    assert!(TableFile::open(path, Variant::Abapa, level, false).is_ok());
}

#[test]
fn a_search_leaves_a_damaged_level_closed_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    build_raw_quiet(dir.path(), Variant::Abapa, 8);
    let good = Tablebase::open_for_search(dir.path(), Variant::Abapa, 8).unwrap();
    assert!(good.rejected().is_empty());
    assert_eq!(good.complete_up_to(), Some(8));
    let shown = dir.path().display().to_string();
    assert_eq!(
        good.describe(),
        format!("levels 0..8 of abapa from {shown}")
    );

    let path = table_path(dir.path(), Variant::Abapa, 6);
    damage_payload(&path, 6);
    let tb = Tablebase::open_for_search(dir.path(), Variant::Abapa, 8).unwrap();
    for level in 0..=8 {
        assert_eq!(tb.has_level(level), level != 6, "level {level}");
    }
    assert_eq!(tb.complete_up_to(), Some(5));
    assert_eq!(
        tb.describe(),
        format!("levels 0..5, 7..8 of abapa from {shown}")
    );
    let [err] = tb.rejected() else {
        panic!("one rejected level expected: {:?}", tb.rejected());
    };
    assert!(matches!(err, TableError::Corrupt { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.starts_with(&path.display().to_string()),
        "{message}"
    );
    assert!(message.contains("checksum mismatch"), "{message}");
    assert!(
        message.contains("delete it and run `oware build --rules abapa --max-seeds 6"),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1, "{message}");
    // The levels kept hold the same values as before.
    for r in 0..level_size(5) {
        assert_eq!(tb.value_at(5, r), good.value_at(5, r));
    }

    // A damaged header and a table of other rules are left closed too.
    std::fs::write(table_path(dir.path(), Variant::Abapa, 2), b"OWARETB").unwrap();
    std::fs::copy(
        table_path(dir.path(), Variant::Abapa, 7),
        table_path(dir.path(), Variant::Awari, 7),
    )
    .unwrap();
    let awari = Tablebase::open_for_search(dir.path(), Variant::Awari, 8).unwrap();
    assert_eq!(awari.describe(), format!("no levels of awari in {shown}"));
    assert_eq!(awari.rejected().len(), 1);
    assert!(matches!(awari.rejected()[0], TableError::Mismatch { .. }));
    let tb = Tablebase::open_for_search(dir.path(), Variant::Abapa, 8).unwrap();
    let levels: Vec<String> = tb.rejected().iter().map(|e| e.to_string()).collect();
    assert_eq!(levels.len(), 2, "{levels:?}");
    assert!(levels[0].contains("abapa-02.owt") && levels[0].contains("bad magic"));
    assert!(levels[1].contains("abapa-06.owt"));
    assert_eq!(tb.complete_up_to(), Some(1));
}

#[test]
fn a_missing_folder_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let gone = dir.path().join("no-such-dir");
    for result in [
        Tablebase::open(&gone, Variant::Abapa),
        Tablebase::open_for_search(&gone, Variant::Abapa, 8),
    ] {
        let err = result.err().expect("an error");
        assert!(matches!(err, TableError::NoFolder(_)), "{err:?}");
        let message = err.to_string();
        assert!(
            message.contains(
                "no-such-dir: no such folder (build tables with `oware build --max-seeds 16 --db"
            ),
            "{message}"
        );
    }
    // An empty folder is no error: it has no levels.
    let tb = Tablebase::open_for_search(dir.path(), Variant::Abapa, 8).unwrap();
    assert_eq!(tb.complete_up_to(), None);
    assert!(tb.describe().starts_with("no levels of abapa in "));
}

#[test]
fn the_serial_checksum_is_the_parallel_one() {
    let mut rng = 0x1234_5678_9abc_def1u64;
    let data: Vec<u8> = (0..(40 << 20) + 12_345)
        .map(|_| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng as u8
        })
        .collect();
    for len in [0, 1, 1000, 16 << 20, data.len()] {
        let part = &data[..len];
        assert_eq!(
            oware::tb::file::checksum_serial(part),
            oware::tb::file::checksum(part),
            "{len} bytes"
        );
    }
}
