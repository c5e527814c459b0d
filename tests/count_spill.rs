//! Frontier counts under a bound on memory, their states spilled to disk as sorted runs and merged
//! step by step, against the same counts held in memory (the slow, obvious twin): the same tours,
//! transitions and peak, with runs spilled and merged at every large step, a checkpoint resumed
//! either way, a killed count resumed, and the spill folder left empty.

use ktour::board::{Board, Closure};
use ktour::count::frontier::{
    count_frontier, count_frontier_opts, count_lengths, FrontierOptions, FrontierProgress, Spill,
    SpillProblem, MIN_MEMORY,
};
use ktour::count::CountError;
use std::path::Path;

fn board(r: u64, c: u64) -> Board {
    Board::new(r, c).unwrap()
}

fn spilled(temp: &Path, memory: u64) -> FrontierOptions<'_> {
    FrontierOptions {
        spill: Some(Spill { memory, temp }),
        ..FrontierOptions::default()
    }
}

/// States a bound of `memory` holds (seven eighths of it, 16 bytes each; the files' buffers
/// take the rest).
fn held_by(memory: u64) -> usize {
    (memory / 8 * 7 / 16) as usize
}

/// Every step that holds several times the bound's states wrote several runs (and the count
/// some in all).
fn assert_spilled_at_every_big_step(steps: &[FrontierProgress], memory: u64, what: &str) {
    let mut big = 0;
    for p in steps {
        if p.states > 4 * held_by(memory) {
            big += 1;
            assert!(
                p.spilled_runs >= 2,
                "{what}: square {} held {} states, {} runs",
                p.squares_done,
                p.states,
                p.spilled_runs
            );
        }
    }
    assert!(big >= 2, "{what}: {big} big steps");
}

#[test]
fn spilled_counts_equal_counts_in_memory() {
    let tmp = tempfile::tempdir().unwrap();
    for (r, c, closure, memory) in [
        (6, 6, Closure::Open, 1 << 20),
        (6, 6, Closure::Closed, 64 << 10),
        (5, 8, Closure::Open, 256 << 10),
        (8, 5, Closure::Closed, 16 << 10),
        (4, 12, Closure::Open, 8 << 10),
    ] {
        let b = board(r, c);
        let what = format!("{b} {closure:?} under {memory} bytes");
        let memory_count = count_frontier(b, closure).unwrap();
        let mut steps = Vec::new();
        let spill = count_frontier_opts(b, closure, &spilled(tmp.path(), memory), &mut |p| {
            steps.push(*p)
        })
        .unwrap();
        assert_eq!(
            (
                &spill.undirected,
                spill.transitions,
                spill.peak_states,
                spill.passes
            ),
            (
                &memory_count.undirected,
                memory_count.transitions,
                memory_count.peak_states,
                memory_count.passes
            ),
            "{what}"
        );
        assert_eq!(memory_count.spilled_runs, 0);
        assert_eq!(
            spill.spilled_runs,
            steps.iter().map(|p| p.spilled_runs).sum::<u64>()
        );
        assert_spilled_at_every_big_step(&steps, memory, &what);
        assert_eq!(
            std::fs::read_dir(tmp.path()).unwrap().count(),
            0,
            "{what}: the spill folder is removed"
        );
    }
}

/// Whole sequences, and counts whose ways pass 64 bits (passes modulo primes), spill alike.
#[test]
fn spilled_sequences_and_passes_equal_those_in_memory() {
    let tmp = tempfile::tempdir().unwrap();
    for (b, closure, memory) in [
        (board(3, 60), Closure::Open, MIN_MEMORY),
        (board(5, 16), Closure::Closed, 32 << 10),
    ] {
        let in_memory = count_lengths(b, closure, &FrontierOptions::default(), &mut |_| {});
        let mut steps = Vec::new();
        let spill = count_lengths(b, closure, &spilled(tmp.path(), memory), &mut |p| {
            steps.push(*p)
        });
        let (in_memory, spill) = (in_memory.unwrap(), spill.unwrap());
        assert_eq!(spill.undirected, in_memory.undirected, "{b}");
        assert_eq!(
            (spill.transitions, spill.peak_states, spill.passes),
            (
                in_memory.transitions,
                in_memory.peak_states,
                in_memory.passes
            )
        );
        assert!(spill.spilled_runs > 0 && in_memory.spilled_runs == 0);
        assert_spilled_at_every_big_step(&steps, memory, &format!("{b}"));
    }
    // 3 x 40 open passes 2^64: the exact pass widens its ways in flight (one pass, spilled in
    // 64-bit ways, then in 128-bit ones); without widening it wraps and the passes modulo primes
    // spill too
    let (b, memory) = (board(3, 40), MIN_MEMORY);
    for (widen, spilled_passes) in [
        (true, vec![(0, 64), (0, 128)]),
        (false, vec![(0, 64), (1, 64), (2, 64)]),
    ] {
        let options = FrontierOptions {
            widen,
            ..FrontierOptions::default()
        };
        let in_memory = count_frontier_opts(b, Closure::Open, &options, &mut |_| {}).unwrap();
        let mut passes = std::collections::BTreeSet::new();
        let spilling = FrontierOptions {
            widen,
            ..spilled(tmp.path(), memory)
        };
        let spill = count_frontier_opts(b, Closure::Open, &spilling, &mut |p| {
            if p.spilled_runs > 0 {
                passes.insert((p.pass, p.ways_bits));
            }
        })
        .unwrap();
        assert_eq!(
            (spill.undirected, spill.passes),
            (in_memory.undirected, in_memory.passes)
        );
        assert_eq!(
            in_memory.passes as usize,
            spilled_passes.len() - usize::from(widen)
        );
        assert_eq!(
            passes.into_iter().collect::<Vec<_>>(),
            spilled_passes,
            "widen {widen}"
        );
    }
}

/// A spilled count stopped after some rows resumes from its checkpoint, spilled or in memory, to
/// the count from scratch; a checkpoint written in memory resumes spilled.
#[test]
fn spilled_counts_resume_from_checkpoints_either_way() {
    let tmp = tempfile::tempdir().unwrap();
    let temp = tmp.path().join("runs");
    let path = tmp.path().join("count.ckpt");
    let b = board(6, 6);
    let fresh = count_frontier(b, Closure::Closed).unwrap();
    for (first, then) in [(true, true), (true, false), (false, true)] {
        let options = |spill: bool, max_states: usize| FrontierOptions {
            max_states,
            checkpoint: Some(&path),
            spill: spill.then_some(Spill {
                memory: 64 << 10,
                temp: &temp,
            }),
            ..FrontierOptions::default()
        };
        let stopped = count_frontier_opts(b, Closure::Closed, &options(first, 60_000), &mut |_| {});
        assert!(matches!(stopped, Err(CountError::TooManyStates { .. })));
        assert!(path.exists());
        let mut resumed_from = None;
        let resumed =
            count_frontier_opts(b, Closure::Closed, &options(then, usize::MAX), &mut |p| {
                resumed_from.get_or_insert(p.resumed_from);
            })
            .unwrap();
        assert!(resumed_from.unwrap() > 0);
        assert_eq!(
            (
                &resumed.undirected,
                resumed.transitions,
                resumed.peak_states
            ),
            (&fresh.undirected, fresh.transitions, fresh.peak_states),
            "spilled first {first}, then {then}"
        );
        assert_eq!(resumed.spilled_runs > 0, then);
        assert!(!path.exists());
        assert_eq!(std::fs::read_dir(&temp).map_or(0, |d| d.count()), 0);
    }
}

/// A folder that cannot be written, and a bound below the least, are refused before counting,
/// in one line.
#[test]
fn spills_that_cannot_work_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let refused = |temp: &Path, memory: u64| match count_frontier_opts(
        board(5, 5),
        Closure::Open,
        &spilled(temp, memory),
        &mut |_| {},
    ) {
        Err(CountError::FrontierSpill { problem }) => problem,
        other => panic!("{other:?}"),
    };
    let e = refused(&file, MIN_MEMORY);
    assert!(matches!(e, SpillProblem::NotWritable(_)), "{e}");
    let e = refused(tmp.path(), MIN_MEMORY - 1);
    assert!(matches!(e, SpillProblem::Memory { .. }), "{e}");
    let message = CountError::FrontierSpill { problem: e }.to_string();
    assert!(
        message.contains("--memory") && !message.contains('\n'),
        "{message}"
    );
}

/// `ktour count --memory --temp --checkpoint` killed (SIGKILL) during a count resumes from its
/// checkpoint when run again, to the count the in-memory run prints; the folder the killed count
/// left under `--temp` is removed by the count run again.
#[cfg(unix)]
#[test]
fn a_killed_spilled_count_resumes() {
    use std::process::{Command, Stdio};
    let tmp = tempfile::tempdir().unwrap();
    let ckpt = tmp.path().join("count.ckpt");
    let temp = tmp.path().join("runs");
    let bin = env!("CARGO_BIN_EXE_ktour");
    let args = |spill: bool| {
        let mut a: Vec<String> = "count --rows 6 --cols 6 --method frontier"
            .split(' ')
            .map(String::from)
            .collect();
        if spill {
            a.extend(["--memory".into(), "256K".into(), "--temp".into()]);
            a.push(temp.display().to_string());
            a.extend(["--checkpoint".into(), ckpt.display().to_string()]);
        }
        a
    };
    let last_line = |out: &std::process::Output| {
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.lines().last().unwrap_or_default().to_string()
    };
    let want = last_line(&Command::new(bin).args(args(false)).output().unwrap());
    assert_eq!(want, "6637920");
    let mut child = Command::new(bin)
        .args(args(true))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // killed once the checkpoint of row 3 of 6 is whole (written beside it, then renamed)
    let squares = || {
        let text = std::fs::read(&ckpt).unwrap_or_default();
        let head = String::from_utf8_lossy(&text[..text.len().min(400)]).to_string();
        head.split_whitespace()
            .find_map(|f| f.strip_prefix("squares=")?.parse::<u32>().ok())
            .unwrap_or(0)
    };
    let began = std::time::Instant::now();
    while squares() < 18 && began.elapsed().as_secs() < 120 {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.kill().unwrap();
    if child.wait().unwrap().success() {
        // the count ended before the kill (a fast machine): nothing to resume
        return;
    }
    assert!(squares() >= 18, "no checkpoint of row 3 within 2 minutes");
    // the killed count's folder is left in --temp, with its runs: the next count removes it
    let folders = || std::fs::read_dir(&temp).unwrap().count();
    assert_eq!(folders(), 1);
    let again = Command::new(bin).args(args(true)).output().unwrap();
    assert!(again.status.success());
    assert_eq!(last_line(&again), want);
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("resumed from the checkpoint"), "{said}");
    assert!(!ckpt.exists());
    assert_eq!(
        folders(),
        0,
        "the killed count's folder and the resumed count's own are gone"
    );
}
