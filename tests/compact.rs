//! The compact table format against the raw one: every level of small
//! builds of every rule set decodes to the raw entries, random probes
//! agree, and damaged, truncated, foreign and future files are refused
//! with one-line errors.

mod common;

use std::path::{Path, PathBuf};

use oware::Variant;
use oware::mancala::MancalaRules;
use oware::tb::compact::convert::first_difference;
use oware::tb::compact::{
    BLOCK_BYTES, COMPACT_V2, COMPACT_V3, COMPACT_V4, COMPACT_VERSION, Coding, LARGE_BLOCK_BYTES,
    compress_folder,
};
use oware::tb::{Recheck, TableFile, TableFormat, TableRules, build_levels_as, table_path};
use proptest::prelude::*;

/// The first level these tests code by neighbours too (format version 5):
/// Abapa's level 12 (1.3 M boards), where `oware compress` starts at level
/// 24 ([`oware::tb::compact::NEIGHBOURS_FROM`]).
const NEIGHBOURS_FROM: usize = 12;

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
        TableRules::Oware(v) => {
            build_levels_as(&v, dir, max, false, TableFormat::Raw, Recheck::All, |_| {})
        }
        TableRules::Mancala { empty_capture } => build_levels_as(
            &MancalaRules::new(4, empty_capture),
            dir,
            max,
            false,
            TableFormat::Raw,
            Recheck::All,
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
            Recheck::All,
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
    pair_with(rules, max, Coding::DEFAULT)
}

fn pair_with(rules: TableRules, max: usize, coding: Coding) -> Pair {
    let tmp = tempfile::tempdir().unwrap();
    let raw = tmp.path().join("raw");
    let compact = tmp.path().join("compact");
    build_raw(&raw, rules, max);
    std::fs::create_dir(&compact).unwrap();
    for level in 0..=max {
        let name = table_path(Path::new(""), rules, level);
        std::fs::copy(raw.join(&name), compact.join(&name)).unwrap();
    }
    let done = compress_folder(&compact, rules, None, coding, NEIGHBOURS_FROM, |_| {}).unwrap();
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
    for ((rules, max), bytes) in rule_sets()
        .into_iter()
        .flat_map(|set| [(set, BLOCK_BYTES), (set, LARGE_BLOCK_BYTES)])
    {
        let p = pair_with(rules, max, Coding::with_block_bytes(bytes));
        for level in 0..=max {
            let raw = open(&p.raw, rules, level);
            let compact = open(&p.compact, rules, level);
            assert!(!raw.is_compact() && compact.is_compact());
            let coding = compact.compact().unwrap().info().coding;
            assert_eq!(coding.block_bytes as usize, bytes);
            assert_eq!(raw.header().checksum, compact.header().checksum);
            // Board by board through the probe path, and whole.
            for r in 0..raw.header().boards {
                assert_eq!(
                    raw.value(r),
                    compact.value(r),
                    "{rules} level {level} rank {r} ({bytes}-byte blocks)"
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

/// A compact build, with level 12 coded by neighbours (the levels below
/// it have under a million boards and keep version 4 whatever
/// `neighbours_from` says), reads what a raw build does.
#[test]
fn a_build_writes_compact_levels_that_equal_a_raw_build() {
    let tmp = tempfile::tempdir().unwrap();
    let rules = TableRules::Oware(Variant::Abapa);
    let raw = &abapa_12().raw;
    let compact = tmp.path().join("compact");
    build_levels_as(
        &Variant::Abapa,
        &compact,
        12,
        false,
        TableFormat::Compact { neighbours_from: 5 },
        // The raw build it is compared with re-checked every board.
        Recheck::Sample,
        |_| {},
    )
    .unwrap();
    for level in 0..=12 {
        let a = open(raw, rules, level);
        let b = open(&compact, rules, level);
        assert!(b.is_compact());
        let version = if level == 12 {
            COMPACT_VERSION
        } else {
            COMPACT_V4
        };
        assert_eq!(b.header().version, version, "level {level}");
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

/// Level 12 (1.3 M boards, the smallest coded by neighbours too, format
/// version 5) decodes whole to the raw entries; level 11 stays in version 4.
#[test]
fn a_large_level_decodes_whole_to_the_raw_entries() {
    let rules = TableRules::Oware(Variant::Abapa);
    let p = abapa_12();
    let compact = open(&p.compact, rules, 12);
    assert_eq!(compact.header().version, COMPACT_VERSION);
    assert_eq!(open(&p.compact, rules, 11).header().version, COMPACT_V4);
    let raw = open(&p.raw, rules, 12);
    let payload = raw.raw_payload().expect("a raw level");
    assert_eq!(first_difference(&compact, payload, 2), None);
    assert_eq!(&compact.decode_all().unwrap()[..], payload);
}

/// A compact level whose blocks are intact but decode to other entries
/// than its header's checksum says (what a fault of the encoder, or of
/// the solver's payload on its way to the file, would leave) stops the
/// build of a level that copies it, naming the file.
#[test]
fn a_level_decoding_to_other_entries_stops_the_levels_above() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let variant = Variant::Abapa;
    let rules = TableRules::Oware(variant);
    let compact = TableFormat::Compact {
        neighbours_from: 49,
    };
    build_levels_as(&variant, dir, 9, false, compact, Recheck::Sample, |_| {}).unwrap();
    let seven = table_path(dir, rules, 7);
    let table = TableFile::open(&seven, rules, 7, true).unwrap();
    let header = table.header().clone();
    let mut entries = table.decode_all().unwrap().to_vec();
    drop(table);
    // One y changed by one, still a value the level can hold.
    entries[1] = if entries[1] == 0 { 1 } else { entries[1] - 1 };
    oware::tb::compact::write_compact_level(&seven, &header, &entries, Coding::DEFAULT, 49)
        .unwrap();
    // Its blocks match their checksums: opening it finds nothing wrong.
    TableFile::open(&seven, rules, 7, true).unwrap();
    std::fs::remove_file(table_path(dir, rules, 9)).unwrap();
    let error = build_levels_as(&variant, dir, 9, false, compact, Recheck::Sample, |_| {})
        .expect_err("level 9 copies level 7")
        .to_string();
    assert!(
        error.contains(&seven.display().to_string()) && error.contains("checksum"),
        "{error}"
    );
    assert!(!table_path(dir, rules, 9).exists());
}

/// A search decodes the smallest compact levels into memory, a byte a
/// board, as far as its budget goes: those levels then read the raw
/// entries at every rank (and when folded whole), the rest stay compact.
#[test]
fn levels_decoded_for_a_search_read_the_raw_entries() {
    let rules = TableRules::Oware(Variant::Abapa);
    let p = abapa_12();
    let levels = oware::tb::Levels::open(&p.compact, rules).unwrap();
    // Levels 0..11 take 1,345,890 boards: a byte each, and level 12's
    // 1,339,702 more do not fit.
    let budget = 1_400_000;
    let decoded = levels.decode_in_memory(budget);
    assert!(decoded <= budget && decoded >= 1_345_890, "{decoded}");
    let raw = oware::tb::Levels::open(&p.raw, rules).unwrap();
    for level in 0..=12 {
        let (compact, raw) = (levels.loaded(level), raw.loaded(level));
        assert_eq!(compact.is_decoded(), level < 12, "level {level}");
        for r in 0..raw.header().boards {
            assert_eq!(compact.value(r), raw.value(r), "level {level} rank {r}");
        }
        // Runs are cut differently in each path: sum over whole entries.
        let sum = |t: &TableFile| {
            t.fold_entries(
                || (0u64, 0u64, 0u64),
                |(n, s, q), run| {
                    let entries = run
                        .chunks_exact(2)
                        .map(|e| u64::from(u16::from_be_bytes([e[0], e[1]])));
                    entries.fold((n, s, q), |(n, s, q), e| (n + 1, s + e, q + e * e))
                },
                |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2),
            )
        };
        assert_eq!(sum(compact), sum(raw), "level {level}");
    }
}

/// Tables opened for a search without decoding read the compact levels at
/// once, and the same values while a thread decodes them behind the
/// probes and after it has.
#[test]
fn tables_decoded_in_the_background_read_the_same_throughout() {
    let p = abapa_12();
    let tables =
        oware::tb::Tablebase::open_for_search_lazily(&p.compact, Variant::Abapa, 12).unwrap();
    let tables = std::sync::Arc::new(tables);
    assert!((0..=12).all(|l| !tables.table(l).unwrap().is_decoded()));
    let raw = oware::tb::Tablebase::open(&p.raw, Variant::Abapa).unwrap();
    let compare = |level: usize| {
        for r in 0..raw.table(level).unwrap().header().boards {
            assert_eq!(
                tables.value_at(level, r),
                raw.value_at(level, r),
                "level {level} rank {r}"
            );
        }
    };
    // Levels 0..12 take 2.7 MB a byte a board.
    let budget = 3 << 20;
    let decoding = tables
        .decode_in_background(budget)
        .expect("levels to decode");
    // Probes from the top level down while the smallest are decoded.
    for level in (0..=12).rev() {
        compare(level);
    }
    decoding.join().unwrap();
    assert!((0..=12).all(|l| tables.table(l).unwrap().is_decoded()));
    for level in 0..=12 {
        compare(level);
    }
    assert!(
        tables.decode_in_background(budget).is_none(),
        "nothing left"
    );
}

/// Level 12 probed at every seventh rank in blocks of either size: the
/// path to each rank through its block (the neighbour codes of version 5)
/// reads the raw entries. (Its classes of codes are tested in the
/// library's own tests: level 12 keeps one.)
#[test]
fn ranks_of_a_large_level_probe_the_raw_entries_in_either_block_size() {
    let rules = TableRules::Oware(Variant::Abapa);
    let p = abapa_12();
    let raw = open(&p.raw, rules, 12);
    let tmp = tempfile::tempdir().unwrap();
    let name = table_path(Path::new(""), rules, 12);
    std::fs::copy(p.raw.join(&name), tmp.path().join(&name)).unwrap();
    let small = Coding::with_block_bytes(BLOCK_BYTES);
    compress_folder(tmp.path(), rules, Some(12), small, NEIGHBOURS_FROM, |_| {}).unwrap();
    for (dir, bytes) in [
        (p.compact.clone(), LARGE_BLOCK_BYTES),
        (tmp.path().to_path_buf(), BLOCK_BYTES),
    ] {
        let compact = open(&dir, rules, 12);
        let coding = compact.compact().unwrap().info().coding;
        assert_eq!(coding.block_bytes as usize, bytes);
        assert_eq!(
            compact.header().version,
            COMPACT_VERSION,
            "{bytes}-byte blocks"
        );
        for r in (0..raw.header().boards).step_by(7) {
            assert_eq!(
                raw.value(r),
                compact.value(r),
                "rank {r}, {bytes}-byte blocks"
            );
        }
    }
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
fn verify_checks_the_header_checksum_of_the_decoded_entries() {
    let rules = TableRules::Oware(Variant::Abapa);
    let p = pair(rules, 9);
    let path = table_path(&p.compact, rules, 9);
    let db = p.compact.to_str().unwrap();
    let verify = || common::oware(&["verify", "--db", db, "--level", "9", "--sample", "50"]);
    assert!(verify().status.success());
    // The header's checksum of the raw entries (little-endian in the
    // header's bytes): no block's own checksum covers it.
    let table = open(&p.compact, rules, 9);
    let crc = table.header().checksum.to_le_bytes();
    drop(table);
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes[..64]
        .windows(4)
        .position(|w| w == crc)
        .expect("the checksum in the header");
    bytes[at] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    assert!(TableFile::open(&path, rules, 9, true).is_ok());
    let out = verify();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("abapa-09.owt: checksum mismatch (header"),
        "{err}"
    );
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
    // The zero padding between the header and its 64-byte frame's end.
    let err = open_damaged(|b| {
        let len = u32::from_le_bytes(b[8..12].try_into().unwrap()) as usize;
        assert!(12 + len < header_end(b), "no padding to damage");
        b[12 + len] = 0x20;
    });
    assert!(err.contains("damaged padding after the header"), "{err}");
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
    let bytes = std::fs::read(&path).unwrap();
    // (A level this small is coded as in version 4.)
    assert_eq!(u32::from(bytes[12]), COMPACT_V4);
    // The older versions had 32-byte blocks only: a file of 64-byte blocks
    // under their number is refused.
    // The error opening the file of `bytes` under header version `version`.
    let refused = |bytes: &[u8], version: u32| {
        let mut bytes = bytes.to_vec();
        bytes[12] = version as u8;
        std::fs::write(&path, &bytes).unwrap();
        let table = TableFile::open(&path, rules, 6, true);
        table.err().expect("refused").to_string()
    };
    for old in [COMPACT_V2, COMPACT_V3] {
        let err = refused(&bytes, old);
        assert!(
            err.contains(&format!("format version {old} with blocks of 64 bytes")),
            "{err}"
        );
    }
    std::fs::write(&path, &bytes).unwrap();
    // A file of the versions before classes (one class, as every level
    // this small has) and before 64-byte blocks reads the same, and
    // `compress` codes it anew.
    let values = |t: &TableFile| {
        (0..t.header().boards)
            .map(|r| t.value(r))
            .collect::<Vec<_>>()
    };
    let current = values(&open(&p.compact, rules, 6));
    let small = Coding::with_block_bytes(BLOCK_BYTES);
    for old in [COMPACT_V2, COMPACT_V3] {
        compress_folder(&p.compact, rules, Some(6), small, NEIGHBOURS_FROM, |_| {}).unwrap();
        let mut old_bytes = std::fs::read(&path).unwrap();
        assert_eq!(u32::from(old_bytes[12]), COMPACT_V4);
        old_bytes[12] = old as u8;
        std::fs::write(&path, &old_bytes).unwrap();
        assert_eq!(values(&open(&p.compact, rules, 6)), current);
        let done = compress_folder(
            &p.compact,
            rules,
            Some(6),
            Coding::DEFAULT,
            NEIGHBOURS_FROM,
            |_| {},
        )
        .unwrap();
        assert!(done[0].converted, "version {old}");
        let recoded = open(&p.compact, rules, 6);
        assert_eq!(recoded.header().version, COMPACT_V4);
        let coding = recoded.compact().unwrap().info().coding;
        assert_eq!(coding.block_bytes as usize, LARGE_BLOCK_BYTES);
        assert_eq!(values(&recoded), current);
    }
    // Version 5 names neighbour codes that this file's model lacks.
    let err = refused(&std::fs::read(&path).unwrap(), COMPACT_VERSION);
    assert!(err.contains("neighbour codes are truncated"), "{err}");
    let err = refused(&std::fs::read(&path).unwrap(), 9);
    assert!(
        err.contains("format version 9") && err.contains("newer"),
        "{err}"
    );
}

/// `oware compress --neighbours-from` brings a level to the version it
/// asks for, either way, and a second run finds it done.
#[test]
fn compress_brings_a_level_to_the_version_neighbours_from_asks() {
    let rules = TableRules::Oware(Variant::Abapa);
    let p = abapa_12();
    let tmp = tempfile::tempdir().unwrap();
    let name = table_path(Path::new(""), rules, 12);
    std::fs::copy(p.raw.join(&name), tmp.path().join(&name)).unwrap();
    let dir = tmp.path().to_str().unwrap();
    let raw = open(&p.raw, rules, 12);
    for (from, version) in [
        ("12", COMPACT_VERSION),
        ("13", COMPACT_V4),
        ("0", COMPACT_VERSION),
    ] {
        let args = [
            "compress",
            "--db",
            dir,
            "--level",
            "12",
            "--neighbours-from",
            from,
        ];
        let out = common::stdout(&args);
        assert!(out.contains("compressed in"), "{from}: {out}");
        let out = common::stdout(&args);
        assert!(out.contains("already compact"), "{from}: {out}");
        let compact = open(tmp.path(), rules, 12);
        assert_eq!(
            compact.header().version,
            version,
            "--neighbours-from {from}"
        );
        assert_eq!(&*compact.raw(), raw.payload(), "--neighbours-from {from}");
        // `oware stats` says which version the level is in.
        let stats: serde_json::Value =
            serde_json::from_str(&common::stdout(&["stats", "--db", dir, "--json"])).unwrap();
        let level = &stats["levels"][0];
        assert_eq!(level["seeds"], 12);
        assert_eq!(level["format"], "compact");
        assert_eq!(level["version"], version);
        let file = std::fs::metadata(tmp.path().join(&name)).unwrap().len();
        assert_eq!(level["bytes"], file);
        let text = common::stdout(&["stats", "--db", dir]);
        assert!(text.contains(&format!("compact v{version}, ")), "{text}");
    }
}

/// A level of Mancala claiming format version 5 (which no Mancala level
/// is written in) is refused.
#[test]
fn a_mancala_level_of_version_5_is_refused() {
    let rules = TableRules::Mancala {
        empty_capture: false,
    };
    let p = pair(rules, 4);
    let path = table_path(&p.compact, rules, 4);
    let mut bytes = std::fs::read(&path).unwrap();
    assert_eq!(u32::from(bytes[12]), COMPACT_V4);
    bytes[12] = COMPACT_VERSION as u8;
    std::fs::write(&path, &bytes).unwrap();
    let err = TableFile::open(&path, rules, 4, true)
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("format version 5, which no level of mancala"),
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
    // `oware stats` tells raw levels from compact ones: 2 bytes a board
    // raw (and the header), far fewer compact.
    let out = common::stdout(&["compress", "--db", dir, "--level", "9"]);
    assert!(out.contains("already compact"), "{out}");
    let raw_dir = tempfile::tempdir().unwrap();
    let raw_path = raw_dir.path().to_str().unwrap();
    common::stdout(&["build", "--max-seeds", "9", "--db", raw_path, "--raw"]);
    for (folder, format, version) in [(dir, "compact", COMPACT_V4), (raw_path, "raw", 1)] {
        let stats: serde_json::Value =
            serde_json::from_str(&common::stdout(&["stats", "--db", folder, "--json"])).unwrap();
        let level = &stats["levels"][9];
        assert_eq!(level["seeds"], 9);
        assert_eq!(level["format"], format);
        assert_eq!(level["version"], version);
        let bytes = level["bytes"].as_u64().unwrap();
        let boards = level["boards"].as_u64().unwrap();
        if format == "raw" {
            assert!(bytes > 2 * boards && bytes < 2 * boards + 4096, "{bytes}");
        } else {
            assert!(bytes < boards, "{bytes}");
        }
        let text = common::stdout(&["stats", "--db", folder]);
        assert!(text.contains(&format!("{format} v{version}, ")), "{text}");
    }
    // Levels under a million boards keep version 4 whatever
    // `--neighbours-from` says, so nothing is coded again.
    let out = common::stdout(&["compress", "--db", dir, "--neighbours-from", "0"]);
    assert_eq!(out.matches("already compact").count(), 10, "{out}");
    common::fails(
        &["compress", "--db", dir, "--neighbours-from", "50"],
        "50 is not in 0..=49",
    );
    // Another block size codes every level again, and reads the same.
    let out = common::stdout(&["compress", "--db", dir, "--block-bytes", "32"]);
    assert_eq!(out.matches("compressed in").count(), 10, "{out}");
    let after = common::stdout(&["probe", "2-2-1-0-1-1-1-0-1-0-0-0-0-0-S", "--db", dir]);
    assert_eq!(before, after);
    common::fails(
        &["compress", "--db", dir, "--block-bytes", "48"],
        "blocks take 32 or 64 bytes",
    );
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
