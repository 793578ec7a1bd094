//! What a command-line tool is expected to offer: shell completions, a
//! manual page, one name for the table folder, help that shows the
//! position format, and "a similar argument exists" hints.

mod common;

use common::{fails, oware, stdout};

/// The subcommands `oware --help` lists (`help` aside).
fn subcommands() -> Vec<String> {
    let help = stdout(&["--help"]);
    let names: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(str::to_string)
        .collect();
    for known in ["show", "bestmove", "build", "serve", "completions", "man"] {
        assert!(names.iter().any(|n| n == known), "{known}: {names:?}");
    }
    names
}

#[test]
fn the_bash_script_completes_every_subcommand() {
    let script = stdout(&["completions", "bash"]);
    assert!(script.contains("complete -F _oware"), "{script}");
    for name in subcommands() {
        assert!(
            script.contains(&format!("oware,{name})")),
            "{name} missing from the bash script"
        );
    }
}

#[test]
fn every_shell_has_a_script() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout(&["completions", shell]);
        assert!(script.contains("oware"), "{shell}");
        assert!(script.contains("bestmove"), "{shell}");
    }
}

#[test]
fn an_unknown_shell_is_an_error() {
    fails(&["completions", "tcsh"], "invalid value 'tcsh'");
    let out = oware(&["completions"]);
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn the_man_page_is_roff_and_names_the_subcommands() {
    let page = stdout(&["man"]);
    // clap_mangen first defines the quote string (`.ie`/`.el`), then the
    // title: the first macro of the page proper is `.TH`.
    let first_macro = page
        .lines()
        .find(|l| l.starts_with('.') && !l.starts_with(".ie") && !l.starts_with(".el"))
        .unwrap();
    assert!(first_macro.starts_with(".TH oware 1"), "{first_macro}");
    assert!(page.contains(".SH SYNOPSIS"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    for name in subcommands() {
        assert!(page.contains(&format!("oware\\-{name}")), "{name}: {page}");
    }
}

#[test]
fn a_misspelt_option_gets_a_hint_on_one_line() {
    fails(&["bestmove", "--dept", "3"], "unexpected argument '--dept'");
    fails(
        &["bestmove", "--dept", "3"],
        "a similar argument exists: '--depth'",
    );
    // The hint leaves out clap's usage block and its pointer to --help.
    let out = oware(&["bestmove", "--dept", "3"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("Usage:") && !err.contains("For more"),
        "{err}"
    );
}

#[test]
fn the_position_help_shows_the_format_with_an_example() {
    for command in [
        &["bestmove"][..],
        &["analyze"],
        &["show"],
        &["perft"],
        &["probe"],
        &["solve"],
        &["book", "show"],
    ] {
        let mut args = command.to_vec();
        args.push("--help");
        let help = stdout(&args);
        assert!(help.contains("p0-…-p11-S-N-T"), "{command:?}: {help}");
        assert!(help.contains("e.g. "), "{command:?}: {help}");
    }
    let help = stdout(&["bestmove", "--help"]);
    assert!(help.contains("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"), "{help}");
}

#[test]
fn the_table_folder_is_db_with_dir_as_an_alias() {
    for command in ["probe", "verify", "stats"] {
        let help = stdout(&[command, "--help"]);
        assert!(help.contains("--db <DIR>"), "{command}: {help}");
        assert!(
            help.contains("[aliases: --dir]") || help.contains("[alias: --dir]"),
            "{help}"
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    common::build(tmp.path(), "3");
    for flag in ["--db", "--dir"] {
        let out = stdout(&["stats", flag, dir]);
        assert!(out.contains("level  3:"), "{flag}: {out}");
        let out = stdout(&["probe", "0-0-0-0-0-1-0-0-0-0-0-2-22-23-S", flag, dir]);
        assert!(!out.is_empty(), "{flag}");
    }
}

#[test]
fn no_tables_says_how_to_build_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_str().unwrap();
    let out = oware(&["bestmove", "--depth", "2", "--db", dir]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`oware build"), "{err}");
    fails(&["verify", "--db", dir], "`oware build");
    let out = oware(&["stats", "--db", dir]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`oware build"), "{err}");
}
