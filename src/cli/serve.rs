//! `oware serve`: play in the browser (see the README's "Playing in the
//! browser").

use std::collections::HashMap;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;

use oware::mancala::{self, MancalaRules, tables::MancalaTables};
use oware::serve::{self, limits::ServerLimits};
use oware::{Variant, tb};

use super::common::table_folder;
use super::output;

/// Arguments of `oware serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on (127.0.0.1: this machine only; 0.0.0.0 to
    /// share on the network).
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Port (0: any free port, said on the first line).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Endgame table folder (default: $OWARE_DB, else `databases` when it
    /// exists).
    #[arg(long)]
    db: Option<PathBuf>,
    /// Folder of the games database (default: $XDG_DATA_HOME/oware, else
    /// ~/.local/share/oware).
    #[arg(long)]
    data: Option<PathBuf>,
    /// The address links are built on, e.g. behind a proxy (default:
    /// http://{bind}:{port}).
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,
    /// Games kept in memory (older ones are read back from the database).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_games: u64,
    /// WebSocket connections open at once.
    #[arg(long, default_value_t = 1_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    max_sockets: u64,
    /// Requests a second per client address (0: no limit).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    rate: u32,
    /// Requests a client may send in a burst.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    burst: u32,
}

/// The default folder of the games database.
fn data_folder() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(dir).join("oware"));
    }
    let home = std::env::var_os("HOME")
        .filter(|v| !v.is_empty())
        .context("no --data folder, and neither $XDG_DATA_HOME nor $HOME is set")?;
    Ok(PathBuf::from(home).join(".local/share/oware"))
}

/// The tables of every rule set found in the table folder.
fn open_tables(given: Option<&PathBuf>) -> Result<HashMap<Variant, Arc<tb::Tablebase>>> {
    let (dir, asked) = table_folder(given);
    let mut found = HashMap::new();
    if !dir.is_dir() {
        if asked {
            anyhow::bail!("the table folder {} does not exist", dir.display());
        }
        output::note(format_args!(
            "tables: none ({} not found; {})",
            dir.display(),
            super::common::build_hint(&dir, false, Variant::Abapa)
        ));
        return Ok(found);
    }
    for variant in Variant::ALL.into_iter().filter(|v| v.has_tables()) {
        // Decoded alongside the first requests: the server starts at once.
        let limit = tb::SEARCH_LEVEL_LIMIT as usize;
        let tables = tb::Tablebase::open_for_search_lazily(&dir, variant, limit)
            .context("cannot open the tables")?;
        for rejected in tables.rejected() {
            output::note(format_args!("warning: table left closed: {rejected}"));
        }
        if tables.complete_up_to().is_some() {
            output::note(format_args!("tables: {}", tables.describe()));
            let tables = Arc::new(tables);
            let _ = tables.decode_in_background(tb::levels::decode_budget());
            found.insert(variant, tables);
        }
    }
    Ok(found)
}

/// Mancala's tables of each capture convention in the table folder (its
/// `mancala` subfolder when it has one; by default `databases/mancala`).
fn open_mancala_tables(given: Option<&PathBuf>) -> Result<[Option<Arc<MancalaTables>>; 2]> {
    let (dir, asked) = table_folder(given);
    let dir = mancala::tables::search_folder(&dir, asked);
    let mut found = [None, None];
    if !dir.is_dir() {
        return Ok(found);
    }
    for (slot, empty_capture) in found.iter_mut().zip([false, true]) {
        let rules = MancalaRules {
            empty_capture,
            ..MancalaRules::default()
        };
        let tables = MancalaTables::open_for_search(&dir, rules, tb::SEARCH_LEVEL_LIMIT as usize)
            .context("cannot open Mancala's tables")?;
        for rejected in tables.rejected() {
            output::note(format_args!("warning: table left closed: {rejected}"));
        }
        if !tables.levels().present().is_empty() {
            output::note(format_args!("tables: {}", tables.describe()));
            *slot = Some(Arc::new(tables));
        }
    }
    Ok(found)
}

/// Runs `oware serve`.
pub fn run(args: ServeArgs) -> Result<()> {
    let data = match args.data {
        Some(dir) => dir,
        None => data_folder()?,
    };
    let config = serve::Config {
        bind: args.bind,
        port: args.port,
        data: data.clone(),
        public_url: args.public_url,
        tables: open_tables(args.db.as_ref())?,
        mancala_tables: open_mancala_tables(args.db.as_ref())?,
        limits: ServerLimits {
            live_games: args.max_games as usize,
            sockets: args.max_sockets as usize,
            rate: args.rate,
            burst: args.burst,
        },
    };
    serve::run(config, |addr, public| {
        output::line(format_args!(
            "oware serve: listening on http://{addr} (links: {public}, games in {})",
            data.display()
        ));
    })
}
