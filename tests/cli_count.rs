//! End-to-end tests of `ktour count`: the real binary, its output contract (the last line of text is the
//! number alone; JSON is one object) and its exit codes (2 for boards over 64 squares).

use crate::support::ktour;
use predicates::str::contains;

/// The last line of standard output of a successful run.
fn last_line(args: &[&str]) -> String {
    let out = ktour().args(args).assert().success().get_output().clone();
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().last().unwrap_or_default().to_string()
}

#[test]
fn last_line_is_the_count() {
    // OEIS A165134, A118067, A001230 (McKay 1997).
    assert_eq!(last_line(&["count", "--rows", "5", "--cols", "5"]), "1728");
    assert_eq!(last_line(&["count", "-n", "5", "--undirected"]), "864");
    assert_eq!(last_line(&["count", "--rows", "3", "--cols", "4"]), "16");
    assert_eq!(last_line(&["count", "-n", "6", "--closed"]), "9862");
    assert_eq!(
        last_line(&["count", "--rows", "3", "--cols", "10", "--closed"]),
        "16"
    );
    assert_eq!(
        last_line(&[
            "count",
            "--rows",
            "3",
            "--cols",
            "10",
            "--closed",
            "--directed"
        ]),
        (16 * 2 * 30).to_string()
    );
    assert_eq!(last_line(&["count", "-n", "1"]), "1");
    assert_eq!(last_line(&["count", "-n", "4"]), "0");
}

#[test]
fn start_and_per_start() {
    assert_eq!(last_line(&["count", "-n", "5", "--start", "0,0"]), "304");
    assert_eq!(last_line(&["count", "-n", "5", "--start", "2,2"]), "64");
    assert_eq!(last_line(&["count", "-n", "5", "--start", "0,1"]), "0");
    ktour()
        .args(["count", "-n", "5", "--per-start"])
        .assert()
        .success()
        .stdout(contains("304   0  56   0 304"))
        .stdout(contains(" 56   0  64   0  56"));
}

#[test]
fn json_is_one_object() {
    let out = ktour()
        .args(["count", "-n", "5", "--format", "json", "--per-start"])
        .assert()
        .success()
        .get_output()
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rows"], 5);
    assert_eq!(v["cols"], 5);
    assert_eq!(v["closed"], false);
    assert_eq!(v["directed"], true);
    assert!(v["start"].is_null());
    assert_eq!(v["count"], 1728);
    assert_eq!(v["per_start"].as_array().unwrap().len(), 25);
    assert_eq!(v["per_start"][0]["count"], 304);
    assert!(v["nodes"].as_u64().unwrap() > 1728);
    assert!(v["elapsed_ns"].is_u64());

    let out = ktour()
        .args(["count", "-n", "6", "--closed", "--format", "json"])
        .args(["--start", "0,0"])
        .assert()
        .success()
        .get_output()
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["count"], 9862);
    assert_eq!(v["directed"], false);
    assert_eq!(v["start"], serde_json::json!([0, 0]));
    assert!(v.get("per_start").is_none());
}

#[test]
fn a_range_too_wide_names_the_side_it_sweeps() {
    ktour()
        .args([
            "count", "--rows", "9", "--cols", "1..=3", "--method", "frontier",
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "9 squares wide (its shorter side, or a range's fixed side)",
        ));
}

#[test]
fn boards_over_64_squares_are_refused_with_exit_2() {
    ktour()
        .args(["count", "--rows", "5", "--cols", "13"])
        .assert()
        .code(2)
        .stderr(contains("at most 64 squares"))
        .stderr(contains("or --method frontier"));
    ktour()
        .args(["count", "-n", "9", "--closed"])
        .assert()
        .code(2);
}

#[test]
fn bad_input_exits_2() {
    ktour()
        .args(["count", "-n", "5", "--start", "5,0"])
        .assert()
        .code(2)
        .stderr(contains("off the 5x5 board"));
    ktour().args(["count"]).assert().code(2);
    // --directed only makes sense for closed tours, and contradicts --undirected.
    ktour()
        .args(["count", "-n", "5", "--directed"])
        .assert()
        .code(2);
}

/// A search that could not finish is refused at once, with its estimate and what to do instead;
/// `--max-nodes` moves the line and reads powers of ten.
#[test]
fn searches_that_would_run_for_years_are_refused_with_exit_2() {
    ktour()
        .args(["count", "-n", "8"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("Knuth"))
        .stderr(contains("years"))
        .stderr(contains("more memory than"));
    // closed tours of 8x8 are in the frontier method's reach
    ktour()
        .args(["count", "-n", "8", "--closed"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains(
            "Use --method frontier with --max-states 700000000",
        ));
    ktour()
        .args(["count", "--rows", "5", "--cols", "8", "--max-nodes", "1e6"])
        .assert()
        .code(2)
        .stderr(contains("--method frontier"));
    // a count of a minute or more says so before it starts (then stopped here by --max-nodes)
    ktour()
        .args(["count", "-n", "7", "--max-nodes", "1e10"])
        .assert()
        .code(2)
        .stderr(contains("counting: about 6"))
        .stderr(contains("more than --max-nodes 10000000000"));
    let json = ktour()
        .args(["count", "-n", "5", "--max-nodes", "5e3", "--format", "json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert!(v["estimated_nodes"].as_f64().unwrap() > 0.0);
    // 0 is no limit, as a node budget of 0 is elsewhere
    assert_eq!(last_line(&["count", "-n", "5", "--max-nodes", "0"]), "1728");
    for bad in ["1e2.5", "2e19", "1.5e0", "many"] {
        ktour()
            .args(["count", "-n", "5", "--max-nodes", bad])
            .assert()
            .code(2)
            .stderr(contains("--max-nodes"));
    }
}

#[test]
fn frontier_method_gives_the_same_counts() {
    let f = |extra: &[&str]| {
        let mut args = vec!["count", "--method", "frontier"];
        args.extend_from_slice(extra);
        last_line(&args)
    };
    assert_eq!(f(&["-n", "5"]), "1728");
    assert_eq!(f(&["-n", "5", "--undirected"]), "864");
    assert_eq!(f(&["-n", "6", "--closed"]), "9862");
    assert_eq!(
        f(&["--rows", "3", "--cols", "10", "--closed", "--directed"]),
        (16 * 2 * 30).to_string()
    );
    // Past 64 squares, narrow: out of reach of --method search, a fraction of a second here.
    let json = f(&["--rows", "3", "--cols", "30", "--format", "json"]);
    assert!(json.contains("\"method\":\"frontier\""), "{json}");
    // Refusals name the way out.
    ktour()
        .args(["count", "-n", "9", "--method", "frontier"])
        .assert()
        .code(2)
        .stderr(contains("at most 8"));
    // a limit on states that memory could not hold
    ktour()
        .args([
            "count",
            "-n",
            "8",
            "--closed",
            "--method",
            "frontier",
            "--max-states",
            "100000000000",
        ])
        .assert()
        .code(2)
        .stderr(contains("lower --max-states"));
    ktour()
        .args(["count", "-n", "5", "--method", "frontier", "--start", "0,0"])
        .assert()
        .failure()
        .stderr(contains("--method search"));
    ktour()
        .args([
            "count",
            "-n",
            "6",
            "--method",
            "frontier",
            "--max-states",
            "1000",
        ])
        .assert()
        .code(2)
        .stderr(contains("--max-states"));
}

#[test]
fn halves_count_closed_tours_as_the_frontier_does() {
    let both = |extra: &[&str]| {
        let count = |method: &str| {
            let mut args = vec!["count", "--closed", "--method", method];
            args.extend_from_slice(extra);
            last_line(&args)
        };
        (count("halves"), count("frontier"))
    };
    // A001230 (McKay 1997); 8 x 5 and 7 x 6 (A193055, A193054), 8 x 3 with none
    for (board, want) in [
        (vec!["-n", "6"], "9862"),
        (vec!["--rows", "5", "--cols", "8"], "44202"),
        (vec!["--rows", "6", "--cols", "7"], "1067638"),
        (vec!["--rows", "3", "--cols", "8"], "0"),
    ] {
        assert_eq!(
            both(&board),
            (want.to_string(), want.to_string()),
            "{board:?}"
        );
    }
    // directed: 2 x squares per cycle, as every method counts them
    let (halves, frontier) = both(&["-n", "6", "--directed"]);
    let want = (9862 * 2 * 36).to_string();
    assert_eq!((&halves, &frontier), (&want, &want));
    let json = last_line(&[
        "count", "-n", "6", "--closed", "--method", "halves", "--format", "json",
    ]);
    assert!(json.contains("\"method\":\"halves\""), "{json}");
    // open tours, a start square, sharding: refused with the way out
    for (args, says) in [
        (vec!["-n", "6"], "closed tours only"),
        (
            vec!["-n", "6", "--closed", "--start", "0,0"],
            "--method search",
        ),
        (vec!["-n", "9", "--closed"], "at most 8"),
        (
            vec!["-n", "6", "--closed", "--shards", "2", "--shared", "unused"],
            "one process",
        ),
    ] {
        let mut full = vec!["count", "--method", "halves"];
        full.extend_from_slice(&args);
        ktour().args(&full).assert().code(2).stderr(contains(says));
    }
    // past memory: a clear error and exit 2, never an abort (300 MiB of address space)
    crate::support::ktour_within(300 * 1024)
        .args([
            "count", "--rows", "8", "--cols", "7", "--closed", "--method", "halves",
        ])
        .assert()
        .code(2)
        .stderr(contains(
            "--method frontier, whose --memory and --temp spill",
        ));
}

#[test]
fn frontier_counts_past_u128_are_exact() {
    // Directed open tours of 3 x 74 are twice a number above 2^127: the exact pass widens its
    // ways to 128 bits before its states' largest pass 2^64, the pass said.
    ktour()
        .args([
            "count", "--rows", "3", "--cols", "74", "--method", "frontier",
        ])
        .assert()
        .success()
        .stdout(contains("\n354870346526040314551073349490335301008\n"))
        .stderr(contains(
            "frontier: the largest ways neared 2^64 before square 86; the exact pass goes on with 128-bit ways",
        ));
    // 3 x 90's undirected count passes 2^128 too: the widened pass wraps, then the primes' passes,
    // each said, and the residues recombine to the committed b-file's term (a run of the primes
    // alone, `results/counts/3xn-open.b`)
    let bfile = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/counts/3xn-open.b"),
    )
    .unwrap();
    let term = bfile.lines().find_map(|l| l.strip_prefix("90 ")).unwrap();
    ktour()
        .args([
            "count", "--rows", "3", "--cols", "90", "--method", "frontier",
        ])
        .assert()
        .success()
        .stdout(contains(format!("\n{term}\n")))
        .stderr(contains(
            "frontier: a state's ways passed 2^128; pass 1 counts modulo the prime 1152921504606846883",
        ));
    // under a second set of primes (the five largest passed over), the same count, the primes
    // said; refused beside --shards
    ktour()
        .args([
            "count",
            "--rows",
            "3",
            "--cols",
            "90",
            "--method",
            "frontier",
            "--skip-primes",
            "5",
        ])
        .assert()
        .success()
        .stdout(contains(format!("\n{term}\n")))
        .stderr(contains(
            "frontier: a state's ways passed 2^128; pass 1 counts modulo the prime 1152921504606846697",
        ));
    // with a checkpoint, the primes' passes start from the exact pass's base, each said
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("count.ckpt");
    let said = ktour()
        .args([
            "count", "--rows", "3", "--cols", "90", "--method", "frontier",
        ])
        .arg("--checkpoint")
        .arg(&checkpoint)
        .assert()
        .success()
        .stdout(contains(format!("\n{term}\n")))
        .get_output()
        .stderr
        .clone();
    let said = String::from_utf8(said).unwrap();
    let started = "frontier: started from the exact pass's base (its states before the wrap, reduced) after square ";
    assert!(said.matches(started).count() >= 2, "{said}");
    assert!(!said.contains("resumed from the checkpoint"), "{said}");
    assert!(!checkpoint.exists() && std::fs::read_dir(dir.path()).unwrap().next().is_none());
    ktour()
        .args([
            "count", "--rows", "3", "--cols", "90", "--method", "frontier",
        ])
        .args(["--skip-primes", "1", "--shards", "2", "--shard", "0"])
        .assert()
        .code(2)
        .stderr(contains("--skip-primes"));
    // Below 2^128 the counts are those the u128 counter gave.
    assert_eq!(
        last_line(&["count", "--rows", "3", "--cols", "73", "--method", "frontier"]),
        "102566194229143048370393851154210421824"
    );
    assert_eq!(
        last_line(&[
            "count",
            "--rows",
            "3",
            "--cols",
            "74",
            "--method",
            "frontier",
            "--undirected"
        ]),
        "177435173263020157275536674745167650504"
    );
}

/// `--cols A..=B`: every length from one frontier run, as text, b-file lines or JSON; refused
/// without the frontier method and by the commands that take one board.
#[test]
fn frontier_counts_every_length_of_a_range() {
    // A118067: directed Hamiltonian paths of 3 x n
    let out = ktour()
        .args([
            "count", "--rows", "3", "--cols", "3..=12", "--method", "frontier",
        ])
        .args(["--format", "bfile"])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10, "{text}");
    assert_eq!(lines[0], "3 0");
    assert_eq!(lines[1], "4 16");
    assert_eq!(lines[9], "12 114496");
    // one board as a b-file line
    assert_eq!(
        last_line(&["count", "-n", "5", "--method", "frontier", "--format", "bfile"]),
        "5 1728"
    );
    let json = last_line(&[
        "count", "--rows", "3", "--cols", "9..=10", "--closed", "--method", "frontier", "--format",
        "json",
    ]);
    assert!(
        json.contains(r#""counts":[{"cols":9,"count":"0"},{"cols":10,"count":"16"}]"#),
        "{json}"
    );
    ktour()
        .args(["count", "--rows", "3", "--cols", "1..=5"])
        .assert()
        .code(2)
        .stderr(contains(
            "--cols A..=B is counted by --method frontier only",
        ));
    ktour()
        .args(["solve", "--rows", "5", "--cols", "5..=6"])
        .assert()
        .code(2)
        .stderr(contains(
            "--cols takes a range (A..=B) only in `ktour count --method frontier`",
        ));
    ktour()
        .args([
            "count", "--rows", "5", "--cols", "6..=5", "--method", "frontier",
        ])
        .assert()
        .code(2)
        .stderr(contains("the range `6..=5` is empty"));
    ktour()
        .args([
            "count", "--rows", "5", "--cols", "0..=5", "--method", "frontier",
        ])
        .assert()
        .code(2)
        .stderr(contains("starts at 0"));
}

#[test]
fn endgame_caches_that_cannot_fit_are_refused() {
    // 64 threads x 2^30 slots x 24 bytes = 1.5 TiB, more than any machine running the tests has; the
    // allocator used to abort the process (exit 134).
    ktour()
        .env("RAYON_NUM_THREADS", "64")
        .args([
            "count",
            "-n",
            "5",
            "--endgame-cache",
            "10",
            "--cache-bits",
            "30",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("error: the endgame cache needs about 1572864 MiB"))
        .stderr(contains("lower --cache-bits"));
}

/// `--checkpoint`: a count stopped after some rows says where it resumes, gives the count, and
/// removes its file; a search refuses the flag. `--status` tells the row a checkpoint reached
/// and whether the file is whole, and refuses a file that is none.
#[test]
fn frontier_counts_resume_from_a_checkpoint() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("6x5.ckpt");
    let file = file.to_str().unwrap();
    let args = [
        "count", "--rows", "6", "--cols", "5", "--method", "frontier",
    ];
    ktour()
        .args(args)
        .args(["--max-states", "30000", "--checkpoint", file])
        .assert()
        .code(2)
        .stderr(contains("--max-states"));
    assert!(std::path::Path::new(file).exists());
    // --status tells where it stands, without counting, and the file stays
    let status = ktour()
        .args(args)
        .args(["--checkpoint", file, "--status"])
        .assert()
        .success()
        .stdout(contains(
            "checkpoint of the open tours of a board 6 long and 5 wide (whole)\npass 0 (exact in 64 bits): after row ",
        ))
        .get_output()
        .stdout
        .clone();
    let status = String::from_utf8(status).unwrap();
    let row: u32 = status
        .split("after row ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..6).contains(&row), "{status}");
    assert!(
        status.contains(&format!("(square {} of 30)", 5 * row)),
        "{status}"
    );
    let whole = std::fs::read(file).unwrap();
    std::fs::write(file, &whole[..whole.len() - 1]).unwrap();
    ktour()
        .args(["count", "--checkpoint", file, "--status"])
        .assert()
        .success()
        .stdout(contains("(NOT whole: cut short or grown"));
    std::fs::write(file, &whole).unwrap();
    ktour()
        .args(args)
        .args(["--checkpoint", file])
        .assert()
        .success()
        .stdout(contains("37568"))
        .stderr(contains(
            "frontier: resumed from the checkpoint after square",
        ));
    assert!(!std::path::Path::new(file).exists());
    std::fs::write(file, "not a checkpoint\n").unwrap();
    ktour()
        .args(args)
        .args(["--checkpoint", file])
        .assert()
        .code(2)
        .stderr(contains(
            "is not a ktour frontier checkpoint; nothing was overwritten",
        ));
    ktour()
        .args(["count", "--checkpoint", file, "--status"])
        .assert()
        .code(2)
        .stderr(contains("is not a ktour frontier checkpoint"));
    ktour()
        .args(["count", "-n", "5", "--status"])
        .assert()
        .code(2)
        .stderr(contains("--checkpoint"));
    ktour()
        .args(["count", "-n", "5", "--checkpoint", file])
        .assert()
        .code(2)
        .stderr(contains("--checkpoint is for --method frontier"));
}

/// A count on a board with holes that could not finish is refused at once, with Knuth's estimate
/// and the time at the rate of the search on any board (it used to run for hours without a word).
#[test]
fn masked_counts_beyond_reach_are_refused_at_once_with_an_estimate() {
    let tmp = tempfile::tempdir().unwrap();
    let mask = tmp.path().join("10x10.txt");
    let rows = [
        "#........#",
        "..........",
        "..........",
        "..........",
        "....##....",
        "....##....",
        "..........",
        "..........",
        "..........",
        "#........#",
    ];
    std::fs::write(&mask, rows.join("\n") + "\n").unwrap();
    let began = std::time::Instant::now();
    ktour()
        .arg("count")
        .arg("--mask")
        .arg(&mask)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains(
            "on 10x10 with 8 holes by search would visit about",
        ))
        .stderr(contains("Knuth's random-probe estimate"))
        .stderr(contains("more than --max-nodes 1000000000000"))
        .stderr(contains("one core"))
        .stderr(contains("years"));
    // well within the minute above on a loaded machine: about a tenth of a second alone
    assert!(began.elapsed() < std::time::Duration::from_secs(30));
    // a leaper's whole board is refused the same way
    ktour()
        .args(["count", "--size", "10", "--leaper", "zebra"])
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stderr(contains("10x10, (2,3)-leaper by search would visit about"));
}

/// A small count on a board with holes passes its estimate and counts what plain recursion counts;
/// a lower --max-nodes refuses it with the estimate; a mask with no holes is the whole board.
#[test]
fn small_masked_counts_count_what_plain_recursion_counts() {
    use ktour::board::{Leaper, Shape};
    use ktour::count::reference::{closed_from, open_from};
    let tmp = tempfile::tempdir().unwrap();
    let text = "......\n.#....\n......\n....#.\n......\n";
    let mask = tmp.path().join("5x6.txt");
    std::fs::write(&mask, text).unwrap();
    let shape = Shape::from_mask(text, Leaper::KNIGHT).unwrap();
    let open: u64 = shape.squares().map(|s| open_from(shape.clone(), s)).sum();
    // this one has no closed tour; a 3x10 board with 2 holes has 10
    let ring = "..........\n.#......#.\n..........\n";
    let ring_mask = tmp.path().join("3x10.txt");
    std::fs::write(&ring_mask, ring).unwrap();
    let ring_shape = Shape::from_mask(ring, Leaper::KNIGHT).unwrap();
    let first = ring_shape.squares().next().unwrap();
    let cycles = closed_from(ring_shape.clone(), first) / 2;
    assert!(open > 0 && cycles > 0, "{open} {cycles}");
    let count = |mask: &std::path::Path, extra: &[&str]| {
        let out = ktour()
            .arg("count")
            .arg("--mask")
            .arg(mask)
            .args(extra)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        text.lines().last().unwrap().to_string()
    };
    assert_eq!(count(&mask, &[]), open.to_string());
    assert_eq!(count(&ring_mask, &["--closed"]), cycles.to_string());
    let json = count(&mask, &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["count"], open.to_string());
    let (nodes, estimated) = (
        v["nodes"].as_f64().unwrap(),
        v["estimated_nodes"].as_f64().unwrap(),
    );
    assert!(estimated > nodes / 2.0 && estimated < nodes * 2.0, "{v}");
    ktour()
        .arg("count")
        .arg("--mask")
        .arg(&mask)
        .args(["--max-nodes", "1e5"])
        .assert()
        .code(2)
        .stderr(contains("Knuth's random-probe estimate"))
        .stderr(contains("more than --max-nodes 100000"));
    let whole = tmp.path().join("5x5.txt");
    std::fs::write(&whole, ".....\n".repeat(5)).unwrap();
    ktour()
        .arg("count")
        .arg("--mask")
        .arg(&whole)
        .assert()
        .success()
        .stdout(contains("\n1728\n"));
}
