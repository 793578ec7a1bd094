//! Reading a level of format version 5: each board's code chosen by its
//! neighbours' entries, read one after the other while the board's pits 0
//! and 1 are stepped beside them.

use super::*;

impl CompactLevel {
    /// The first rank of block `b`: from the last sparse entry in a block
    /// up to `b`, the counts of the blocks between.
    pub(in crate::tb::compact) fn block_start(&self, payload: &[u8], b: usize) -> u64 {
        let shift = self.info.coding.sparse_shift;
        let entries = self.boards.div_ceil(1 << shift) as usize;
        let (mut lo, mut hi) = (0, entries);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if (self.sparse_entry(payload, mid) >> 8) as usize <= b {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let i = lo.saturating_sub(1);
        let e = self.sparse_entry(payload, i);
        let mut start = ((i as u64) << shift).saturating_sub(e & 0xFF);
        let counts = payload
            .get(self.counts_at..self.counts_at + self.blocks)
            .unwrap_or(&[]);
        for &c in counts.get((e >> 8) as usize..b).unwrap_or(&[]) {
            start += u64::from(c);
        }
        start
    }

    /// [`CompactLevel::decode_block`] for a block of version 5: each
    /// board's code is its combo's, its own or else version 4's.
    #[inline]
    pub(super) fn decode_neighbours<const L: usize>(
        &self,
        block: &[u8],
        count: usize,
        walk: &mut Walk,
        codes: &NeighbourCodes,
        mut visit: impl FnMut(u16),
    ) {
        let mut cursor = Cursor::<L>::open(self, block);
        for _ in 0..count.min(MAX_BOARDS_PER_BLOCK) {
            visit(cursor.step(self, codes, walk.next_backs()));
        }
    }

    /// The blocks `first..last` of a level of version 5, from the board
    /// `start` (the first of block `first`) on, their symbols visited in
    /// order. Two blocks are decoded side by side, so that the loads of the
    /// one overlap those of the other (each board's code is a load that
    /// depends on the board before).
    pub(super) fn decode_blocks_in_pairs(
        &self,
        payload: &[u8],
        (first, last): (usize, usize),
        start: u64,
        lattice: Lattice,
        codes: &NeighbourCodes,
        mut visit: impl FnMut(u16),
    ) {
        let counts = &payload[self.counts_at..self.counts_at + self.blocks];
        let mut walk = lattice.walk(start);
        let mut b = first;
        let mut second = [0u16; MAX_BOARDS_PER_BLOCK];
        while b < last {
            let (Some(one), Some(two)) = (self.block(payload, b), self.block(payload, b + 1))
            else {
                // The last block alone.
                if let Some(one) = self.block(payload, b) {
                    self.decode_block(one, usize::from(counts[b]), Some(&mut walk), &mut visit);
                }
                return;
            };
            if b + 1 >= last || one.len() != LARGE_BLOCK_BYTES {
                self.decode_block(one, usize::from(counts[b]), Some(&mut walk), &mut visit);
                b += 1;
                continue;
            }
            let (n1, n2) = (usize::from(counts[b]), usize::from(counts[b + 1]));
            let mut walk2 = lattice.walk(walk.position() + n1 as u64);
            let mut c1 = Cursor::<4>::open(self, one);
            let mut c2 = Cursor::<4>::open(self, two);
            let both = n1.min(n2);
            for slot in second.iter_mut().take(both) {
                let backs1 = walk.next_backs();
                let backs2 = walk2.next_backs();
                visit(c1.step(self, codes, backs1));
                *slot = c2.step(self, codes, backs2);
            }
            for _ in both..n1 {
                visit(c1.step(self, codes, walk.next_backs()));
            }
            for slot in second.iter_mut().take(n2).skip(both) {
                *slot = c2.step(self, codes, walk2.next_backs());
            }
            second[..n2].iter().for_each(|&s| visit(s));
            walk = walk2;
            b += 2;
        }
    }
}

/// Where decoding a block of version 5 stands: its bits still to read
/// (in `L` registers), its class, the code of the next board, and the
/// names of the boards read so far as neighbours.
struct Cursor<const L: usize> {
    limbs: [u128; L],
    class_base: usize,
    code: usize,
    k: usize,
    names: [u8; MAX_BOARDS_PER_BLOCK + 1],
}

impl<const L: usize> Cursor<L> {
    #[inline]
    fn open(level: &CompactLevel, block: &[u8]) -> Cursor<L> {
        let (limbs, class_base) = level.open_block::<L>(block);
        Cursor {
            limbs,
            class_base,
            code: class_base + START,
            k: 0,
            names: [NONE; MAX_BOARDS_PER_BLOCK + 1],
        }
    }

    /// The next board's symbol, its neighbours `backs` away.
    #[inline(always)]
    fn step(&mut self, level: &CompactLevel, codes: &NeighbourCodes, backs: Backs) -> u16 {
        let k = self.k.min(MAX_BOARDS_PER_BLOCK);
        let name = |back: u8| match usize::from(back) {
            0 => NONE,
            b if b > k => NONE,
            b => self.names[k - b],
        };
        let code = codes.id(combo(self.code, name(backs.up), name(backs.over)));
        let (symbol, len) = codes.decode(code, (self.limbs[0] >> 112) as u32);
        let next = self.class_base + level.context_after(symbol);
        self.names[k] = bucket(symbol);
        self.k = k + 1;
        self.code = next;
        shift_limbs(&mut self.limbs, len);
        symbol
    }
}
