//! The probe's paths through a block against decoding it whole.
use super::super::{BLOCK_BYTES, Coding, compress};
use super::*;

/// An entry of geometric frequencies (the trailing zeros of a hash),
/// so that the rarer symbols take codes longer than [`FAST_BITS`],
/// with runs of one entry for the skip table to pass over in a look-up.
fn skewed(r: u64) -> u16 {
    if (r / 200).is_multiple_of(3) {
        return 0;
    }
    let h = (r ^ 0x5555).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 20).trailing_zeros().min(24) as u16
}

/// A small pseudo-random generator for garbage blocks.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The symbols of the first `count` boards of `block`, decoded one
/// after the other.
fn decoded(level: &CompactLevel, block: &[u8], count: usize) -> Vec<u16> {
    let mut symbols = Vec::with_capacity(count);
    level.decode_block(block, count, None, |s| symbols.push(s));
    symbols
}

/// The skip table's path to board n of a block reads what decoding
/// the block from its start reads, in blocks of either size, for the
/// level's own blocks and for garbage (where neither may panic).
#[test]
fn passing_over_codes_reads_what_decoding_them_reads() {
    let boards = 1u64 << 16;
    for bytes in [BLOCK_BYTES, LARGE_BLOCK_BYTES] {
        let (info, payload) =
            compress(boards, Coding::with_block_bytes(bytes), &skewed, None).payload();
        let model = Model::from_bytes(
            &payload[info.sections.model.offset as usize..][..info.sections.model.len as usize],
        )
        .unwrap();
        let longest = model.lengths.iter().flatten().max().copied().unwrap_or(0);
        assert!(
            u32::from(longest) > FAST_BITS,
            "codes of {longest} bits at most"
        );
        let level = CompactLevel::open(&payload, boards, info, None).unwrap();
        let counts = &payload[level.counts_at..level.counts_at + level.blocks];
        let (mut skipped, mut rank) = (0, 0u64);
        for (b, &count) in counts.iter().enumerate() {
            let block = level.block(&payload, b).unwrap();
            let count = usize::from(count);
            let symbols = decoded(&level, block, count);
            for (n, &s) in symbols.iter().enumerate() {
                let nth = match bytes {
                    LARGE_BLOCK_BYTES => level.decode_nth::<4>(block, n),
                    _ => level.decode_nth::<2>(block, n),
                };
                assert_eq!(nth, s, "{bytes}-byte block {b}, board {n}");
                assert_eq!(level.symbols[usize::from(s)], skewed(rank), "rank {rank}");
                rank += 1;
            }
            skipped += count;
        }
        assert_eq!(skipped as u64, boards);
        // Garbage: any bytes, any board of the block.
        let mut state = 0x2545_F491_4F6C_DD1D;
        for _ in 0..300 {
            let garbage: Vec<u8> = (0..bytes).map(|_| xorshift(&mut state) as u8).collect();
            let symbols = decoded(&level, &garbage, MAX_BOARDS_PER_TEST);
            for (n, &s) in symbols.iter().enumerate() {
                let nth = match bytes {
                    LARGE_BLOCK_BYTES => level.decode_nth::<4>(&garbage, n),
                    _ => level.decode_nth::<2>(&garbage, n),
                };
                assert_eq!(nth, s, "garbage, {bytes}-byte block, board {n}");
                assert!(usize::from(s) < level.symbols.len());
            }
        }
    }
}

/// Garbage blocks read as a level of version 5 (its own codes, stepping
/// the board from any rank) decode to symbols of the level, never to a
/// panic.
#[test]
fn garbage_blocks_of_version_5_decode_to_symbols_of_the_level() {
    let lattice = Lattice::oware(12);
    let boards = lattice.boards();
    let entries: Vec<u16> = crate::tb::index::Boards::new(12, 0, boards)
        .map(|b| (u16::from(b[2]) + 3 * u16::from(b[3]) + u16::from(b[0] == 0)) % 23)
        .collect();
    let entry = |r: u64| entries[r as usize];
    let (info, payload) = compress(boards, Coding::DEFAULT, &entry, Some(lattice)).payload();
    let level = CompactLevel::open(&payload, boards, info, Some(lattice)).unwrap();
    let codes = level.neighbours.as_ref().map_or(0, |(_, c)| c.codes());
    assert!(codes > 0, "some combo has a code of its own");
    for r in (0..boards).step_by(1013) {
        assert_eq!(level.entry(&payload, r), entry(r), "rank {r}");
    }
    let mut state = 0x2545_F491_4F6C_DD1D;
    for _ in 0..300 {
        let garbage: Vec<u8> = (0..LARGE_BLOCK_BYTES)
            .map(|_| xorshift(&mut state) as u8)
            .collect();
        let start = xorshift(&mut state) % (boards + 300);
        let mut walk = lattice.walk(start);
        let mut n = 0;
        level.decode_block(&garbage, MAX_BOARDS_PER_TEST, Some(&mut walk), |s| {
            assert!(usize::from(s) < level.symbols.len());
            n += 1;
        });
        assert_eq!(n, MAX_BOARDS_PER_TEST);
    }
}

/// Boards of a garbage block decoded (a count byte holds at most 255).
const MAX_BOARDS_PER_TEST: usize = super::super::MAX_BOARDS_PER_BLOCK;

/// The skip table never claims a code whose bits run past its prefix,
/// and passes over as many codes as the fast table read one by one.
#[test]
fn skip_entries_agree_with_the_fast_table() {
    let boards = 1u64 << 16;
    let (info, payload) = compress(boards, Coding::DEFAULT, &skewed, None).payload();
    let level = CompactLevel::open(&payload, boards, info, None).unwrap();
    let width = 1usize << FAST_BITS;
    let mut multi = 0;
    for (at, &skip) in level.skip.iter().enumerate() {
        let (codes, used) = (skip >> 16, skip >> 12 & 0xF);
        assert!(used <= FAST_BITS && codes <= MAX_SKIP, "entry {at}");
        // Read the same codes one by one from the prefix.
        let (mut code, prefix) = (at / width, at % width);
        let mut bits = 0;
        for _ in 0..codes {
            let entry = level.fast[code * width + ((prefix << bits) & (width - 1))];
            assert_eq!(entry & SLOW, 0, "entry {at}");
            bits += entry >> 24 & 0xF;
            code = (entry >> 12 & 0xFFF) as usize;
        }
        assert_eq!((bits, code as u32), (used, skip & 0xFFF), "entry {at}");
        multi += usize::from(codes > 1);
    }
    assert!(multi > 0, "some prefix holds more than one code");
}
