//! The `oware` command line: parses arguments and calls the library.

mod cli;

use std::process::ExitCode;

use clap::Parser;

use cli::output;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout as clap formats them.
        Err(e) if !e.use_stderr() => {
            output::text(e.render());
            return ExitCode::SUCCESS;
        }
        // A usage error, on one line: what clap says before its usage hint,
        // its tips ("a similar argument exists: '--depth'") included.
        Err(e) => {
            output::note(cli::one_line_error(&e.to_string()));
            return ExitCode::from(2);
        }
    };
    if !cli.recovers_from_panics() {
        let report = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            report(info);
            std::process::abort();
        }));
    }
    match cli.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            output::note(format_args!("error: {e:#}"));
            ExitCode::from(2)
        }
    }
}
