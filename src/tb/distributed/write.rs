//! Rank 0 writes a level's file from every rank's slice.

use mpi::traits::*;

use super::WRITE_MESSAGE;
use super::comm::{Comm, Split};
use crate::tb::builder::{BuildOptions, build_time};
use crate::tb::file::{Encoding, FORMAT_VERSION, Header, write_table};
use crate::tb::index::level_size;

/// Rank 0 writes the level: header with the ranks' CRC-32s combined in
/// order, then each rank's slice as it arrives.
#[allow(clippy::too_many_arguments)]
pub(super) fn write(
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
    let written = write_table(path, &header, |out| {
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
