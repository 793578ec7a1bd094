//! `oware completions`: the shell's completion script on standard output.

use anyhow::Result;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::{Cli, output};

/// Arguments of `oware completions`.
#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    shell: Shell,
}

/// Runs `oware completions`: writes the script, to be saved where the
/// shell looks (`oware completions bash > ~/.local/share/bash-completion/completions/oware`).
pub fn run(args: CompletionsArgs) -> Result<()> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "oware", &mut script);
    output::text(String::from_utf8(script)?);
    Ok(())
}
