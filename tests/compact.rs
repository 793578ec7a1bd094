//! The compact table format against the raw one: every level of small
//! builds of every rule set decodes to the raw entries, random probes
//! agree, and damaged, truncated, foreign and future files are refused
//! with one-line errors.

mod common;

use std::path::{Path, PathBuf};

use oware::Variant;
use oware::mancala::MancalaRules;
use oware::tb::compact::convert::first_difference;
use oware::tb::compact::{COMPACT_V2, COMPACT_VERSION, Coding, compress_folder};
use oware::tb::{TableFile, TableFormat, TableRules, build_levels_as, table_path};
use proptest::prelude::*;

/// Every rule set with tables, and the levels its small build reaches.
fn rule_sets() -> Vec<(TableRules, usize)> {
    let mut sets: Vec<(TableRules, usize)> = Variant::ALL
        .iter()
        .map(|&v| (TableRules::Oware(v), 11))
        .collect();
    for empty_capture in [false, true] {
        sets.push((TableRules::Mancala { empty_capture }, 8));
    }
    sets.push((
        TableRules::MancalaRace {
            empty_capture: false,
            total: 40,
        },
        8,
    ));
    sets
}

/// Builds `rules` raw up to `max` into `dir`.
fn build_raw(dir: &Path, rules: TableRules, max: usize) {
    match rules {
        TableRules::Oware(v) => build_levels_as(&v, dir, max, false, TableFormat::Raw, |_| {}),
        TableRules::Mancala { empty_capture } => build_levels_as(
            &MancalaRules::new(4, empty_capture),
            dir,
            max,
            false,
            TableFormat::Raw,
            |_| {},
        ),
        TableRules::MancalaRace {
            empty_capture,
            total,
        } => build_levels_as(
            &oware::mancala::race::RaceRules {
                empty_capture,
                total,
            },
            dir,
            max,
            false,
            TableFormat::Raw,
            |_| {},
        ),
    }
    .expect("a build");
}

/// A raw build and a compressed copy of it.
struct Pair {
    _tmp: tempfile::TempDir,
    raw: PathBuf,
    compact: PathBuf,
}

fn pair(rules: TableRules, max: usize) -> Pair {
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("raw");
    let compact = tmp.path().join("compact");
    build_raw(&raw, rules, max);
    std::fs::create_dir(&compact).unwrap();
    for level in 0..=max {
        let name = table_path(Path::new(""), rules, level);
        std::fs::copy(raw.join(&name), compact.join(&name)).unwrap();
    }
    let done = compress_folder(&compact, rules, None, Coding::DEFAULT, |_| {}).unwrap();
    assert_eq!(done.len(), max + 1);
    assert!(done.iter().all(|c| c.converted));
    Pair {
        _tmp: tmp,
        raw,
        compact,
    }
}

fn open(dir: &Path, rules: TableRules, level: usize) -> TableFile {
    TableFile::open(&table_path(dir, rules, level), rules, level, true).unwrap()
}

#[test]
fn every_level_of_every_rule_set_decodes_to_the_raw_entries() {
    for (rules, max) in rule_sets() {
        let p = pair(rules, max);
        for level in 0..=max {
            let raw = open(&p.raw, rules, level);
            let compact = open(&p.compact, rules, level);
            assert!(!raw.is_compact() && compact.is_compact());
            assert_eq!(raw.header().checksum, compact.header().checksum);
            // Board by board through the probe path, and whole.
            for r in 0..raw.header().boards {
                assert_eq!(
                    raw.value(r),
                    compact.value(r),
                    "{rules} level {level} rank {r}"
                );
            }
            assert_eq!(&*compact.raw(), raw.payload(), "{rules} level {level}");
            compact.verify_decoded().unwrap();
        }
        // The large levels take less room.
        let bytes = |dir: &Path| {
            std::fs::metadata(table_path(dir, rules, max))
                .unwrap()
                .len()
        };
        assert!(bytes(&p.compact) * 2 < bytes(&p.raw), "{rules}");
    }
}

#[test]
fn a_build_writes_compact_levels_that_equal_a_raw_build() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = TableRules::Oware(Variant::Abapa);
    build_raw(&tmp.path().join("raw"), rules, 10);
    let compact = tmp.path().join("compact");
    build_levels_as(
        &Variant::Abapa,
        &compact,
        10,
        false,
        TableFormat::Compact,
        |_| {},
    )
    .unwrap();
    for level in 0..=10 {
        let a = open(&tmp.path().join("raw"), rules, level);
        let b = open(&compact, rules, level);
        assert!(b.is_compact());
        assert_eq!(&*b.raw(), a.payload(), "level {level}");
    }
    // No staging file is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&compact)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("tmp") || n.contains(".compact"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// Abapa's levels 0..12 raw and compact, built once for the tests that
/// need a level of over a million boards.
fn abapa_12() -> &'static Pair {
    use std::sync::OnceLock;
    static PAIR: OnceLock<Pair> = OnceLock::new();
    PAIR.get_or_init(|| pair(TableRules::Oware(Variant::Abapa), 12))
}

/// Level 12 (1.3 M boards) decodes whole to the raw entries.
#[test]
fn a_large_level_decodes_whole_to_the_raw_entries() {
    let rules = TableRules::Oware(Variant::Abapa);
    let p = abapa_12();
    let compact = open(&p.compact, rules, 12);
    let raw = open(&p.raw, rules, 12);
    let payload = raw.raw_payload().expect("a raw level");
    assert_eq!(first_difference(&compact, payload, 2), None);
    assert_eq!(&compact.decode_all().unwrap()[..], payload);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random ranks of the largest level probe the same values.
    #[test]
    fn random_probes_agree(ranks in proptest::collection::vec(any::<u64>(), 1..200)) {
        let rules = TableRules::Oware(Variant::Abapa);
        let p = abapa_12();
        let raw = open(&p.raw, rules, 12);
        let compact = open(&p.compact, rules, 12);
        for r in ranks {
            let r = r % raw.header().boards;
            prop_assert_eq!(raw.value(r), compact.value(r));
        }
    }
}

/// The error of opening a damaged copy of a compact level.
fn open_damaged(damage: impl FnOnce(&mut Vec<u8>)) -> String {
    let rules = TableRules::Oware(Variant::Abapa);
    let p = pair(rules, 9);
    let path = table_path(&p.compact, rules, 9);
    let mut bytes = std::fs::read(&path).unwrap();
    damage(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    let err = match TableFile::open(&path, rules, 9, true) {
        Ok(_) => panic!("a damaged file opened"),
        Err(e) => e.to_string(),
    };
    assert!(!err.contains('\n'), "{err}");
    assert!(err.contains("abapa-09.owt"), "{err}");
    err
}

#[test]
fn a_damaged_block_is_named_and_refused() {
    // A bit of the data, well inside the last chunk.
    let err = open_damaged(|b| {
        let at = b.len() - 40;
        b[at] ^= 0x04;
    });
    assert!(
        err.contains("checksum mismatch: damaged data in block group"),
        "{err}"
    );
    assert!(err.contains("ranks"), "{err}");
    // Opened without the data check, the level still opens (the index is
    // intact); a search's open checks and leaves it closed.
    let rules = TableRules::Oware(Variant::Abapa);
    let p = pair(rules, 9);
    let path = table_path(&p.compact, rules, 9);
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 40;
    bytes[at] ^= 0x04;
    std::fs::write(&path, &bytes).unwrap();
    let tables = oware::tb::Tablebase::open_for_search(&p.compact, Variant::Abapa, 9).unwrap();
    assert_eq!(tables.complete_up_to(), Some(8));
    assert!(tables.rejected()[0].to_string().contains("block group"));
}

#[test]
fn damaged_index_truncated_files_and_padding_are_refused() {
    // The first byte after the header's 64-byte frame: the model.
    let header_end = |b: &[u8]| {
        let len = u32::from_le_bytes(b[8..12].try_into().unwrap()) as usize;
        (12 + len).div_ceil(64) * 64
    };
    let err = open_damaged(|b| {
        let at = header_end(b) + 3;
        b[at] ^= 1;
    });
    assert!(
        err.contains("checksum mismatch") || err.contains("model"),
        "{err}"
    );
    let err = open_damaged(|b| b.truncate(b.len() / 2));
    assert!(err.contains("truncated"), "{err}");
    let err = open_damaged(|b| {
        let last = b.len() - 1;
        b[last] = 0xFF;
    });
    assert!(err.contains("padding"), "{err}");
}

#[test]
fn a_future_format_and_other_rules_are_refused() {
    let rules = TableRules::Oware(Variant::Abapa);
    let p = pair(rules, 6);
    let path = table_path(&p.compact, rules, 6);
    // Other rules: the file under the Awari name.
    let awari = TableRules::Oware(Variant::Awari);
    let foreign = table_path(&p.compact, awari, 6);
    std::fs::copy(&path, &foreign).unwrap();
    let err = TableFile::open(&foreign, awari, 6, true)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("built for rules abapa"), "{err}");
    // The version is the header's first field (one byte in bincode's
    // varint encoding): a version from the future.
    let mut bytes = std::fs::read(&path).unwrap();
    assert_eq!(u32::from(bytes[12]), COMPACT_VERSION);
    // A file of the version before classes (one class, as every level
    // this small has) reads the same, and `compress` codes it anew.
    let values = |t: &TableFile| {
        (0..t.header().boards)
            .map(|r| t.value(r))
            .collect::<Vec<_>>()
    };
    let current = values(&open(&p.compact, rules, 6));
    bytes[12] = COMPACT_V2 as u8;
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(values(&open(&p.compact, rules, 6)), current);
    let done = compress_folder(&p.compact, rules, Some(6), Coding::DEFAULT, |_| {}).unwrap();
    assert!(done[0].converted);
    let recoded = open(&p.compact, rules, 6);
    assert_eq!(recoded.header().version, COMPACT_VERSION);
    assert_eq!(values(&recoded), current);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[12] = 9;
    std::fs::write(&path, &bytes).unwrap();
    let err = TableFile::open(&path, rules, 6, true)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("format version 9") && err.contains("newer"),
        "{err}"
    );
}

#[test]
fn compress_runs_again_and_commands_read_compact_and_mixed_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let out = common::stdout(&["build", "--max-seeds", "9", "--db", dir, "--raw"]);
    assert!(out.contains("level  9:"), "{out}");
    assert!(!open(tmp.path(), TableRules::Oware(Variant::Abapa), 9).is_compact());
    let before = common::stdout(&["probe", "2-2-1-0-1-1-1-0-1-0-0-0-0-0-S", "--db", dir]);
    // Half the levels compact: a mixed folder reads the same.
    let out = common::stdout(&["compress", "--db", dir, "--level", "5"]);
    assert!(
        out.contains("level  5:") && out.contains("bits a board"),
        "{out}"
    );
    let out = common::stdout(&["compress", "--db", dir]);
    assert!(
        out.contains("level  5:") && out.contains("already compact"),
        "{out}"
    );
    assert!(
        out.contains("level  9:") && out.contains("compressed in"),
        "{out}"
    );
    let out = common::stdout(&["compress", "--db", dir]);
    assert_eq!(out.matches("already compact").count(), 10, "{out}");
    let after = common::stdout(&["probe", "2-2-1-0-1-1-1-0-1-0-0-0-0-0-S", "--db", dir]);
    assert_eq!(before, after);
    let out = common::stdout(&["verify", "--db", dir]);
    assert_eq!(out.matches(": ok").count(), 10, "{out}");
    let empty = tempfile::tempdir().unwrap();
    common::fails(
        &["compress", "--db", empty.path().to_str().unwrap()],
        "no abapa tables",
    );
    common::fails(
        &["compress", "--db", "/nonexistent/tables"],
        "no such folder",
    );
}
