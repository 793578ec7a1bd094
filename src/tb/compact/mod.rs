//! The compact table format: a level's entries entropy-coded in small
//! blocks that a probe decodes one at a time.
//!
//! A compact file starts like a raw one (magic, header length, header), but
//! its header has format version [`COMPACT_VERSION`] and goes on with the
//! coding parameters and where the sections lie. The header's `checksum`
//! is the CRC-32 of the raw payload the level decodes to, so a full decode
//! checks the file against the values it was made from. After the header,
//! each at a multiple of 64 bytes:
//!
//! 1. the **model** ([`model::Model`]): the level's distinct entries and one
//!    canonical Huffman code per context (the entry of the board ranked
//!    just before); in version 5, then the codes of the combos of a context
//!    and the entries of the board's neighbours ([`neighbours`]);
//! 2. the **sparse index**: for every `2^sparse_shift`-th rank, a `u64`
//!    holding its block (high bits) and the boards before it in that block
//!    (low 8 bits);
//! 3. the **counts**: the boards of each block, a byte each;
//! 4. the **chunk checksums**: CRC-32 of each group of `chunk_blocks`
//!    blocks of data;
//! 5. the **data**: blocks of `block_bytes` bytes, each holding its class
//!    (the model's class bits, none with one class) and whole codes of
//!    consecutive ranks, the first coded in the start context of its class;
//!    then eight zero bytes.
//!
//! Sections 1..4 are checked against the header's `meta_checksum` whenever
//! the file is opened; the data's chunks when the level is opened for a
//! search and by `oware verify`. A probe of rank `r` reads the sparse entry
//! of `r >> sparse_shift`, walks the counts to the block holding `r`, and
//! decodes that block up to `r`.

pub mod bits;
pub mod cache;
pub mod classes;
pub mod convert;
pub mod encode;
pub mod huffman;
pub mod lattice;
pub mod level;
pub mod model;
pub mod narrow;
pub mod neighbours;
pub mod words;

use serde::{Deserialize, Serialize};

pub use convert::{Compaction, compress_file, compress_folder, write_compact_level};
pub use encode::{Compressed, NEIGHBOURS_FROM, codes_by_neighbours, compress};
pub use lattice::Lattice;
pub use level::CompactLevel;

/// The header version of compact files whose codes are chosen by the
/// board's neighbours too (raw files are version 1); files of
/// [`COMPACT_V2`], [`COMPACT_V3`] and [`COMPACT_V4`] read the same.
pub const COMPACT_VERSION: u32 = 5;

/// The compact files whose codes are chosen by class and the entry before
/// only: every level before version 5, and still the small levels and
/// Mancala's.
pub const COMPACT_V4: u32 = 4;

/// The compact files before classes of codes (their models have one
/// class, their blocks no class bits).
pub const COMPACT_V2: u32 = 2;

/// The compact files before blocks of 64 bytes (every block 32 bytes).
pub const COMPACT_V3: u32 = 3;

/// Bytes a block of the older formats takes, and the smaller of the two
/// block sizes.
pub const BLOCK_BYTES: usize = 32;

/// Bytes a block takes in the larger size: one cache line, whose bits the
/// probe holds in four 128-bit registers.
pub const LARGE_BLOCK_BYTES: usize = 64;

/// The most boards a block holds (its count is a byte).
pub const MAX_BOARDS_PER_BLOCK: usize = 255;

/// How a level was cut and indexed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coding {
    /// Bytes a block takes: [`BLOCK_BYTES`] or [`LARGE_BLOCK_BYTES`].
    pub block_bytes: u32,
    /// The sparse index holds every `2^sparse_shift`-th rank.
    pub sparse_shift: u8,
    /// Blocks a data checksum covers.
    pub chunk_blocks: u32,
}

impl Coding {
    /// The coding `oware build` and `oware compress` write.
    pub const DEFAULT: Coding = Coding {
        block_bytes: LARGE_BLOCK_BYTES as u32,
        sparse_shift: 11,
        chunk_blocks: 2048,
    };

    /// [`Coding::DEFAULT`] with blocks of `block_bytes` bytes.
    pub const fn with_block_bytes(block_bytes: usize) -> Coding {
        Coding {
            block_bytes: block_bytes as u32,
            ..Coding::DEFAULT
        }
    }

    /// Whether the parameters are within what the reader accepts (blocks
    /// of 64 bytes only from format version 4 on, which the file's reader
    /// checks).
    pub const fn is_valid(self) -> bool {
        let bytes = self.block_bytes as usize;
        (bytes == BLOCK_BYTES || bytes == LARGE_BLOCK_BYTES)
            && self.sparse_shift >= 4
            && self.sparse_shift <= 24
            && self.chunk_blocks >= 1
    }
}

/// Where a section lies: bytes from the start of the payload, and its
/// length.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// Offset from the payload's start (a multiple of 64).
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
}

/// The sections of a compact file, in file order.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sections {
    /// The model.
    pub model: Section,
    /// The sparse index.
    pub sparse: Section,
    /// The blocks' board counts.
    pub counts: Section,
    /// The data chunks' CRC-32s.
    pub chunk_checksums: Section,
    /// The blocks.
    pub data: Section,
}

impl Sections {
    /// Lays out the sections of `c` one after another, each at a multiple
    /// of 64 bytes.
    pub fn of(c: &Compressed) -> Sections {
        let mut at = 0u64;
        let mut next = |len: usize| {
            let s = Section {
                offset: at,
                len: len as u64,
            };
            at = (at + len as u64).div_ceil(64) * 64;
            s
        };
        Sections {
            model: next(c.model.len()),
            sparse: next(8 * c.sparse.len()),
            counts: next(c.counts.len()),
            chunk_checksums: next(4 * c.chunk_checksums.len()),
            data: next(c.data_len()),
        }
    }

    /// The payload's length.
    pub fn end(&self) -> u64 {
        self.data.offset + self.data.len
    }
}

/// The part of a compact header after the common fields.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactInfo {
    /// How the level was cut.
    pub coding: Coding,
    /// Where the sections lie.
    pub sections: Sections,
    /// CRC-32 of the model, sparse index, counts and chunk checksums, in
    /// that order.
    pub meta_checksum: u32,
}

/// The CRC-32 of the sections before the data.
pub fn meta_checksum(model: &[u8], sparse: &[u8], counts: &[u8], chunks: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    for part in [model, sparse, counts, chunks] {
        h.update(part);
    }
    h.finalize()
}

impl Compressed {
    /// The sections' bytes as the file holds them, with their layout and
    /// the meta checksum.
    pub fn layout(&self) -> (CompactInfo, [Vec<u8>; 4]) {
        let sparse: Vec<u8> = self.sparse.iter().flat_map(|x| x.to_le_bytes()).collect();
        let chunks: Vec<u8> = self
            .chunk_checksums
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let info = CompactInfo {
            coding: self.coding,
            sections: Sections::of(self),
            meta_checksum: meta_checksum(&self.model, &sparse, &self.counts, &chunks),
        };
        (
            info,
            [self.model.clone(), sparse, self.counts.clone(), chunks],
        )
    }

    /// Bytes of the payload (sections and their padding).
    pub fn payload_bytes(&self) -> u64 {
        Sections::of(self).end()
    }

    /// The whole payload as a file holds it after its header, with the
    /// header's description of it (for tests that open a level in memory).
    #[cfg(test)]
    pub(crate) fn payload(&self) -> (CompactInfo, Vec<u8>) {
        let (info, [model, sparse, counts, chunks]) = self.layout();
        let s = info.sections;
        let mut payload = vec![0u8; s.end() as usize];
        for (section, bytes) in [
            (s.model, &model),
            (s.sparse, &sparse),
            (s.counts, &counts),
            (s.chunk_checksums, &chunks),
        ] {
            payload[section.offset as usize..][..bytes.len()].copy_from_slice(bytes);
        }
        let mut at = s.data.offset as usize;
        for part in self.data_parts() {
            payload[at..][..part.len()].copy_from_slice(part);
            at += part.len();
        }
        (info, payload)
    }
}
