//! A level's exact count and histogram, summed over the ranks.

use mpi::collective::SystemOperation;
use mpi::traits::*;

use super::comm::Comm;
use crate::Variant;
use crate::tb::builder::LevelStats;
use crate::tb::value::Value;

/// This rank's exact count and histogram.
pub(super) fn local_stats(n: usize, variant: Variant, pairs: &[u8]) -> LevelStats {
    let bins = if variant == Variant::Awari { 97 } else { 49 };
    let mut s = LevelStats {
        exact: 0,
        histogram: vec![0; bins],
        impossible: 0,
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
pub(super) fn reduce_stats(comm: &Comm, s: LevelStats) -> Option<LevelStats> {
    let mut mine = vec![s.exact];
    mine.extend(&s.histogram);
    let root = comm.world.process_at_rank(0);
    if comm.rank == 0 {
        let mut all = vec![0u64; mine.len()];
        root.reduce_into_root(&mine[..], &mut all[..], SystemOperation::sum());
        Some(LevelStats {
            exact: all[0],
            histogram: all[1..].to_vec(),
            impossible: 0,
        })
    } else {
        root.reduce_into(&mine[..], SystemOperation::sum());
        None
    }
}
