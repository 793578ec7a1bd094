//! The examples in the README and in the manual (`docs/src/*.md`) are run
//! and their output compared, so they cannot drift from what the program
//! does; and every relative link in those files must lead somewhere.
//!
//! How a markdown file's examples are written (trycmd's format):
//!
//! - A ```` ```console ```` block is run: each `$ oware …` line is a
//!   command, the lines below it are what it prints (standard output and
//!   standard error together), `? 2` before them gives an exit code other
//!   than 0 (`? failed` any failure). `[..]` in a line matches any text (a
//!   time, a speed), `...` on a line of its own any number of lines.
//! - The commands of one file run one after another in one scratch folder
//!   (a fresh one under `target/tmp` each run, with `OWARE_DB` unset), so a
//!   later line can probe the tables an earlier line built there. No shell:
//!   no pipes, `&&` or redirections.
//! - Every other fenced block must name its language (```` ```sh ````,
//!   ```` ```text ````, ```` ```json ````): a bare ```` ``` ```` block is taken
//!   as a console block and run. Put commands that take long (a real table
//!   build, `oware serve`) in ```` ```sh ```` blocks.
//!
//! `TRYCMD=overwrite cargo test --test examples` writes the real output
//! into the files (check the diff: it drops `[..]` where it cannot keep it).

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

/// The crate's folder.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The manual's chapters.
fn book_dir() -> PathBuf {
    root().join("docs").join("src")
}

/// README.md and the manual's chapters, the files whose examples run.
fn example_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    files.extend(markdown_in(&book_dir()));
    files
}

/// The `.md` files directly in `dir`, sorted.
fn markdown_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files
}

#[test]
fn examples_print_what_they_say() {
    // The commands run in the test's current folder: a fresh scratch folder
    // under target/, never the source tree.
    let scratch = tempfile::Builder::new()
        .prefix("examples-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("a scratch folder under target/tmp");
    std::env::set_current_dir(scratch.path()).expect("enter the scratch folder");
    // No tables unless an example builds them (or sets OWARE_DB on its own
    // line, which a default set here would override).
    // SAFETY: the other tests of this file neither read nor write the
    // environment, and no thread of this one has started yet.
    unsafe { std::env::remove_var("OWARE_DB") };

    let cases = trycmd::TestCases::new();
    cases
        .register_bin("oware", trycmd::cargo::cargo_bin!("oware"))
        .timeout(Duration::from_secs(60));
    for file in example_files() {
        cases.case(file);
    }
    cases.run();
}

/// A link found in a markdown file: its target and the line it is on.
struct Link {
    line: usize,
    target: String,
}

/// The links of a markdown text (`[text](target)`, `![alt](target)` and
/// `[label]: target`), outside fenced code blocks and inline code.
fn links(text: &str) -> Vec<Link> {
    let mut found = Vec::new();
    for (i, line) in prose_lines(text) {
        let trimmed = line.trim_start();
        let line_no = i + 1;
        // A reference definition: `[label]: target`.
        if let Some(rest) = trimmed.strip_prefix('[')
            && let Some(end) = rest.find("]:")
            && !rest[..end].contains('`')
        {
            let target = rest[end + 2..].split_whitespace().next().unwrap_or("");
            found.push(Link {
                line: line_no,
                target: target.trim_matches(|c| c == '<' || c == '>').to_string(),
            });
            continue;
        }
        let bytes = line.as_bytes();
        let mut in_code = false;
        let mut j = 0;
        while j < bytes.len() {
            match bytes[j] {
                b'`' => in_code = !in_code,
                b']' if !in_code && bytes.get(j + 1) == Some(&b'(') => {
                    let start = j + 2;
                    let mut depth = 1;
                    let mut k = start;
                    while k < bytes.len() {
                        match bytes[k] {
                            b'(' => depth += 1,
                            b')' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        k += 1;
                    }
                    let inside = &line[start..k.min(line.len())];
                    // `(target "title")`: the target is the first word.
                    let target = inside.split_whitespace().next().unwrap_or("");
                    found.push(Link {
                        line: line_no,
                        target: target.trim_matches(|c| c == '<' || c == '>').to_string(),
                    });
                    j = k;
                }
                _ => {}
            }
            j += 1;
        }
    }
    found
}

/// The lines of a markdown file outside its fenced code blocks, with
/// their indices (0-based).
fn prose_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fence: Option<String> = None;
    text.lines().enumerate().filter(move |(_, line)| {
        let trimmed = line.trim_start();
        let ticks = trimmed
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .count();
        if ticks >= 3 {
            let marker = &trimmed[..ticks];
            match &fence {
                Some(open) if marker.starts_with(open.as_str()) => fence = None,
                Some(_) => {}
                None => fence = Some(marker.to_string()),
            }
            return false;
        }
        fence.is_none()
    })
}

/// The anchors of a markdown file's headings, as mdBook (and GitHub) make
/// them: the heading's text without its markup, lower-cased, spaces turned
/// into `-`, other punctuation dropped; a repeated one gets `-1`, `-2`….
fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    for (_, line) in prose_lines(text) {
        if !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let mut id = String::new();
        for c in title.chars() {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                id.extend(c.to_lowercase());
            } else if c.is_whitespace() {
                id.push('-');
            }
        }
        let mut unique = id.clone();
        let mut n = 1;
        while seen.contains(&unique) {
            unique = format!("{id}-{n}");
            n += 1;
        }
        seen.insert(unique);
    }
    seen
}

/// `path` with `.` and `..` resolved without touching the disk.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// What is wrong with each relative link of `file` (empty when nothing is).
fn broken_links(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let dir = file.parent().expect("a file has a folder");
    let in_book = file.starts_with(book_dir());
    let name = file
        .strip_prefix(root())
        .unwrap_or(file)
        .display()
        .to_string();
    let mut problems = Vec::new();
    for link in links(&text) {
        let target = link.target.as_str();
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path_part, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target, None),
        };
        let dest = if path_part.is_empty() {
            file.to_path_buf()
        } else {
            normalize(&dir.join(path_part))
        };
        let at = format!("{name}:{}: link `{target}`", link.line);
        if !dest.exists() {
            problems.push(format!("{at}: {} does not exist", dest.display()));
            continue;
        }
        if in_book && !dest.starts_with(book_dir()) {
            problems.push(format!(
                "{at}: leads out of docs/src, which the built book does not hold"
            ));
            continue;
        }
        if let Some(anchor) = anchor
            && dest.extension().is_some_and(|e| e == "md")
        {
            let dest_text = std::fs::read_to_string(&dest).expect("a readable link target");
            if !anchors(&dest_text).contains(anchor) {
                problems.push(format!("{at}: no heading makes the anchor #{anchor}"));
            }
        }
    }
    problems
}

#[test]
fn relative_links_lead_somewhere() {
    let mut files = example_files();
    let architecture = root().join("ARCHITECTURE.md");
    if architecture.exists() {
        files.push(architecture);
    }
    let problems: Vec<String> = files.iter().flat_map(|f| broken_links(f)).collect();
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_chapter_is_in_the_summary() {
    let summary = std::fs::read_to_string(book_dir().join("SUMMARY.md")).expect("SUMMARY.md");
    let listed: HashSet<String> = links(&summary).into_iter().map(|l| l.target).collect();
    for chapter in markdown_in(&book_dir()) {
        let name = chapter.file_name().unwrap().to_string_lossy().to_string();
        if name != "SUMMARY.md" {
            assert!(listed.contains(&name), "{name} is not listed in SUMMARY.md");
        }
    }
}

#[test]
fn the_link_finder_finds_links() {
    let text = "See [the rules](rules.md#sowing) and ![a board](images/board.png).\n\
                `[not](a-link.md)` here.\n\
                ```text\n[nor](this.md)\n```\n\
                [label]: notation.md\n";
    let found: Vec<String> = links(text).into_iter().map(|l| l.target).collect();
    assert_eq!(
        found,
        ["rules.md#sowing", "images/board.png", "notation.md"]
    );
    let ids =
        anchors("# The rules\n## Sowing: `--rules` and 2 laps\n## Sowing: `--rules` and 2 laps\n");
    assert!(ids.contains("the-rules"));
    assert!(ids.contains("sowing---rules-and-2-laps"));
    assert!(ids.contains("sowing---rules-and-2-laps-1"));
}
