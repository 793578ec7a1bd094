//! The table builder on MPI (`--features mpi`, `oware build` started by
//! `mpirun` or `srun`).
//!
//! Each level's boards are split among the R ranks in contiguous ranges of
//! the index (rank k owns ranks `k·size/R .. (k+1)·size/R`), and each rank
//! keeps the 3-byte records of its range only. The algorithm is the
//! single-process one (see [`super::build`]), threshold by threshold, with
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
//! - The fixpoint re-check is distributed too: 256 K boards at a time,
//!   each rank asks the owners for the values of its boards' same-level
//!   children outside its range (one `all_to_all_varcount` of ranks, one of
//!   values back), then folds the children as the single-process check does.
//! - Rank 0 writes the file: the ranks' CRC-32s are combined in order, and
//!   the payload slices are sent to rank 0 in 64 MiB messages that it writes
//!   as they come, so the file is byte-identical to a single-process build.
//!
//! A failure on one rank that the others cannot see (memory, the write)
//! prints the error and aborts the job (`MPI_Abort`), so no rank waits
//! forever; a rerun resumes at the first missing level, which rank 0
//! decides and broadcasts.

use std::time::Instant;

use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use super::board::{for_each_child_word, for_each_parent_word, terminal_value};
use super::build::{
    BATCH, CHUNK, FixpointError, LowerLevels, RECORD, SETTLED, VALUE, X_FLAG, fold_chunk, init,
    pending_bit, working_memory,
};
use super::builder::{
    BuildError, BuildOptions, LevelStats, LevelSummary, Phases, build_time, claim_folder,
};
use super::file::{Encoding, FORMAT_VERSION, Header, TableError, TableFile, table_path};
use super::index::{Boards, MAX_SEEDS, level_size, rank_word, unrank_word};
use super::prefetch::prefetch;
use super::resident::{Resident, copy_budget};
use super::scratch::Scratch;
use super::tables::{Tablebase, decode};
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

/// One level's line on rank 0, with what each rank exchanged.
#[derive(Clone, Debug)]
pub struct DistributedSummary {
    /// What the single-process build reports.
    pub summary: LevelSummary,
    /// Bytes each rank sent to other ranks in this level (by rank).
    pub sent: Vec<u64>,
    /// Bytes each rank received from other ranks in this level.
    pub received: Vec<u64>,
    /// Rounds of exchanges of the settling (all thresholds).
    pub rounds: u64,
    /// CPU seconds (user + system) each rank spent on this level: on a
    /// shared machine the wall time also counts waiting for a core.
    pub cpu: Vec<f64>,
}

impl DistributedSummary {
    /// The single-process line plus the exchanged bytes.
    pub fn describe(&self, variant: Variant) -> String {
        let line = self.summary.describe(variant);
        if !self.summary.built {
            return line;
        }
        let sent: u64 = self.sent.iter().sum();
        let per_rank = self
            .sent
            .iter()
            .zip(&self.received)
            .map(|(s, r)| format!("{}/{}", mb(*s), mb(*r)))
            .collect::<Vec<_>>()
            .join(" ");
        let cpu = self
            .cpu
            .iter()
            .map(|c| format!("{c:.1}"))
            .collect::<Vec<_>>()
            .join(" ");
        format!(
            "{line}  [{} rounds; sent {:.2} B/board; MB sent/received by rank: {per_rank}; cpu s by rank: {cpu}]",
            self.rounds,
            sent as f64 / self.summary.boards.max(1) as f64
        )
    }
}

fn mb(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1e6)
}

/// The ranks' ranges of a level.
#[derive(Clone, Debug)]
struct Split {
    /// `bounds[k]..bounds[k + 1]` is rank k's range.
    bounds: Vec<u64>,
}

impl Split {
    fn new(size: u64, ranks: usize) -> Split {
        let r = ranks as u128;
        Split {
            bounds: (0..=r).map(|k| (u128::from(size) * k / r) as u64).collect(),
        }
    }

    #[inline]
    fn owner(&self, p: u64) -> usize {
        self.bounds.partition_point(|&b| b <= p) - 1
    }

    /// Whether every range has fewer than 2^31 boards.
    fn narrow(&self) -> bool {
        self.bounds.windows(2).all(|w| w[1] - w[0] < 1 << 31)
    }

    fn range(&self, k: usize) -> (u64, u64) {
        (self.bounds[k], self.bounds[k + 1])
    }
}

/// The communicator and the bytes it moved.
struct Comm {
    world: SimpleCommunicator,
    rank: usize,
    size: usize,
    sent: u64,
    received: u64,
}

impl Comm {
    /// Sends `out[k]` to rank k (every rank calls it) and returns what the
    /// others sent here, in rank order, with the count from each.
    fn exchange<T>(&mut self, out: &[Vec<T>]) -> (Vec<T>, Vec<usize>)
    where
        T: Equivalence + Default + Clone,
    {
        let counts: Vec<i32> = out.iter().map(|v| count(v.len())).collect();
        let mut incoming = vec![0i32; self.size];
        self.world.all_to_all_into(&counts[..], &mut incoming[..]);
        let displs = offsets(&counts);
        let in_displs = offsets(&incoming);
        let flat: Vec<T> = out.concat();
        let total: usize = incoming.iter().map(|&c| c as usize).sum();
        let mut recv = vec![T::default(); total];
        {
            let send = Partition::new(&flat[..], &counts[..], &displs[..]);
            let mut into = PartitionMut::new(&mut recv[..], &incoming[..], &in_displs[..]);
            self.world.all_to_all_varcount_into(&send, &mut into);
        }
        let unit = std::mem::size_of::<T>() as u64;
        self.sent += unit * (flat.len() - out[self.rank].len()) as u64;
        self.received += unit * (total - incoming[self.rank] as usize) as u64;
        (recv, incoming.iter().map(|&c| c as usize).collect())
    }

    fn sum(&self, x: u64) -> u64 {
        let mut total = 0u64;
        self.world
            .all_reduce_into(&x, &mut total, SystemOperation::sum());
        total
    }

    fn max(&self, x: u64) -> u64 {
        let mut most = 0u64;
        self.world
            .all_reduce_into(&x, &mut most, SystemOperation::max());
        most
    }

    /// Rank 0's `x` on every rank.
    fn broadcast(&self, mut x: u64) -> u64 {
        self.world.process_at_rank(0).broadcast_into(&mut x);
        x
    }

    /// Prints `error` and ends the whole job: the other ranks may be waiting
    /// in a collective this rank will never join.
    fn fail(&self, error: &dyn std::fmt::Display) -> ! {
        eprintln!("oware build: rank {}: {error}", self.rank);
        self.world.abort(1)
    }
}

/// [`Comm::exchange`] of ranks of the level (with [`TELL_X`] or not), as
/// 4-byte offsets into the receiver's range when every range has fewer
/// than 2^31 boards (as at every level with enough ranks), else as they are.
fn exchange_ranks(comm: &mut Comm, out: &[Vec<u64>], split: &Split) -> (Vec<u64>, Vec<usize>) {
    if !split.narrow() {
        return comm.exchange(out);
    }
    const NARROW_X: u32 = 1 << 31;
    let packed: Vec<Vec<u32>> = out
        .iter()
        .enumerate()
        .map(|(k, tells)| {
            let base = split.bounds[k];
            tells
                .iter()
                .map(|&t| {
                    let flag = if t & TELL_X != 0 { NARROW_X } else { 0 };
                    ((t & !TELL_X) - base) as u32 | flag
                })
                .collect()
        })
        .collect();
    let (recv, counts) = comm.exchange(&packed);
    let base = split.bounds[comm.rank];
    let tells = recv
        .iter()
        .map(|&w| {
            let flag = if w & NARROW_X != 0 { TELL_X } else { 0 };
            (base + u64::from(w & !NARROW_X)) | flag
        })
        .collect();
    (tells, counts)
}

fn count(len: usize) -> i32 {
    i32::try_from(len).expect("fewer than 2^31 items per message")
}

fn offsets(counts: &[i32]) -> Vec<i32> {
    counts
        .iter()
        .scan(0i32, |acc, &c| {
            let at = *acc;
            *acc += c;
            Some(at)
        })
        .collect()
}

/// What rank 0 found under a level's name (broadcast as a number).
const PRESENT: u64 = 0;
const ABSENT: u64 = 1;
const FOREIGN: u64 = 2;

/// [`super::build`] for a process of an MPI job: every rank calls it; rank
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
                Err(TableError::Missing(_) | TableError::Corrupt { .. }) => (ABSENT, None),
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
                    let stats = LevelStats::of(level, opts.variant, |r| {
                        decode(encoding, table.payload(), r)
                    });
                    LevelSummary {
                        level,
                        boards: level_size(level),
                        built: false,
                        seconds: 0.0,
                        phases: Phases::default(),
                        stats,
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
        let resident = Resident::new(tables.levels(), level, budget);
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
        let mut solver = Solver {
            n: level,
            variant: opts.variant,
            split: &split,
            lo,
            records: &mut records,
            pending: &mut pending,
            out: vec![Vec::new(); comm.size],
            stack: Vec::new(),
            edges: Vec::with_capacity(BATCH * 8),
        };
        let rounds = solver.settle_all(comm);
        drop(solver);
        let pairs = compact(records, hi - lo);
        phases.settle = split_time();
        let failure = check(comm, level, opts.variant, &resident, &split, &pairs);
        drop(resident);
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

/// One rank's share of the settling of a level.
struct Solver<'a> {
    n: usize,
    variant: Variant,
    split: &'a Split,
    /// The first rank of this rank's range.
    lo: u64,
    records: &'a mut [u8],
    pending: &'a mut [u64],
    /// Tells for other ranks: parent rank, with [`TELL_X`] when the child's
    /// x was settled.
    out: Vec<Vec<u64>>,
    /// Boards settled at this threshold whose parents have not been told
    /// yet (words, [`X_FLAG`] when their x was settled).
    stack: Vec<u128>,
    /// A batch of local parents to tell: local index and flag.
    edges: Vec<(usize, u128)>,
}

impl Solver<'_> {
    /// Every threshold, n down to 1; returns the rounds of exchanges.
    fn settle_all(&mut self, comm: &mut Comm) -> u64 {
        let local = (self.records.len() / RECORD) as u64;
        let mut rounds = 0;
        for v in (1..=self.n as u8).rev() {
            let mut scanned = 0u64;
            loop {
                if scanned < local {
                    let end = (scanned + SEGMENT).min(local);
                    self.scan(scanned, end, v);
                    scanned = end;
                }
                let outgoing: u64 = self.out.iter().map(|o| o.len() as u64).sum();
                let left = local - scanned;
                if comm.sum(outgoing + left) == 0 {
                    break;
                }
                rounds += 1;
                let (tells, _) = exchange_ranks(comm, &self.out, self.split);
                self.out.iter_mut().for_each(Vec::clear);
                for batch in tells.chunks(BATCH) {
                    for &tell in batch {
                        prefetch(&self.records[RECORD * ((tell & !TELL_X) - self.lo) as usize]);
                    }
                    for &tell in batch {
                        let p = tell & !TELL_X;
                        let i = (p - self.lo) as usize;
                        if let Some(settled) = self.tell(i, tell & TELL_X != 0, v) {
                            self.stack.push(unrank_word(p, self.n) | settled);
                        }
                    }
                    if self.stack.len() >= BATCH {
                        self.drain(v);
                    }
                }
                self.drain(v);
            }
        }
        rounds
    }

    /// Claims the boards `start..end` (local indices) pending at `v` and
    /// tells their parents.
    fn scan(&mut self, start: u64, end: u64, v: u8) {
        let mut chunk_start = start;
        while chunk_start < end {
            let chunk_end = (chunk_start + CHUNK).min(end);
            if self.pending[(chunk_start / CHUNK) as usize] >> v & 1 != 0 {
                for i in chunk_start..chunk_end {
                    let x_now = self.claim(i as usize, 0, v);
                    let y_now = self.claim(i as usize, 1, v);
                    if x_now || y_now {
                        let board = unrank_word(self.lo + i, self.n);
                        if x_now {
                            self.stack.push(board | X_FLAG);
                        }
                        if y_now {
                            self.stack.push(board);
                        }
                        if self.stack.len() >= BATCH {
                            self.drain(v);
                        }
                    }
                }
                self.drain(v);
            }
            chunk_start = chunk_end;
        }
    }

    #[inline]
    fn claim(&mut self, i: usize, byte: usize, v: u8) -> bool {
        let slot = &mut self.records[RECORD * i + byte];
        let claimed = *slot == v;
        if claimed {
            *slot = SETTLED | v;
        }
        claimed
    }

    /// Tells the parents of every board on the stack, and of every board
    /// that settles, until the stack is empty.
    fn drain(&mut self, v: u8) {
        let hi = self.lo + (self.records.len() / RECORD) as u64;
        while !self.stack.is_empty() {
            let from = self.stack.len().saturating_sub(BATCH);
            self.edges.clear();
            for child in self.stack.drain(from..) {
                let flag = child & X_FLAG;
                for_each_parent_word(child & !X_FLAG, self.variant, |parent| {
                    let p = rank_word(parent, self.n);
                    if (self.lo..hi).contains(&p) {
                        let i = (p - self.lo) as usize;
                        prefetch(&self.records[RECORD * i]);
                        self.edges.push((i, parent | flag));
                    } else {
                        let tell = if flag != 0 { p | TELL_X } else { p };
                        self.out[self.split.owner(p)].push(tell);
                    }
                });
            }
            for k in 0..self.edges.len() {
                let (i, parent) = self.edges[k];
                let flag = parent & X_FLAG;
                if let Some(settled) = self.tell(i, flag != 0, v) {
                    self.stack.push((parent & !X_FLAG) | settled);
                }
            }
        }
    }

    /// [`super::build`]'s `tell_parent` on this rank's records.
    #[inline]
    fn tell(&mut self, i: usize, is_x: bool, v: u8) -> Option<u128> {
        let r = &mut self.records[RECORD * i..RECORD * i + RECORD];
        if is_x {
            r[2] -= 1;
            if r[2] == 0 {
                let bound = r[1] & VALUE;
                if bound >= v {
                    r[1] = SETTLED | v;
                    return Some(0);
                }
                r[1] = bound;
                self.pending[i / CHUNK as usize] |= pending_bit(bound);
            }
            None
        } else if r[0] & SETTLED == 0 {
            debug_assert!(r[0] <= v, "pending x above the threshold");
            r[0] = SETTLED | v;
            Some(X_FLAG)
        } else {
            None
        }
    }
}

/// The records compacted in place into value pairs (unsettled is 0).
fn compact(mut records: Scratch, len: u64) -> Scratch {
    let final_value = |b: u8| if b & SETTLED != 0 { b & VALUE } else { 0 };
    for i in 0..len as usize {
        let (x, y) = (records[RECORD * i], records[RECORD * i + 1]);
        records[2 * i] = final_value(x);
        records[2 * i + 1] = final_value(y);
    }
    records.truncate(2 * len as usize);
    records
}

/// The distributed fixpoint re-check of this rank's boards (`pairs`).
fn check<L: LowerLevels>(
    comm: &mut Comm,
    n: usize,
    variant: Variant,
    lower: &L,
    split: &Split,
    pairs: &[u8],
) -> Result<(), FixpointError> {
    let (lo, hi) = split.range(comm.rank);
    let rounds = (0..comm.size)
        .map(|k| {
            let (a, b) = split.range(k);
            (b - a).div_ceil(CHECK_BLOCK)
        })
        .max()
        .unwrap_or(0);
    let mut first_error = None;
    let mut asks: Vec<Vec<u64>> = vec![Vec::new(); comm.size];
    let mut answers: Vec<Vec<u16>> = vec![Vec::new(); comm.size];
    let mut edges: Vec<(u8, u8, u64)> = Vec::with_capacity(CHECK_BATCH * 6);
    let mut moves: Vec<(usize, u8, u8)> = Vec::with_capacity(CHECK_BATCH);
    let mut block_boards: Vec<u128> = Vec::new();
    let mut block_moves: Vec<u8> = Vec::new();
    let mut block_edges: Vec<(u8, u64)> = Vec::new();
    let local = |r: u64| {
        let i = 2 * (r - lo) as usize;
        Value::new(pairs[i], pairs[i + 1])
    };
    for round in 0..rounds {
        let start = (lo + round * CHECK_BLOCK).min(hi);
        let end = (start + CHECK_BLOCK).min(hi);
        // The same-level children outside this range, by owner, in the
        // order the fold below meets them.
        // The children are enumerated once: kept (seeds captured, rank),
        // in board order, a board's as many as its moves.
        asks.iter_mut().for_each(Vec::clear);
        block_boards.clear();
        block_moves.clear();
        block_edges.clear();
        for board in Boards::new(n, start, end - start).by_ref_words() {
            let m = for_each_child_word(board, variant, |_, captured, child| {
                let r = rank_word(child, n - captured as usize);
                if captured == 0 && !(lo..hi).contains(&r) {
                    asks[split.owner(r)].push(r);
                }
                block_edges.push((captured, r));
            });
            block_boards.push(board);
            block_moves.push(m as u8);
        }
        let (asked, counts) = exchange_ranks(comm, &asks, split);
        let mut at = 0;
        for (k, answer) in answers.iter_mut().enumerate() {
            answer.clear();
            answer.extend(asked[at..at + counts[k]].iter().map(|&r| {
                let v = local(r);
                u16::from(v.mover) | u16::from(v.opponent) << 8
            }));
            at += counts[k];
        }
        let (values, counts) = comm.exchange(&answers);
        let mut cursor: Vec<usize> = offsets(&counts.iter().map(|&c| count(c)).collect::<Vec<_>>())
            .iter()
            .map(|&c| c as usize)
            .collect();
        // A batch of boards at a time: every child's entry is asked for
        // (prefetched) before the first is read, as in the single-process
        // check. An edge: board in the batch, seeds captured, and the
        // child's rank (or, when another rank sent it, its value).
        let mut r = start;
        let mut next_edge = 0;
        for (batch, batch_moves) in block_boards
            .chunks(CHECK_BATCH)
            .zip(block_moves.chunks(CHECK_BATCH))
        {
            edges.clear();
            moves.clear();
            for (b, &m) in batch_moves.iter().enumerate() {
                for &(captured, q) in &block_edges[next_edge..next_edge + m as usize] {
                    let c = captured as usize;
                    if c > 0 {
                        lower.prefetch(n - c, q);
                        edges.push((b as u8, captured, q));
                    } else if (lo..hi).contains(&q) {
                        prefetch(&pairs[2 * (q - lo) as usize]);
                        edges.push((b as u8, 0, q));
                    } else {
                        let k = split.owner(q);
                        let w = values[cursor[k]];
                        cursor[k] += 1;
                        edges.push((b as u8, u8::MAX, u64::from(w)));
                    }
                }
                next_edge += m as usize;
                moves.push((m as usize, 0u8, u8::MAX));
            }
            for &(b, c, q) in &edges {
                let (captured, value) = match c {
                    u8::MAX => (0, Value::new(q as u8, (q >> 8) as u8)),
                    0 => (0, local(q)),
                    c => (c, lower.value_at(n - c as usize, q)),
                };
                let (cx, cy) = Value::candidates(variant, captured, value);
                let f = &mut moves[b as usize];
                f.1 = f.1.max(cx);
                f.2 = f.2.min(cy);
            }
            for (&board, &(m, x, y)) in batch.iter().zip(&moves) {
                let expected = if m == 0 {
                    let (x, y) = terminal_value(&super::board::from_word(board), n as u8);
                    Value::new(x, y)
                } else {
                    Value::new(x, y)
                };
                let stored = local(r);
                if stored != expected && first_error.is_none() {
                    first_error = Some(FixpointError {
                        level: n,
                        board: super::board::from_word(board),
                        stored,
                        expected,
                    });
                }
                r += 1;
            }
        }
    }
    first_error.map_or(Ok(()), Err)
}

/// This rank's exact count and histogram.
fn local_stats(n: usize, variant: Variant, pairs: &[u8]) -> LevelStats {
    let bins = if variant == Variant::Awari { 97 } else { 49 };
    let mut s = LevelStats {
        exact: 0,
        histogram: vec![0; bins],
    };
    for p in pairs.chunks_exact(2) {
        let v = Value::new(p[0], p[1]);
        if variant == Variant::Awari {
            s.exact += 1;
            s.histogram[(i16::from(v.score()) + 48) as usize] += 1;
        } else {
            s.exact += u64::from(v.is_exact(n as u8));
            s.histogram[v.mover as usize] += 1;
        }
    }
    s
}

/// The level's statistics, on rank 0.
fn reduce_stats(comm: &Comm, s: LevelStats) -> Option<LevelStats> {
    let mut mine = vec![s.exact];
    mine.extend(&s.histogram);
    let root = comm.world.process_at_rank(0);
    if comm.rank == 0 {
        let mut all = vec![0u64; mine.len()];
        root.reduce_into_root(&mine[..], &mut all[..], SystemOperation::sum());
        Some(LevelStats {
            exact: all[0],
            histogram: all[1..].to_vec(),
        })
    } else {
        root.reduce_into(&mine[..], SystemOperation::sum());
        None
    }
}

/// Rank 0 writes the level: header with the ranks' CRC-32s combined in
/// order, then each rank's slice as it arrives.
#[allow(clippy::too_many_arguments)]
fn write(
    comm: &Comm,
    opts: &BuildOptions,
    level: usize,
    encoding: Encoding,
    split: &Split,
    path: &std::path::Path,
    payload: &[u8],
) {
    let mut h = crc32fast::Hasher::new();
    h.update(payload);
    let mine = [u64::from(h.finalize()), payload.len() as u64];
    let root = comm.world.process_at_rank(0);
    if comm.rank != 0 {
        root.gather_into(&mine[..]);
        for part in payload.chunks(WRITE_MESSAGE) {
            root.send(part);
        }
        // Rank 0 has the file in place before anyone reads it.
        comm.world.barrier();
        return;
    }
    let mut parts = vec![0u64; 2 * comm.size];
    root.gather_into_root(&mine[..], &mut parts[..]);
    let mut all = crc32fast::Hasher::new();
    for p in parts.chunks_exact(2) {
        all.combine(&crc32fast::Hasher::new_with_initial_len(p[0] as u32, p[1]));
    }
    let header = Header {
        version: FORMAT_VERSION,
        rules: opts.variant.into(),
        level: level as u8,
        boards: level_size(level),
        encoding,
        checksum: all.finalize(),
        built_unix: build_time(),
        tool_version: env!("CARGO_PKG_VERSION").to_string(),
    };
    let bytes = encoding.bytes_per_board();
    let written = super::file::write_table(path, &header, |out| {
        out.write_all(payload)?;
        for k in 1..comm.size {
            let (a, b) = split.range(k);
            let mut left = (b - a) as usize * bytes;
            while left > 0 {
                let (part, _) = comm.world.process_at_rank(k as i32).receive_vec::<u8>();
                left -= part.len();
                out.write_all(&part)?;
            }
        }
        Ok(())
    });
    if let Err(e) = written {
        comm.fail(&e);
    }
    comm.world.barrier();
}

trait WordsExt {
    fn by_ref_words(self) -> impl Iterator<Item = u128>;
}

impl WordsExt for Boards {
    fn by_ref_words(mut self) -> impl Iterator<Item = u128> {
        std::iter::from_fn(move || self.next_word())
    }
}
