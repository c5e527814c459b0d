//! The shared folder of a sharded frontier count: where each file lives, the manifest that keeps
//! the shards' arguments equal, the atomic publishing of runs and markers, and the barrier that
//! waits for every shard's marker of a step.
//!
//! The layout, under the folder `--shared` names:
//! - `manifest`: the count's arguments, written by the first shard to start (linked into place,
//!   so two shards starting at once cannot both write it);
//! - `pass-P/step-S/I-to-J.run`: the states shard `I` reached before square `S` (0-based, squares
//!   of the board turned so that its shorter side is across) that belong to shard `J`, sorted and
//!   summed, in the spilled runs' format (`spill.rs`); pass 0 counts exactly, pass `P > 0` modulo
//!   the `P`-th prime;
//! - `pass-P/step-S/I.done`: shard `I` published all its runs of step `S`; it holds the shard's
//!   tally so far (one line of `key=value`), from which a restarted shard resumes;
//! - `pass-P/I.result`: shard `I`'s part of the count of pass `P`, in the same form;
//! - `work-I/`: shard `I`'s own scratch (links to its inputs, the files of its merges), emptied
//!   when it starts.
//!
//! Every file is written under a name ending `.tmp`, flushed to disk (`fsync`), then renamed into
//! place, and the folder flushed too: a file under its final name is whole, on every host that
//! shares the folder (rename is atomic on one filesystem, NFS included).
//!
//! Source: the bulk-synchronous barrier (L. G. Valiant, "A bridging model for parallel
//! computation", CACM 1990) over files, as a batch system's array tasks share nothing else; the
//! layout is ktour's own.

use super::ShardError;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The shared folder, seen by shard `me` of `shards`.
#[derive(Debug)]
pub(super) struct Folder {
    pub(super) path: PathBuf,
    pub(super) shards: u32,
    pub(super) me: u32,
}

/// What a shard has counted so far in a pass: written into its markers and its result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tallied {
    /// Tours completed (sums of ways, wrapping at 2^128; modulo the pass's modulus once reduced).
    pub(crate) tours: u128,
    /// A sum of ways passed the entries' bits (in the exact pass: a prime pass is needed).
    pub(crate) wrapped: bool,
    pub(crate) transitions: u64,
    /// The most states this shard held after a step.
    pub(crate) peak: u64,
    /// Bytes of runs this shard published.
    pub(crate) written: u64,
    /// Bits of the entries' ways (64, or 60 beside an 8-wide board's state).
    pub(crate) ways_bits: u32,
    /// Milliseconds this shard spent on the pass, over all its sittings (waits included).
    pub(crate) millis: u64,
}

impl Tallied {
    fn line(&self) -> String {
        format!(
            "ktour-shard-tally 1 tours={} wrapped={} transitions={} peak={} written={} ways_bits={} millis={}\n",
            self.tours, self.wrapped as u8, self.transitions, self.peak, self.written, self.ways_bits, self.millis
        )
    }

    fn parse(text: &str) -> Option<Tallied> {
        let mut words = text.trim_end().split(' ');
        if (words.next(), words.next()) != (Some("ktour-shard-tally"), Some("1")) {
            return None;
        }
        let mut t = Tallied::default();
        for word in words {
            let (key, value) = word.split_once('=')?;
            match key {
                "tours" => t.tours = value.parse().ok()?,
                "wrapped" => t.wrapped = value == "1",
                "transitions" => t.transitions = value.parse().ok()?,
                "peak" => t.peak = value.parse().ok()?,
                "written" => t.written = value.parse().ok()?,
                "ways_bits" => t.ways_bits = value.parse().ok()?,
                "millis" => t.millis = value.parse().ok()?,
                _ => return None,
            }
        }
        Some(t)
    }
}

/// `Err(ShardError::Io)` naming `path`.
fn io(path: &Path) -> impl Fn(std::io::Error) -> ShardError + '_ {
    move |e| ShardError::Io {
        path: path.to_path_buf(),
        kind: e.kind(),
    }
}

/// Flush `path` (a file or a folder) to disk.
fn sync(path: &Path) -> Result<(), ShardError> {
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(io(path))
}

impl Folder {
    /// The folder at `path` for shard `me` of `shards`: made if need be, checked writable, with
    /// this shard's scratch folder emptied (what a killed sitting left there).
    pub(super) fn open(path: &Path, shards: u32, me: u32) -> Result<Folder, ShardError> {
        let folder = Folder {
            path: path.to_path_buf(),
            shards,
            me,
        };
        let work = folder.work();
        if work.exists() {
            std::fs::remove_dir_all(&work).map_err(io(&work))?;
        }
        std::fs::create_dir_all(work.join("links")).map_err(io(&work))?;
        let probe = work.join("probe");
        std::fs::write(&probe, b"ktour")
            .and_then(|()| std::fs::remove_file(&probe))
            .map_err(io(&probe))?;
        Ok(folder)
    }

    /// This shard's scratch folder.
    pub(super) fn work(&self) -> PathBuf {
        self.path.join(format!("work-{}", self.me))
    }

    fn step_dir(&self, pass: u32, step: usize) -> PathBuf {
        self.path.join(format!("pass-{pass}/step-{step}"))
    }

    /// The run shard `from` wrote for shard `to` before square `step`.
    pub(super) fn run(&self, pass: u32, step: usize, from: u32, to: u32) -> PathBuf {
        self.step_dir(pass, step)
            .join(format!("{from}-to-{to}.run"))
    }

    fn marker(&self, pass: u32, step: usize, shard: u32) -> PathBuf {
        self.step_dir(pass, step).join(format!("{shard}.done"))
    }

    fn result(&self, pass: u32, shard: u32) -> PathBuf {
        self.path.join(format!("pass-{pass}/{shard}.result"))
    }

    /// The folder of step `step`'s files, made if need be.
    pub(super) fn make_step(&self, pass: u32, step: usize) -> Result<(), ShardError> {
        let dir = self.step_dir(pass, step);
        std::fs::create_dir_all(&dir).map_err(io(&dir))
    }

    /// `path`'s temporary name: written there, then renamed.
    pub(super) fn temporary(path: &Path) -> PathBuf {
        let mut name = path.as_os_str().to_owned();
        name.push(".tmp");
        PathBuf::from(name)
    }

    /// The file written at `temporary` flushed and renamed to `path`, its folder flushed.
    pub(super) fn publish(temporary: &Path, path: &Path) -> Result<(), ShardError> {
        sync(temporary)?;
        std::fs::rename(temporary, path).map_err(io(path))?;
        sync(path.parent().unwrap_or(Path::new(".")))
    }

    /// `text` written whole at `path` (a temporary name, flushed, renamed).
    fn write_whole(path: &Path, text: &str) -> Result<(), ShardError> {
        let temporary = Self::temporary(path);
        std::fs::write(&temporary, text).map_err(io(&temporary))?;
        Self::publish(&temporary, path)
    }

    /// The manifest holds `manifest`, written now if this is the first shard to start; another
    /// count's is refused.
    pub(super) fn agree(&self, manifest: &str) -> Result<(), ShardError> {
        let path = self.path.join("manifest");
        let mine = self.work().join("manifest");
        std::fs::write(&mine, manifest).map_err(io(&mine))?;
        sync(&mine)?;
        // a link cannot replace a file: of shards starting together, one writes it
        match std::fs::hard_link(&mine, &path) {
            Ok(()) => return sync(&self.path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io(&path)(e)),
        }
        let theirs = std::fs::read_to_string(&path).map_err(io(&path))?;
        if theirs != manifest {
            return Err(ShardError::OtherArguments {
                path,
                theirs: theirs.lines().nth(1).unwrap_or("").to_string(),
                mine: manifest.lines().nth(1).unwrap_or("").to_string(),
            });
        }
        Ok(())
    }

    /// This shard's marker of `step`: its runs of the step are all published.
    pub(super) fn mark(&self, pass: u32, step: usize, tally: &Tallied) -> Result<(), ShardError> {
        Self::write_whole(&self.marker(pass, step, self.me), &tally.line())
    }

    /// The last step this shard marked in `pass`, with its tally there (`None`: none).
    pub(super) fn last_mark(&self, pass: u32) -> Result<Option<(usize, Tallied)>, ShardError> {
        let dir = self.path.join(format!("pass-{pass}"));
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Ok(None);
        };
        let mut last = None;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let step = name.to_str().and_then(|n| n.strip_prefix("step-"));
            if let Some(step) = step.and_then(|s| s.parse::<usize>().ok()) {
                if self.marker(pass, step, self.me).exists() && last < Some(step) {
                    last = Some(step);
                }
            }
        }
        last.map(|step| Ok((step, self.read_tally(&self.marker(pass, step, self.me))?)))
            .transpose()
    }

    /// This shard's result of `pass`.
    pub(super) fn finish(&self, pass: u32, tally: &Tallied) -> Result<(), ShardError> {
        // a board of one square has no step that made the pass's folder
        let dir = self.path.join(format!("pass-{pass}"));
        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
        Self::write_whole(&self.result(pass, self.me), &tally.line())
    }

    /// This shard's result of `pass`, if it wrote it.
    pub(super) fn finished(&self, pass: u32) -> Result<Option<Tallied>, ShardError> {
        let path = self.result(pass, self.me);
        path.exists().then(|| self.read_tally(&path)).transpose()
    }

    fn read_tally(&self, path: &Path) -> Result<Tallied, ShardError> {
        let text = std::fs::read_to_string(path).map_err(io(path))?;
        Tallied::parse(&text).ok_or_else(|| ShardError::Damaged(path.to_path_buf()))
    }

    /// Every shard's result of `pass`, or the shards that have not written theirs.
    pub(super) fn results(&self, pass: u32) -> Result<Result<Vec<Tallied>, Vec<u32>>, ShardError> {
        let missing: Vec<u32> = (0..self.shards)
            .filter(|&s| !self.result(pass, s).exists())
            .collect();
        if !missing.is_empty() {
            return Ok(Err(missing));
        }
        let results = (0..self.shards)
            .map(|s| self.read_tally(&self.result(pass, s)))
            .collect::<Result<_, _>>()?;
        Ok(Ok(results))
    }

    /// Wait until every shard has marked `step` of `pass` (`step` past the last square: written
    /// its result), telling `waiting` every ten seconds which have not; give up after `patience`.
    pub(super) fn barrier(
        &self,
        pass: u32,
        step: Option<usize>,
        patience: Duration,
        waiting: &mut dyn FnMut(&[u32], Duration),
    ) -> Result<(), ShardError> {
        let began = Instant::now();
        let mut told = Duration::ZERO;
        let mut nap = Duration::from_millis(1);
        let mut missing: Vec<u32> = (0..self.shards).collect();
        loop {
            missing.retain(|&s| match step {
                Some(step) => !self.marker(pass, step, s).exists(),
                None => !self.result(pass, s).exists(),
            });
            let waited = began.elapsed();
            if missing.is_empty() {
                return Ok(());
            }
            if waited >= patience {
                return Err(ShardError::Timeout {
                    pass,
                    step,
                    missing,
                    seconds: patience.as_secs(),
                });
            }
            if waited >= told + Duration::from_secs(10) {
                told = waited;
                waiting(&missing, waited);
            }
            std::thread::sleep(nap.min(patience.saturating_sub(waited)));
            // a barrier a square: short naps while the shards keep pace, up to a tenth of a second
            nap = (nap * 2).min(Duration::from_millis(100));
        }
    }

    /// Remove the runs addressed to this shard in the steps of `pass` before `step` (its inputs,
    /// once its runs of the next step are published).
    pub(super) fn remove_inputs(&self, pass: u32, before: usize) -> Result<(), ShardError> {
        let dir = self.path.join(format!("pass-{pass}"));
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Ok(());
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let step = name.to_str().and_then(|n| n.strip_prefix("step-"));
            let Some(step) = step.and_then(|s| s.parse::<usize>().ok()) else {
                continue;
            };
            if step >= before {
                continue;
            }
            for from in 0..self.shards {
                let run = self.run(pass, step, from, self.me);
                match std::fs::remove_file(&run) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&run)(e)),
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The barrier passes once every shard has marked the step, waits while one has not, and
    /// gives up after its patience naming the missing shards; a tally reads back as written; a
    /// second manifest that differs is refused and an equal one agreed.
    #[test]
    fn the_barrier_waits_for_every_marker_and_gives_up_on_time() {
        let tmp = tempfile::tempdir().unwrap();
        let folders: Vec<Folder> = (0..3)
            .map(|i| Folder::open(tmp.path(), 3, i).unwrap())
            .collect();
        let tally = Tallied {
            tours: 1 << 100,
            wrapped: true,
            transitions: 7,
            peak: 9,
            written: 11,
            ways_bits: 60,
            millis: 1500,
        };
        for f in &folders {
            f.make_step(0, 4).unwrap();
        }
        folders[0].mark(0, 4, &tally).unwrap();
        folders[2].mark(0, 4, &tally).unwrap();
        let mut told = Vec::new();
        let begun = Instant::now();
        let wait = folders[0].barrier(0, Some(4), Duration::from_millis(200), &mut |m, _| {
            told.push(m.to_vec())
        });
        assert!(begun.elapsed() >= Duration::from_millis(200));
        match wait {
            Err(ShardError::Timeout { missing, step, .. }) => {
                assert_eq!((missing, step), (vec![1], Some(4)))
            }
            other => panic!("{other:?}"),
        }
        // shard 1 marks the step from another thread while shard 0 waits: the barrier passes
        let late = std::thread::spawn({
            let path = tmp.path().to_path_buf();
            move || {
                std::thread::sleep(Duration::from_millis(50));
                Folder::open(&path, 3, 1)
                    .unwrap()
                    .mark(0, 4, &Tallied::default())
                    .unwrap();
            }
        });
        folders[0]
            .barrier(0, Some(4), Duration::from_secs(20), &mut |_, _| {})
            .unwrap();
        late.join().unwrap();
        assert_eq!(folders[2].last_mark(0).unwrap(), Some((4, tally)));
        assert_eq!(folders[2].last_mark(1).unwrap(), None);
        // results: missing, then all there
        assert_eq!(folders[0].results(0).unwrap(), Err(vec![0, 1, 2]));
        for f in &folders {
            f.finish(0, &tally).unwrap();
        }
        assert_eq!(folders[0].results(0).unwrap(), Ok(vec![tally; 3]));
        // the manifest: the first written, an equal one agreed, another refused
        folders[0].agree("m\nrows=6\n").unwrap();
        folders[1].agree("m\nrows=6\n").unwrap();
        let refused = folders[2].agree("m\nrows=7\n").unwrap_err();
        assert!(
            matches!(refused, ShardError::OtherArguments { .. }),
            "{refused}"
        );
        assert!(!refused.to_string().contains('\n'));
    }
}
