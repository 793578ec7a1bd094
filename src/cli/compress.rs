//! `oware compress`: convert a folder's raw tables (and compact ones of
//! another format version than `--neighbours-from` asks for) to the compact
//! format.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;

use oware::tb::compact::{Coding, compress_folder};

use super::common::thread_pool;
use super::output;
use super::tables::{TableChoice, TableRulesArgs};

/// Arguments of `oware compress`.
#[derive(Args)]
pub struct CompressArgs {
    /// Folder of the table files (default: $OWARE_DB, else `databases`;
    /// `databases/mancala` for mancala).
    #[arg(long, visible_alias = "dir", value_name = "DIR")]
    db: Option<PathBuf>,
    #[command(flatten)]
    rules: TableRulesArgs,
    /// Only this level (0..=48).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=48))]
    level: Option<u8>,
    /// Bytes a block takes: 64 (the default, the smallest files) or 32
    /// (the block size of format version 3: files about 2 % larger, probes
    /// about a third faster). Levels coded in the other size are coded
    /// again, so a later run without this flag brings them back to 64.
    #[arg(long, default_value_t = 64, value_parser = parse_block_bytes, value_name = "BYTES")]
    block_bytes: usize,
    /// The first level coded by its boards' neighbours too (format version
    /// 5: about 0.2 bits a board, 5 %, smaller from level 24 on, but decoded
    /// and probed about three times slower); 49 for none. Each level is
    /// coded again when in the other version: version 5 from this level
    /// up, version 4 below (Oware's levels only, and only those of a
    /// million boards or more and at most 256 distinct entries: the
    /// others stay in version 4).
    #[arg(long, default_value_t = oware::tb::compact::NEIGHBOURS_FROM as u8, value_name = "LEVEL",
          value_parser = clap::value_parser!(u8).range(0..=49))]
    neighbours_from: u8,
    /// Worker threads (default: every core).
    #[arg(long, value_parser = super::common::parse_threads)]
    threads: Option<usize>,
    /// Print one JSON object when done.
    #[arg(long)]
    json: bool,
}

/// Runs `oware compress`.
pub fn run(args: CompressArgs) -> Result<()> {
    let choice = args.rules.choice()?;
    let dir = choice.folder(args.db.as_ref());
    let rules = match choice {
        TableChoice::Oware(variant) => oware::tb::TableRules::Oware(variant),
        TableChoice::Mancala(rules) => oware::tb::TableRules::Mancala {
            empty_capture: rules.empty_capture,
        },
        TableChoice::MancalaRace(rules) => rules.table_rules(),
    };
    let pool = thread_pool(args.threads)?;
    let json = args.json;
    let done = pool
        .install(|| {
            compress_folder(
                &dir,
                rules,
                args.level.map(usize::from),
                Coding::with_block_bytes(args.block_bytes),
                usize::from(args.neighbours_from),
                |c| {
                    if !json {
                        output::line(c.describe());
                    }
                },
            )
        })
        .with_context(|| format!("cannot compress the tables in {}", dir.display()))?;
    if done.is_empty() {
        anyhow::bail!(
            "no {rules} tables in {} (`oware build {} --max-seeds 16 --db {}` builds them)",
            dir.display(),
            rules.build_flags(),
            dir.display()
        );
    }
    let raw: u64 = done.iter().map(|c| c.raw_bytes).sum();
    let compact: u64 = done.iter().map(|c| c.compact_bytes).sum();
    if json {
        let levels: Vec<_> = done
            .iter()
            .map(|c| {
                json!({"seeds": c.level, "boards": c.boards, "raw_bytes": c.raw_bytes,
                       "compact_bytes": c.compact_bytes, "bits_per_board": c.bits_per_board(),
                       "order0_bits": c.entropy, "converted": c.converted, "seconds": c.seconds})
            })
            .collect();
        output::line(
            json!({"rules": rules.name(), "raw_bytes": raw, "compact_bytes": compact, "levels": levels}),
        );
    } else {
        output::line(format_args!(
            "{} levels: {raw} raw bytes → {compact} compact bytes ({:.1} %) in {}",
            done.len(),
            100.0 * compact as f64 / raw.max(1) as f64,
            dir.display()
        ));
    }
    Ok(())
}

/// Reads `--block-bytes`: 32 or 64.
fn parse_block_bytes(text: &str) -> Result<usize, String> {
    match text {
        "32" => Ok(32),
        "64" => Ok(64),
        _ => Err(format!("blocks take 32 or 64 bytes, not {text:?}")),
    }
}
