//! End-to-end tests of the `ktour` binary: solve, verify, exists, rules, and bad input (a one-line
//! error and an exit code, never a panic).

use crate::support::{ktour, ktour_path, ktour_within};
use predicates::prelude::*;
use std::io::Write;

#[test]
fn solve_prints_an_8x8_grid_and_json_that_verify_accepts() {
    ktour()
        .args(["solve", "--size", "8"])
        .assert()
        .success()
        .stdout(predicate::str::contains(" 64").or(predicate::str::contains("64 ")));
    let out = ktour()
        .args(["solve", "--size", "8", "--closed", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["closed"], true);
    assert_eq!(json["found"], true);
    assert_eq!(json["squares"].as_array().unwrap().len(), 64);
    for key in ["rows", "cols", "start", "method", "rule", "stats"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    for key in ["nodes", "backtracks", "elapsed_ns"] {
        assert!(json["stats"].get(key).is_some(), "stats.{key}");
    }
    ktour()
        .args(["verify", "-"])
        .write_stdin(out.stdout)
        .assert()
        .success()
        .stdout("valid closed tour\n");
}

#[test]
fn moves_format_round_trips_through_verify() {
    let out = ktour()
        .args([
            "solve", "--rows", "5", "--cols", "7", "--start", "2,2", "--format", "moves",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(&out.stdout).unwrap();
    ktour()
        .args([
            "verify",
            f.path().to_str().unwrap(),
            "--rows",
            "5",
            "--cols",
            "7",
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("valid"));
    // without the board size: a clear error
    ktour()
        .args(["verify", f.path().to_str().unwrap()])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--rows"));
}

#[test]
fn verify_rejects_bad_tours_with_the_first_fault() {
    let cases = [
        ("0,0\n1,2\n0,0\n", "already visited"),
        ("0,0\n1,2\n9,9\n", "off the"),
        ("0,0\n1,1\n", "not a knight move"),
        ("0,0\n1,2\n", "short"),
    ];
    for (text, msg) in cases {
        ktour()
            .args(["verify", "-", "--size", "5"])
            .write_stdin(text)
            .assert()
            .code(1)
            .stdout(predicate::str::contains(msg));
    }
    // a claimed closed tour that is open
    let out = ktour()
        .args([
            "solve",
            "--size",
            "5",
            "--method",
            "warnsdorff",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let mut json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // the same open tour not claimed closed, with --closed: the flag asked, not the file
    ktour()
        .args(["verify", "-", "--closed"])
        .write_stdin(json.to_string())
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(
            "invalid: --closed asks for a closed tour, but the last square",
        ));
    json["closed"] = true.into();
    ktour()
        .args(["verify", "-"])
        .write_stdin(json.to_string())
        .assert()
        .code(1)
        .stdout(predicate::str::contains("claimed closed"));
}

#[test]
fn verify_rejects_malformed_files() {
    for text in [
        "{\"rows\": 5, \"cols\": 5, \"squares\": [[0,0],[1,2]",
        "{\"rows\": 5}",
        "{\"rows\": 0, \"cols\": 5, \"squares\": []}",
        "not json at all",
    ] {
        ktour()
            .args(["verify", "-"])
            .write_stdin(text)
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with("error:"));
    }
    ktour()
        .args(["verify", "-", "--size", "5"])
        .write_stdin("0,0\n1;2\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 2"));
    ktour()
        .args(["verify", "/no/such/file.json"])
        .assert()
        .code(2);
}

#[test]
fn exists_answers_from_the_theorems() {
    ktour()
        .args(["exists", "--rows", "3", "--cols", "10", "--closed"])
        .assert()
        .success()
        .stdout("yes: 3x10 has a closed tour (Schwenk 1991)\n");
    ktour()
        .args(["exists", "--size", "8"])
        .assert()
        .success()
        .stdout("yes: 8x8 has an open tour (Conrad et al. 1994)\n");
    ktour()
        .args(["exists", "--size", "4"])
        .assert()
        .code(3)
        .stdout(predicate::str::starts_with("no"));
    ktour()
        .args(["exists", "--rows", "65535", "--cols", "65535", "--closed"])
        .assert()
        .code(3)
        .stdout(predicate::str::contains("odd"));
    ktour()
        .args(["exists", "--rows", "60000", "--cols", "65534", "--closed"])
        .assert()
        .success();
}

/// A start the construction does not reach is a limit of the method (exit 1), not bad input.
#[test]
fn construct_at_a_start_it_does_not_reach_is_not_found() {
    ktour()
        .args(["solve", "--rows", "4", "--cols", "40", "--start", "0,20"])
        .args(["--method", "construct"])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with(
            "not found: construction cannot start",
        ));
    // construction breaks no ties: a rule given with it is refused, not printed as if it were used
    ktour()
        .args([
            "solve",
            "-n",
            "8",
            "--method",
            "construct",
            "--rule",
            "roth",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("construction breaks no ties"));
}

#[test]
fn solve_reports_outcomes_with_exit_codes() {
    // dead end: exit 1
    ktour()
        .args([
            "solve",
            "--size",
            "5",
            "--start",
            "0,2",
            "--method",
            "warnsdorff",
            "--rule",
            "order:36875124",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("dead end after 17"));
    // closed on 5x5: no tour by theorem, exit 3, no search
    ktour()
        .args(["solve", "--size", "5", "--closed"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("Schwenk"));
    // wrong colour start
    ktour()
        .args(["solve", "--size", "5", "--start", "0,1"])
        .assert()
        .code(3)
        .stderr(predicate::str::contains("colour"));
    // budget
    ktour()
        .args([
            "solve", "--size", "30", "--closed", "--budget", "1000", "--method", "naive",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("budget"));
}

#[test]
fn bad_input_is_a_one_line_error_with_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "--size", "0"], "at least 1"),
        (&["solve", "--size", "70000"], "at most 65535"),
        (&["solve", "--rows", "5", "--cols", "x"], "invalid value"),
        (
            &["solve", "--size", "8", "--start", "8,0"],
            "off the 8x8 board",
        ),
        (&["solve", "--size", "8", "--start", "a,b"], "ROW,COL"),
        // a negative row is a value, not an option
        (
            &["solve", "--size", "8", "--start", "-1,0"],
            "off the 8x8 board",
        ),
        (
            &["count", "--size", "5", "--start", "-1,0"],
            "off the 5x5 board",
        ),
        (&["solve", "--size", "8", "--rule", "bogus"], "known rules"),
        (
            &["solve", "--size", "8", "--rule", "order:1234"],
            "permutation",
        ),
        (&["solve", "--size", "8", "--method", "magic"], "known"),
        (
            &[
                "solve", "--size", "9", "--rule", "squirrel", "--start", "1,1",
            ],
            "corner",
        ),
        (
            &["solve", "--size", "65534", "--method", "backtrack"],
            "MiB",
        ),
        (&["solve"], "--size"),
    ];
    for (args, msg) in cases {
        let out = ktour().args(*args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Memory checks count what `ulimit -v` leaves (as they count a cgroup's limit), not only the
/// machine's free memory: a board past it is refused with the need and what is available, where
/// the allocator used to abort.
#[cfg(target_os = "linux")]
#[test]
fn a_board_past_the_address_space_limit_is_refused_not_aborted() {
    let mut c = ktour_within(1_000_000);
    c.args(["solve", "--size", "20000", "--format", "bin", "-o"])
        .arg(std::env::temp_dir().join("ktour-never-written.bin"));
    c.assert()
        .code(2)
        .stderr(predicate::str::contains("20000x20000 board needs about"))
        .stderr(predicate::str::contains("MiB is available"));
}

#[test]
fn rules_lists_every_rule_with_a_source() {
    let out = ktour().arg("rules").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for (name, about) in ktour::solve::rules::RULE_CATALOGUE {
        assert!(text.contains(name) && text.contains(about), "{name}");
    }
    assert!(text.contains("1996") && text.contains("1967") && text.contains("1992"));
}

#[test]
fn wide_boards_point_to_json() {
    ktour()
        .args([
            "solve",
            "--rows",
            "5",
            "--cols",
            "300",
            "--method",
            "warnsdorff",
            "--rule",
            "roth",
        ])
        .assert()
        .stdout(predicate::str::contains("--format json"));
}

#[test]
fn squirrel_json_records_orderings() {
    let out = ktour()
        .args([
            "solve",
            "--size",
            "16",
            "--method",
            "warnsdorff",
            "--rule",
            "squirrel",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(json["stats"]["orderings"].as_array().unwrap().len() >= 2);
}

#[test]
fn auto_constructs_large_boards_and_every_format_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, kind) in [
        (vec!["--size", "120", "--closed"], "valid closed tour"),
        (
            vec!["--rows", "99", "--cols", "101", "--start", "2,2"],
            "valid open tour",
        ),
        (
            vec!["--size", "8", "--method", "construct", "--start", "3,4"],
            "valid closed tour",
        ),
        (
            vec!["--size", "30", "--method", "rotate", "--closed"],
            "valid closed tour",
        ),
        (
            vec!["--size", "30", "--method", "rotate", "--rule", "roth"],
            "valid closed tour",
        ),
    ] {
        for format in ["json", "bin"] {
            let file = tmp.path().join(format!("t.{format}"));
            ktour()
                .arg("solve")
                .args(&args)
                .args(["--format", format, "-o"])
                .arg(&file)
                .assert()
                .success();
            ktour()
                .arg("verify")
                .arg(&file)
                .assert()
                .success()
                .stdout(format!("{kind}\n"));
        }
    }
}

#[test]
fn construction_proves_impossible_starts() {
    ktour()
        .args(["solve", "--rows", "4", "--cols", "10", "--start", "1,1"])
        .assert()
        .code(3)
        .stdout("")
        .stderr(predicate::str::contains("outer rows"));
}

/// Inputs that never end are refused, not read forever: a device of NUL bytes or random bytes
/// fails its format check in the first block, a pipe of valid-looking lines stops at the board's
/// squares, and a pipe of garbage after a brace at its first JSON error. Each with a timeout, so a
/// regression fails instead of hanging the suite.
#[cfg(target_os = "linux")]
#[test]
fn endless_inputs_are_refused_not_read_forever() {
    use std::time::Duration;
    let limit = Duration::from_secs(60);
    let tmp = tempfile::tempdir().unwrap();
    let png = tmp.path().join("plot.png");
    let png = png.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &["verify", "/dev/zero"],
            "not a tour file: not a text file: a NUL byte at offset 0",
        ),
        (
            &["verify", "/dev/urandom", "--size", "8"],
            "not a tour file",
        ),
        (&["render", "/dev/zero"], "NUL byte"),
        (
            &["sweep", "/dev/zero"],
            "/dev/zero: cannot read: not a text file",
        ),
        (&["plot", "/dev/zero", "--output", png], "not a text file"),
        (
            &["plot", "/dev/urandom", "--output", png],
            "not a text file",
        ),
    ];
    for (args, message) in cases {
        ktour()
            .args(args)
            .timeout(limit)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(message));
    }
    // endless pipes, fed by a writer thread until ktour closes its end
    let endless = |args: &[&str], line: &'static [u8]| {
        let mut child = std::process::Command::new(ktour_path())
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || while stdin.write_all(line).is_ok() {});
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > limit {
                child.kill().unwrap();
                panic!("ktour {args:?} still reading an endless pipe after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        feeder.join().unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let err = endless(&["verify", "-", "--size", "8"], b"0,0\n");
    assert!(
        err.contains("more squares than the 64 of a 8x8 board (line 65)"),
        "{err}"
    );
    let err = endless(&["verify", "-"], b"0,0\n");
    assert!(err.contains("needs the board size"), "{err}");
    let err = endless(&["verify", "-", "--size", "8"], b"y\n");
    assert!(err.contains("line 1: expected `row,col`"), "{err}");
    let err = endless(&["render", "-"], b"{\n");
    assert!(err.contains("malformed tour JSON"), "{err}");
    let err = endless(&["verify", "-"], b"\0");
    assert!(err.contains("NUL byte"), "{err}");
}

/// A binary tour is checked as it streams (a bit per square): from a file and from a pipe alike,
/// with the file's faults (exit 2) told from the tour's (exit 1), a repeat's first visit found in a
/// file by a second read, and a claimed-closed open path caught.
#[test]
fn binary_tours_are_verified_as_they_stream() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("t.bin");
    ktour()
        .args(["solve", "--size", "8", "--format", "bin", "-o"])
        .arg(&file)
        .assert()
        .success();
    let good = std::fs::read(&file).unwrap();
    let verify = |bytes: &[u8], piped: bool| {
        let mut cmd = ktour();
        cmd.arg("verify");
        if piped {
            cmd.arg("-").write_stdin(bytes.to_vec());
        } else {
            std::fs::write(&file, bytes).unwrap();
            cmd.arg(&file);
        }
        cmd.assert()
    };
    let square = |i: usize| u32::from_le_bytes(good[32 + 4 * i..36 + 4 * i].try_into().unwrap());
    let (r3, c3) = (square(3) / 8, square(3) % 8);
    let mut repeat = good.clone();
    repeat.copy_within(32 + 12..32 + 16, 32 + 28); // step 7 := step 3
    let mut closed_claim = good.clone();
    closed_claim[20] = 1;
    for piped in [false, true] {
        verify(&good, piped).success().stdout("valid open tour\n");
        let first = if piped { "an earlier step" } else { "step 3" };
        verify(&repeat, piped).code(1).stdout(format!(
            "invalid: step 7: square ({r3},{c3}) was already visited at {first}\n"
        ));
        verify(&closed_claim, piped)
            .code(1)
            .stdout(predicate::str::contains("invalid: claimed closed"));
        verify(&good[..good.len() - 2], piped)
            .code(2)
            .stderr(predicate::str::contains("(truncated?)"));
        verify(&[good.as_slice(), b"x"].concat(), piped)
            .code(2)
            .stderr(predicate::str::contains("(trailing bytes?)"));
    }
}

/// `--rotations N` is `rotate`'s budget: too few and the path stays open (exit 1, the rotations
/// made in the summary line); refused with one line for the other methods.
#[test]
fn rotations_bound_rotate_and_belong_to_it() {
    ktour()
        .args([
            "solve",
            "--size",
            "30",
            "--method",
            "rotate",
            "--rotations",
            "5",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("could not close the path"))
        .stderr(predicate::str::contains("5 Pósa rotations"));
    for rotations in ["38", "0"] {
        ktour()
            .args([
                "solve",
                "--size",
                "30",
                "--method",
                "rotate",
                "--rotations",
                rotations,
            ])
            .assert()
            .success()
            .stderr(predicate::str::contains("found a closed tour"));
    }
    for method in ["backtrack", "auto", "construct", "warnsdorff"] {
        ktour()
            .args([
                "solve",
                "--size",
                "8",
                "--method",
                method,
                "--rotations",
                "5",
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "--rotations is an option of --method rotate",
            ))
            .stderr(predicate::function(|e: &str| e.trim().lines().count() == 1));
    }
}

/// A reader that stops early ends ktour by SIGPIPE, quietly, as it ends other Unix tools: no panic
/// message on standard error (Rust's default ignores the signal, and the next print panicked).
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_ktour_quietly() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let mut child = std::process::Command::new(ktour_path())
        .args([
            "solve",
            "--size",
            "200",
            "--method",
            "construct",
            "--format",
            "moves",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.trim(), "0,0");
    // the reader is dropped here: the pipe is closed with most of the 40,000 lines unwritten
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.signal(), Some(13), "{:?}", out.status);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
