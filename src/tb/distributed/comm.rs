//! The ranks' ranges of a level and the exchanges between ranks.

use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use super::TELL_X;

/// The ranks' ranges of a level.
#[derive(Clone, Debug)]
pub(super) struct Split {
    /// `bounds[k]..bounds[k + 1]` is rank k's range.
    pub(super) bounds: Vec<u64>,
}

impl Split {
    pub(super) fn new(size: u64, ranks: usize) -> Split {
        let r = ranks as u128;
        Split {
            bounds: (0..=r).map(|k| (u128::from(size) * k / r) as u64).collect(),
        }
    }

    #[inline]
    pub(super) fn owner(&self, p: u64) -> usize {
        self.bounds.partition_point(|&b| b <= p) - 1
    }

    /// Whether every range has fewer than 2^31 boards.
    pub(super) fn narrow(&self) -> bool {
        self.bounds.windows(2).all(|w| w[1] - w[0] < 1 << 31)
    }

    pub(super) fn range(&self, k: usize) -> (u64, u64) {
        (self.bounds[k], self.bounds[k + 1])
    }
}

/// The communicator and the bytes it moved.
pub(super) struct Comm {
    pub(super) world: SimpleCommunicator,
    pub(super) rank: usize,
    pub(super) size: usize,
    pub(super) sent: u64,
    pub(super) received: u64,
}

impl Comm {
    /// Sends `out[k]` to rank k (every rank calls it) and returns what the
    /// others sent here, in rank order, with the count from each.
    pub(super) fn exchange<T>(&mut self, out: &[Vec<T>]) -> (Vec<T>, Vec<usize>)
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

    pub(super) fn sum(&self, x: u64) -> u64 {
        let mut total = 0u64;
        self.world
            .all_reduce_into(&x, &mut total, SystemOperation::sum());
        total
    }

    pub(super) fn max(&self, x: u64) -> u64 {
        let mut most = 0u64;
        self.world
            .all_reduce_into(&x, &mut most, SystemOperation::max());
        most
    }

    /// Rank 0's `x` on every rank.
    pub(super) fn broadcast(&self, mut x: u64) -> u64 {
        self.world.process_at_rank(0).broadcast_into(&mut x);
        x
    }

    /// Prints `error` and ends the whole job: the other ranks may be waiting
    /// in a collective this rank will never join.
    pub(super) fn fail(&self, error: &dyn std::fmt::Display) -> ! {
        eprintln!("oware build: rank {}: {error}", self.rank);
        self.world.abort(1)
    }
}

/// [`Comm::exchange`] of ranks of the level (with [`TELL_X`] or not), as
/// 4-byte offsets into the receiver's range when every range has fewer
/// than 2^31 boards (as at every level with enough ranks), else as they are.
pub(super) fn exchange_ranks(
    comm: &mut Comm,
    out: &[Vec<u64>],
    split: &Split,
) -> (Vec<u64>, Vec<usize>) {
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

pub(super) fn count(len: usize) -> i32 {
    i32::try_from(len).expect("fewer than 2^31 items per message")
}

pub(super) fn offsets(counts: &[i32]) -> Vec<i32> {
    counts
        .iter()
        .scan(0i32, |acc, &c| {
            let at = *acc;
            *acc += c;
            Some(at)
        })
        .collect()
}
