//! Random probes of a level, raw against compact.
//!
//! With `OWARE_BENCH_RAW` and `OWARE_BENCH_COMPACT` naming two folders of
//! the same Abapa tables (one raw, one after `oware compress`), probes the
//! levels of `OWARE_BENCH_LEVELS` (default `20,24`) of both; with
//! `OWARE_BENCH_COMPACT` alone, those of the compact folder only (levels
//! built compact have no raw twin). Without either,
//! builds levels 0..14 into a temporary folder, compresses a copy, and
//! probes level 14. Each measurement is a million random ranks, warm: the
//! files are read once before timing.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use oware::Variant;
use oware::tb::{TableFile, TableRules};

const PROBES: usize = 1 << 20;

/// A million ranks of a level of `size` boards (a fixed xorshift stream).
fn ranks(size: u64) -> Vec<u64> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..PROBES)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % size
        })
        .collect()
}

fn open(dir: &Path, level: usize) -> TableFile {
    let rules = TableRules::Oware(Variant::Abapa);
    let path = oware::tb::table_path(dir, rules, level);
    let table = TableFile::open(&path, rules, level, true).expect("a valid table");
    // Warm: every page read once.
    black_box(
        table
            .payload()
            .iter()
            .step_by(4096)
            .map(|&b| u64::from(b))
            .sum::<u64>(),
    );
    table
}

/// The raw folder (if any), the compact one, the levels, and the temporary
/// folder that holds both when they were built here.
type Folders = (
    Option<PathBuf>,
    PathBuf,
    Vec<usize>,
    Option<tempfile::TempDir>,
);

fn folders() -> Folders {
    if let Ok(compact) = std::env::var("OWARE_BENCH_COMPACT") {
        let levels = std::env::var("OWARE_BENCH_LEVELS")
            .unwrap_or_else(|_| "20,24".to_string())
            .split(',')
            .map(|l| l.trim().parse().expect("a level"))
            .collect();
        let raw = std::env::var("OWARE_BENCH_RAW").ok().map(PathBuf::from);
        return (raw, compact.into(), levels, None);
    }
    assert!(
        std::env::var_os("OWARE_BENCH_RAW").is_none(),
        "OWARE_BENCH_RAW needs OWARE_BENCH_COMPACT (the same tables, compact)"
    );
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let raw = tmp.path().join("raw");
    let compact = tmp.path().join("compact");
    let opts = oware::tb::BuildOptions {
        dir: &raw,
        variant: Variant::Abapa,
        max_seeds: 14,
        progress: false,
        format: oware::tb::TableFormat::Raw,
        recheck: oware::tb::Recheck::All,
    };
    oware::tb::build(&opts, |_| {}).expect("a build");
    std::fs::create_dir_all(&compact).expect("a folder");
    for entry in std::fs::read_dir(&raw).expect("the tables") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "owt") {
            std::fs::copy(&path, compact.join(path.file_name().expect("a name"))).expect("a copy");
        }
    }
    oware::tb::compact::compress_folder(
        &compact,
        TableRules::Oware(Variant::Abapa),
        None,
        oware::tb::compact::Coding::DEFAULT,
        oware::tb::compact::NEIGHBOURS_FROM,
        |_| {},
    )
    .expect("compressed");
    (Some(raw), compact, vec![14], Some(tmp))
}

fn probes(c: &mut Criterion) {
    let (raw, compact, levels, _tmp) = folders();
    let mut group = c.benchmark_group("probe");
    group.throughput(Throughput::Elements(PROBES as u64));
    group.sample_size(10);
    for level in levels {
        let folders = raw.iter().map(|raw| ("raw", raw));
        for (name, dir) in folders.chain([("compact", &compact)]) {
            let table = open(dir, level);
            let ranks = ranks(table.header().boards);
            group.bench_function(
                format!("level {level} {name} (a million random ranks)"),
                |b| {
                    b.iter(|| {
                        ranks
                            .iter()
                            .map(|&r| u32::from(table.value(r).mover))
                            .sum::<u32>()
                    })
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, probes);
criterion_main!(benches);
