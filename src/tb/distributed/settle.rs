//! One rank's share of the settling of a level, threshold by threshold.

use super::comm::{Comm, Split, exchange_ranks};
use super::{SEGMENT, TELL_X};
use crate::Variant;
use crate::tb::board::for_each_parent_word;
use crate::tb::build::{BATCH, CHUNK, RECORD, SETTLED, VALUE, X_FLAG, pending_bit};
use crate::tb::index::{rank_word, unrank_word};
use crate::tb::prefetch::prefetch;

/// One rank's share of the settling of a level.
pub(super) struct Solver<'a> {
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

impl<'a> Solver<'a> {
    /// The solver of rank's range starting at `lo`, of `ranks` ranks.
    pub(super) fn new(
        n: usize,
        variant: Variant,
        split: &'a Split,
        lo: u64,
        records: &'a mut [u8],
        pending: &'a mut [u64],
        ranks: usize,
    ) -> Solver<'a> {
        Solver {
            n,
            variant,
            split,
            lo,
            records,
            pending,
            out: vec![Vec::new(); ranks],
            stack: Vec::new(),
            edges: Vec::with_capacity(BATCH * 8),
        }
    }

    /// Every threshold, n down to 1; returns the rounds of exchanges.
    pub(super) fn settle_all(&mut self, comm: &mut Comm) -> u64 {
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

    /// [`crate::tb::build`]'s `tell_parent` on this rank's records.
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
