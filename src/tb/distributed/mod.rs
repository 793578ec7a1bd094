//! The table builder on MPI (`--features mpi`, `oware build` started by
//! `mpirun` or `srun`).
//!
//! Each level's boards are split among the R ranks in contiguous ranges of
//! the index (rank k owns ranks `k·size/R .. (k+1)·size/R`), and each rank
//! keeps the 3-byte records of its range only. The algorithm is the
//! single-process one (see [`mod@super::build`]), threshold by threshold, with
//! the cross-rank parts made explicit:
//!
//! - The pass over the moves is local: captures are looked up in the lower
//!   levels, which every rank maps from the table files in the shared
//!   folder.
//! - At each threshold a rank scans its boards a segment at a time; a
//!   settled board's parents in its own range are told at once, the others
//!   are appended to a buffer per owner (the parent's offset in the owner's
//!   range and a flag, 4 bytes; 8 when a range has 2^31 boards or more). Each round
//!   ends with one `all_to_all_varcount` of those buffers; the tells a rank
//!   receives may settle more boards, whose parents go to the next round.
//!   A threshold ends when an `all_reduce` of the work left (boards not yet
//!   scanned plus tells sent) is zero on every rank.
//! - The fixpoint re-check is distributed too: 256 K boards at a time
//!   (under [`Recheck::Sample`](crate::tb::Recheck::Sample) one round in
//!   16, the same rounds on every rank), each rank asks the owners for the
//!   values of its boards' same-level children outside its range (one `all_to_all_varcount` of ranks, one of
//!   values back), then folds the children as the single-process check does.
//! - Rank 0 writes the file: the ranks' CRC-32s are combined in order, and
//!   the payload slices are sent to rank 0 in 64 MiB messages that it writes
//!   as they come, so the file is byte-identical to a single-process build.
//!
//! A failure on one rank that the others cannot see (memory, the write)
//! prints the error and aborts the job (`MPI_Abort`), so no rank waits
//! forever; a rerun resumes at the first missing level, which rank 0
//! decides and broadcasts.

mod check;
mod comm;
mod settle;
mod stats;
mod summary;
mod write;

use check::check;
use comm::{Comm, Split};
use settle::Solver;
use stats::{local_stats, reduce_stats};
pub use summary::DistributedSummary;
use write::write;

use std::time::Instant;

use mpi::traits::*;

use super::build::{
    CHUNK, LowerLevels, RECORD, compact, fold_chunk, init, pending_bit, working_memory,
};
use super::builder::{BuildError, BuildOptions, LevelStats, LevelSummary, Phases, claim_folder};
use super::file::{Encoding, TableError, TableFile, table_path};
use super::index::{MAX_SEEDS, level_size};
use super::resident::{Resident, copy_budget};
use super::scratch::Scratch;
use super::tables::Tablebase;
use super::value::Value;
use crate::Variant;

/// Boards a rank scans at a threshold before the round's exchange: bounds
/// the buffers of tells (a multiple of [`CHUNK`]).
const SEGMENT: u64 = 128 * CHUNK;
/// Boards a rank re-checks per round of the fixpoint check (their children
/// are kept meanwhile: 16 bytes each, about 20 MB).
const CHECK_BLOCK: u64 = 1 << 18;
/// Boards of the re-check whose children are looked up together.
const CHECK_BATCH: usize = 64;
/// Bytes of one message of the payload sent to rank 0.
const WRITE_MESSAGE: usize = 64 << 20;
/// A tell's flag: the child's x (else its y) was settled.
const TELL_X: u64 = 1 << 63;

/// Whether this process was started by an MPI launcher (`mpirun`, `srun`).
pub fn launched_by_mpi() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some())
}

/// What rank 0 found under a level's name (broadcast as a number).
const PRESENT: u64 = 0;
const ABSENT: u64 = 1;
const FOREIGN: u64 = 2;

/// [`fn@super::build`] for a process of an MPI job: every rank calls it; rank
/// 0 takes the folder's lock, decides which levels are present, writes the
/// files and calls `report` after each level.
pub fn build(
    opts: &BuildOptions,
    mut report: impl FnMut(&DistributedSummary),
) -> Result<Vec<DistributedSummary>, BuildError> {
    let universe = mpi::initialize().expect("MPI initialised once");
    let world = universe.world();
    let mut comm = Comm {
        rank: world.rank() as usize,
        size: world.size() as usize,
        world,
        sent: 0,
        received: 0,
    };
    let result = build_ranks(&mut comm, opts, &mut report);
    // Every rank leaves together (a failure on rank 0 alone would
    // otherwise leave the others in the next level's broadcast).
    comm.world.barrier();
    result
}

fn build_ranks(
    comm: &mut Comm,
    opts: &BuildOptions,
    report: &mut impl FnMut(&DistributedSummary),
) -> Result<Vec<DistributedSummary>, BuildError> {
    if opts.max_seeds > MAX_SEEDS {
        return Err(BuildError::TooManySeeds);
    }
    let root = comm.rank == 0;
    // Only rank 0 locks the folder; the others wait for its answer.
    let lock = if root {
        Some(claim_folder(opts.dir))
    } else {
        None
    };
    let lock = match lock {
        Some(Err(e)) => {
            comm.broadcast(1);
            return Err(e);
        }
        Some(Ok(file)) => {
            comm.broadcast(0);
            Some(file)
        }
        None => {
            if comm.broadcast(0) != 0 {
                return Err(stopped_by_root());
            }
            None
        }
    };
    let die_at: Option<usize> = std::env::var("OWARE_MPI_DIE_AT_LEVEL")
        .ok()
        .and_then(|s| s.parse().ok());
    let mut tables = Tablebase::empty(opts.dir, opts.variant);
    let encoding = Encoding::for_variant(opts.variant);
    let mut summaries = Vec::new();
    for level in 0..=opts.max_seeds {
        let path = table_path(opts.dir, opts.variant, level);
        let started = Instant::now();
        let (found, error) = if root {
            match TableFile::open(&path, opts.variant, level, true) {
                Ok(_) => (PRESENT, None),
                Err(TableError::Missing { .. } | TableError::Corrupt { .. }) => (ABSENT, None),
                Err(TableError::Mismatch { path, reason }) => {
                    (FOREIGN, Some(BuildError::Foreign { path, reason }))
                }
                Err(e) => (FOREIGN, Some(e.into())),
            }
        } else {
            (0, None)
        };
        match comm.broadcast(found) {
            PRESENT => {
                tables.load(level, false)?;
                let summary = if root {
                    let table = tables.table(level).expect("loaded");
                    let stats = LevelStats::of_file(level, opts.variant.into(), table)?;
                    LevelSummary {
                        stats,
                        ..skipped(level)
                    }
                } else {
                    skipped(level)
                };
                let s = DistributedSummary {
                    summary,
                    sent: vec![0; comm.size],
                    received: vec![0; comm.size],
                    rounds: 0,
                    cpu: vec![0.0; comm.size],
                };
                if root {
                    report(&s);
                }
                summaries.push(s);
                continue;
            }
            ABSENT => {}
            _ => return Err(error.unwrap_or_else(stopped_by_root)),
        }
        let (sent0, received0, cpu0) = (comm.sent, comm.received, cpu_seconds());
        let mut phases = Phases::default();
        let mut lap = Instant::now();
        let mut split_time = || {
            let seconds = lap.elapsed().as_secs_f64();
            lap = Instant::now();
            seconds
        };
        let split = Split::new(level_size(level), comm.size);
        let (lo, hi) = split.range(comm.rank);
        // The ranks of one node share its memory.
        let budget = copy_budget(working_memory(level) * (hi - lo) / level_size(level).max(1))
            / comm.size as u64;
        let resident = Resident::new(tables.levels(), level, budget)
            .unwrap_or_else(|e| comm.fail(&BuildError::from(e)));
        phases.copy = split_time();
        let mut records = Scratch::zeroed(RECORD * (hi - lo) as usize)
            .unwrap_or_else(|e| comm.fail(&BuildError::Memory { level, error: e }));
        let mut pending = vec![0u64; (hi - lo).div_ceil(CHUNK) as usize];
        moves(
            level,
            opts.variant,
            &resident,
            lo,
            hi,
            &mut records,
            &mut pending,
        );
        phases.moves = split_time();
        if die_at == Some(level) && comm.rank == 1 {
            eprintln!("oware build: rank 1 exits at level {level} (OWARE_MPI_DIE_AT_LEVEL)");
            std::process::exit(101);
        }
        let mut solver = Solver::new(
            level,
            opts.variant,
            &split,
            lo,
            &mut records,
            &mut pending,
            comm.size,
        );
        let rounds = solver.settle_all(comm);
        drop(solver);
        let pairs = compact(records, hi - lo);
        phases.settle = split_time();
        let failure = check(
            comm,
            level,
            opts.variant,
            &resident,
            &split,
            &pairs,
            opts.recheck,
        );
        drop(resident);
        // The copies are let go before the write, as before copies were
        // kept from level to level: the root's memory while it gathers
        // and writes a level has not been measured with them held.
        tables.levels().kept_copies().keep_for(None);
        if let Err(e) = &failure {
            eprintln!("oware build: rank {}: {e}", comm.rank);
        }
        let failed = comm.max(u64::from(failure.is_err()) * (comm.rank as u64 + 1));
        if failed != 0 {
            return Err(match failure {
                Err(e) => e.into(),
                Ok(()) => BuildError::Remote {
                    rank: failed as usize - 1,
                    message: "fixpoint re-check failed, level not written".into(),
                },
            });
        }
        phases.check = split_time();
        let stats = local_stats(level, opts.variant, &pairs);
        let scores: Vec<u8>;
        let payload: &[u8] = match encoding {
            Encoding::ForcedPair => &pairs,
            Encoding::Score => {
                scores = pairs
                    .chunks_exact(2)
                    .map(|p| Value::new(p[0], p[1]).score() as u8)
                    .collect();
                &scores
            }
        };
        let stats = reduce_stats(comm, stats);
        write(comm, opts, level, encoding, &split, &path, payload);
        drop(pairs);
        tables.load(level, false)?;
        phases.write = split_time();
        let (sent, received) = (comm.sent - sent0, comm.received - received0);
        let mut all = vec![0u64; 3 * comm.size];
        let mine = [sent, received, (cpu_seconds() - cpu0).to_bits()];
        let root_process = comm.world.process_at_rank(0);
        if root {
            root_process.gather_into_root(&mine[..], &mut all[..]);
        } else {
            root_process.gather_into(&mine[..]);
        }
        let summary = LevelSummary {
            level,
            boards: level_size(level),
            built: true,
            seconds: started.elapsed().as_secs_f64(),
            phases,
            stats: stats.unwrap_or_default(),
            peak_rss: None,
        };
        let s = DistributedSummary {
            summary,
            sent: all.iter().step_by(3).copied().collect(),
            received: all.iter().skip(1).step_by(3).copied().collect(),
            rounds,
            cpu: all
                .iter()
                .skip(2)
                .step_by(3)
                .map(|&c| f64::from_bits(c))
                .collect(),
        };
        if root {
            report(&s);
        }
        summaries.push(s);
    }
    drop(lock);
    Ok(summaries)
}

/// User plus system CPU seconds of this process so far (Linux; 0
/// elsewhere), at the usual 100 ticks a second.
fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|stat| {
            let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
            let ticks: u64 =
                fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
            Some(ticks as f64 / 100.0)
        })
        .unwrap_or(0.0)
}

fn stopped_by_root() -> BuildError {
    BuildError::Remote {
        rank: 0,
        message: "stopped (rank 0 prints why)".into(),
    }
}

fn skipped(level: usize) -> LevelSummary {
    LevelSummary {
        level,
        boards: level_size(level),
        built: false,
        seconds: 0.0,
        phases: Phases::default(),
        stats: LevelStats::default(),
        peak_rss: None,
    }
}

/// The pass over the moves for boards `lo..hi`: capture values looked up,
/// records and the pending bits of each chunk set (on every thread).
fn moves<L: LowerLevels>(
    n: usize,
    variant: Variant,
    lower: &L,
    lo: u64,
    hi: u64,
    records: &mut [u8],
    pending: &mut [u64],
) {
    use rayon::prelude::*;
    records
        .par_chunks_mut(RECORD * CHUNK as usize)
        .zip(pending.par_iter_mut())
        .enumerate()
        .for_each(|(c, (rec, bits))| {
            let start = lo + c as u64 * CHUNK;
            let len = CHUNK.min(hi - start);
            let mut thresholds = 0;
            let _ = fold_chunk(start, len, n, variant, lower, false, |r, board, f| {
                let (x, y, same) = init(board, n, f);
                let i = RECORD * (r - start) as usize;
                rec[i] = x;
                rec[i + 1] = y;
                rec[i + 2] = same;
                thresholds |= pending_bit(x) | pending_bit(y);
                Ok::<(), ()>(())
            });
            *bits = thresholds;
        });
}
