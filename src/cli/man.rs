//! `oware man`: the manual page (roff) on standard output.

use anyhow::Result;
use clap::{Args, CommandFactory};

use super::{Cli, output};

/// Arguments of `oware man` (none).
#[derive(Args)]
pub struct ManArgs {}

/// Runs `oware man`: `oware man > oware.1; man ./oware.1` reads it.
pub fn run(_args: ManArgs) -> Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    output::text(String::from_utf8(page)?);
    Ok(())
}
