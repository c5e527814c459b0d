//! The documentation's commands, run as shown: every ```` ```console ```` block of `README.md` and of
//! each page in `docs/` is a shell session (`$ ` and a command, then the output it prints), and this
//! test runs each command and compares what it prints with the lines shown, so that a command that
//! stops working, or whose shown output changes, fails the suite instead of drifting in the docs.
//!
//! A small harness of our own rather than a crate such as `trycmd`: the docs pipe one command into
//! another (`solve ... | ktour verify -`), which wants a shell; the commands read the repository's
//! committed inputs (`results/pictures/holey-8x8.mask`, `experiments/`) while what they write must
//! land in a throw-away folder; and the whole harness is these few functions, with no crates added to
//! every test build. The conventions follow `trycmd`'s, so a reader of either knows both:
//!
//! - a line `...` stands for any number of lines (none included), and `...` inside a line for any
//!   text (timings, counts of nodes that depend on the machine);
//! - the output's first line `? N` says the command exits with status N (`? failed`: any but 0);
//!   without it the command must succeed;
//! - standard error is shown merged into standard output, as a terminal shows them;
//! - each block runs in a fresh temporary folder that sees the repository's `experiments/`,
//!   `results/*` and `tests/fixtures/` through links, with `ktour` (the binary under test) first on the
//!   `PATH` and `HOME` in the temporary folder; the commands of one block share that folder.
//!
//! Blocks of any other kind (```` ```sh ````, ```` ```toml ````) are not run; the docs use
//! ```` ```sh ```` for commands too long for a test (the full-size sweeps, `cargo bench`, `sbatch`)
//! and say so beside them. A `$ ` line in such a block is refused here, since it looks run.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a console block and what the docs say it prints.
#[derive(Debug)]
struct Example {
    /// Where the command is written, `FILE:LINE`, for the failure message.
    place: String,
    command: String,
    /// The exit status the docs show: `None` for "any but 0".
    status: Option<i32>,
    expected: Vec<String>,
}

/// The commands of one ```` ```console ```` block, run in one folder.
#[derive(Debug, Default)]
struct Block {
    examples: Vec<Example>,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files whose commands are checked: the README and every page of the guide.
fn documented_files() -> Vec<PathBuf> {
    let mut files = vec![repo().join("README.md")];
    let mut pages: Vec<PathBuf> = fs::read_dir(repo().join("docs"))
        .expect("docs/ is readable")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

/// Splits a Markdown file into its console blocks; a `$ ` line in a fence of another kind is an error.
fn parse(name: &str, text: &str) -> Result<Vec<Block>, String> {
    let mut blocks = Vec::new();
    let mut fence: Option<(String, Block)> = None;
    let mut lines = text.lines().enumerate().peekable();
    while let Some((i, line)) = lines.next() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            match fence.take() {
                None => fence = Some((info.trim().to_string(), Block::default())),
                Some((kind, block)) => {
                    if kind == "console" {
                        blocks.push(block);
                    }
                }
            }
            continue;
        }
        let Some((kind, block)) = fence.as_mut() else {
            continue;
        };
        if let Some(command) = line.strip_prefix("$ ") {
            if kind != "console" {
                return Err(format!(
                    "{name}:{}: a `$ ` command in a ```{kind} block, which is not run: \
                     make it a ```console block or drop the prompt",
                    i + 1
                ));
            }
            let mut command = command.to_string();
            while command.ends_with('\\') {
                command.pop();
                match lines.next() {
                    Some((_, next)) => command.push_str(next),
                    None => break,
                }
            }
            block.examples.push(Example {
                place: format!("{name}:{}", i + 1),
                command,
                status: Some(0),
                expected: Vec::new(),
            });
        } else if kind == "console" {
            let Some(example) = block.examples.last_mut() else {
                return Err(format!("{name}:{}: output before any `$ ` command", i + 1));
            };
            let status = line.strip_prefix("? ").map(str::trim);
            match status {
                Some(code) if example.expected.is_empty() && example.status == Some(0) => {
                    example.status = if code == "failed" {
                        None
                    } else {
                        Some(code.parse().map_err(|_| {
                            format!("{name}:{}: `? {code}` is not an exit status", i + 1)
                        })?)
                    };
                }
                _ => example.expected.push(line.trim_end().to_string()),
            }
        }
    }
    if let Some((kind, _)) = fence {
        return Err(format!("{name}: a ```{kind} block is never closed"));
    }
    Ok(blocks)
}

/// Whether `line` matches `pattern`, where each `...` in the pattern stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("...");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether the lines printed match the lines shown, where a line `...` stands for any lines.
fn output_matches(expected: &[String], actual: &[&str]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| output_matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => match actual.split_first() {
            Some((line, more)) => line_matches(first, line) && output_matches(rest, more),
            None => false,
        },
    }
}

/// A throw-away folder that sees the repository's inputs, and where the commands' outputs land.
fn sandbox() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let link = |from: &Path, to: &Path| std::os::unix::fs::symlink(from, to).unwrap();
    link(&repo().join("experiments"), &dir.path().join("experiments"));
    fs::create_dir_all(dir.path().join("tests")).unwrap();
    link(
        &repo().join("tests/fixtures"),
        &dir.path().join("tests/fixtures"),
    );
    // `results/` is a real folder, so that a sweep's `results/NAME/` is written here; what the
    // repository commits there is linked in, each entry, to be read.
    fs::create_dir(dir.path().join("results")).unwrap();
    for entry in fs::read_dir(repo().join("results")).unwrap() {
        let entry = entry.unwrap();
        link(
            &entry.path(),
            &dir.path().join("results").join(entry.file_name()),
        );
    }
    dir
}

/// Runs one block's commands in turn in one sandbox; returns a message for each that differs.
fn run_block(block: &Block) -> Vec<String> {
    let dir = sandbox();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_ktour"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for example in &block.examples {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("exec 2>&1\n{}", example.command))
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("HOME", dir.path())
            .env("XDG_DATA_HOME", dir.path().join("data"))
            .env_remove("RAYON_NUM_THREADS")
            .output()
            .expect("sh runs");
        let text = String::from_utf8_lossy(&output.stdout);
        let mut actual: Vec<&str> = text.lines().map(str::trim_end).collect();
        while actual.last() == Some(&"") {
            actual.pop();
        }
        let code = output.status.code();
        let status_ok = match example.status {
            Some(want) => code == Some(want),
            None => code != Some(0),
        };
        if !status_ok || !output_matches(&example.expected, &actual) {
            failures.push(format!(
                "{}: `{}`\n  exit status {:?}, shown {}\n  shown output:\n{}\n  printed:\n{}",
                example.place,
                example.command,
                code,
                example
                    .status
                    .map_or("any but 0".to_string(), |s| s.to_string()),
                indent(
                    &example
                        .expected
                        .iter()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                ),
                indent(&actual),
            ));
        }
    }
    failures
}

fn indent(lines: &[&str]) -> String {
    lines.iter().map(|l| format!("    | {l}\n")).collect()
}

#[test]
fn every_documented_command_runs_as_shown() {
    let mut blocks = Vec::new();
    for file in documented_files() {
        let name = file.strip_prefix(repo()).unwrap().display().to_string();
        let text = fs::read_to_string(&file).unwrap();
        let parsed = parse(&name, &text).unwrap_or_else(|e| panic!("{e}"));
        if name == "README.md" {
            // the README's "questions in one command": a parser that found none would pass vacuously
            let commands: usize = parsed.iter().map(|b| b.examples.len()).sum();
            assert!(commands >= 8, "README.md: only {commands} commands found");
        }
        blocks.extend(parsed);
    }
    let commands: usize = blocks.iter().map(|b| b.examples.len()).sum();
    assert!(commands >= 40, "only {commands} documented commands found");
    // The blocks are independent (a folder each): two threads halve the wall time on two cores.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut failed = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(block) = blocks.get(i) else { break };
                        failed.extend(run_block(block));
                    }
                    failed
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} documented command(s) fail or print other than shown:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn an_elision_stands_for_any_lines_or_text_and_nothing_else() {
    let shown = |s: &str| s.lines().map(String::from).collect::<Vec<_>>();
    assert!(output_matches(&shown("a\n...\nz"), &["a", "b", "c", "z"]));
    assert!(output_matches(&shown("a\n...\nz"), &["a", "z"]));
    assert!(output_matches(
        &shown("a ... in ... s"),
        &["a 53872 nodes in 0.001 s"]
    ));
    assert!(output_matches(&shown("1728"), &["1728"]));
    // A changed figure, a missing or an extra line, and a changed end all fail.
    assert!(!output_matches(&shown("1728"), &["1729"]));
    assert!(!output_matches(&shown("a\nb"), &["a"]));
    assert!(!output_matches(&shown("a"), &["a", "b"]));
    assert!(!output_matches(&shown("a\n...\nz"), &["a", "b"]));
    assert!(!output_matches(&shown("x ... s"), &["x 1 ms"]));
    assert!(!line_matches("... s", "ms"));
    assert!(!line_matches("a...a", "a"));
}

#[test]
fn a_console_block_is_parsed_into_commands_statuses_and_output() {
    let text = "```console\n$ ktour count -n 5\n1728\n$ ktour exact --size 10 \\\n --max-nodes 1\n? 2\nerror: ...\n```\n```sh\nktour sweep\n```\n";
    let blocks = parse("t.md", text).unwrap();
    assert_eq!(blocks.len(), 1);
    let [a, b] = &blocks[0].examples[..] else {
        panic!("two commands")
    };
    assert_eq!(
        (a.command.as_str(), a.status, &a.expected[..]),
        ("ktour count -n 5", Some(0), &["1728".to_string()][..])
    );
    assert_eq!(b.command, "ktour exact --size 10  --max-nodes 1");
    assert_eq!(
        (b.status, &b.expected[..]),
        (Some(2), &["error: ...".to_string()][..])
    );
    assert_eq!(b.place, "t.md:4");
    // A prompt in a block that is not run is refused, not silently skipped.
    assert!(parse("t.md", "```sh\n$ ktour count -n 5\n```\n").is_err());
    assert!(parse("t.md", "```console\n$ ktour count -n 5\n").is_err());
}
