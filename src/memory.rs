//! How much memory this process may use: the machine's available memory, its control groups'
//! limits and `ulimit -v`, and the share of it that every memory check of ktour allows itself.
//! Read by the solvers, counting, construction, input and sweeps alike, so it sits at the bottom.

/// Whether `needed` bytes are within the share of `available` that ktour lets itself take
/// ([`usable_share`]). Every memory check uses it.
pub fn fits_in(needed: u64, available: u64) -> bool {
    needed <= usable_share(available)
}

/// The share of `available` bytes that ktour lets itself take: 80%, so that the estimates' slack
/// and the rest of the machine have room.
pub fn usable_share(available: u64) -> u64 {
    available / 10 * 8
}

/// Available memory in bytes: the least of `MemAvailable` (/proc/meminfo), what the process's
/// control groups still allow (cgroup v2 `memory.max - memory.current` at every level up to the
/// root; cgroup v1 `memory.limit_in_bytes - memory.usage_in_bytes`), and the address space
/// `ulimit -v` leaves (`Max address space` in /proc/self/limits less `VmSize`). A batch job's memory
/// limit (Slurm's `--mem` is a cgroup limit) is thus respected, not only the machine's free memory:
/// a job over its limit is killed without a word, where a check refuses it with one. 4 GiB where
/// none of these can be read (not Linux). Read at most once a second: a sweep asks whenever a
/// worker changes board, and the reads are half a dozen files.
pub fn available_bytes() -> u64 {
    use std::sync::Mutex;
    use std::time::{Duration, Instant};
    static LAST: Mutex<Option<(Instant, u64)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match *last {
        Some((when, bytes)) if when.elapsed() < Duration::from_secs(1) => bytes,
        _ => {
            let bytes = read_available_bytes();
            *last = Some((Instant::now(), bytes));
            bytes
        }
    }
}

/// [`available_bytes`], read now.
fn read_available_bytes() -> u64 {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let meminfo = read("/proc/meminfo").and_then(|s| mem_available(&s));
    let cgroup = read("/proc/self/cgroup").and_then(|s| cgroup_room(&s, &read));
    let address = match (read("/proc/self/limits"), read("/proc/self/status")) {
        (Some(limits), Some(status)) => address_space_room(&limits, &status),
        _ => None,
    };
    [meminfo, cgroup, address]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(4 << 30)
}

/// `MemAvailable` of a /proc/meminfo text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    meminfo
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map(|kb| kb.saturating_mul(1024))
}

/// The least room any memory limit of the process's control groups leaves, in bytes (`None`: no
/// limit found). `cgroup` is /proc/self/cgroup; `read` reads a file under /sys/fs/cgroup.
fn cgroup_room(cgroup: &str, read: &impl Fn(&str) -> Option<String>) -> Option<u64> {
    let number = |text: Option<String>| text.and_then(|t| t.trim().parse::<u64>().ok());
    let mut least: Option<u64> = None;
    let mut note = |limit: Option<u64>, used: Option<u64>| {
        // v1 writes "no limit" as a huge number, v2 as "max" (which does not parse)
        if let (Some(limit), Some(used)) = (limit, used) {
            if limit < 1 << 60 {
                let room = limit.saturating_sub(used);
                least = Some(least.map_or(room, |l| l.min(room)));
            }
        }
    };
    for line in cgroup.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let path = path.trim_end_matches('/');
        if controllers.is_empty() {
            // v2: the group and every ancestor (a job's limit usually sits above its steps')
            let mut dir = path.to_string();
            loop {
                let base = format!("/sys/fs/cgroup{dir}");
                note(
                    number(read(&format!("{base}/memory.max"))),
                    number(read(&format!("{base}/memory.current"))),
                );
                match dir.rfind('/') {
                    Some(i) => dir.truncate(i),
                    None => break,
                }
            }
        } else if controllers.split(',').any(|c| c == "memory") {
            // v1: the group's own folder, or the mount's root when the container shows it as root
            for base in [
                format!("/sys/fs/cgroup/memory{path}"),
                "/sys/fs/cgroup/memory".to_string(),
            ] {
                let limit = number(read(&format!("{base}/memory.limit_in_bytes")));
                if limit.is_some() {
                    note(
                        limit,
                        number(read(&format!("{base}/memory.usage_in_bytes"))),
                    );
                    break;
                }
            }
        }
    }
    least
}

/// What `ulimit -v` leaves of the address space, in bytes: the soft `Max address space` of a
/// /proc/self/limits text less `VmSize` of a /proc/self/status text (`None`: unlimited).
fn address_space_room(limits: &str, status: &str) -> Option<u64> {
    let limit: u64 = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?
        .trim_start_matches("Max address space")
        .split_whitespace()
        .next()?
        .parse()
        .ok()?; // "unlimited" does not parse
    let size_kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmSize:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(limit.saturating_sub(size_kb.saturating_mul(1024)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn files(entries: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = entries
            .iter()
            .map(|&(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |path: &str| map.get(path).cloned()
    }

    #[test]
    fn meminfo_gives_mem_available_in_bytes() {
        let text = "MemTotal:       24684128 kB\nMemFree:        22209500 kB\nMemAvailable:   24101744 kB\n";
        assert_eq!(mem_available(text), Some(24_101_744 * 1024));
        assert_eq!(mem_available("MemTotal: 1 kB\n"), None);
    }

    /// A Slurm job: the limit (4 GiB, 1 GiB used) is on the job's group, two levels above the
    /// process's; the levels without a limit say "max".
    #[test]
    fn cgroup_v2_limits_are_found_at_any_level_above() {
        let read = files(&[
            ("/sys/fs/cgroup/job_42/step_0/task/memory.max", "max\n"),
            ("/sys/fs/cgroup/job_42/step_0/task/memory.current", "5000\n"),
            ("/sys/fs/cgroup/job_42/step_0/memory.max", "max\n"),
            ("/sys/fs/cgroup/job_42/step_0/memory.current", "5000\n"),
            ("/sys/fs/cgroup/job_42/memory.max", "4294967296\n"),
            ("/sys/fs/cgroup/job_42/memory.current", "1073741824\n"),
        ]);
        assert_eq!(
            cgroup_room("0::/job_42/step_0/task\n", &read),
            Some(3 << 30)
        );
        // no limit anywhere
        let free = files(&[("/sys/fs/cgroup/a/memory.max", "max\n")]);
        assert_eq!(cgroup_room("0::/a\n", &free), None);
    }

    /// cgroup v1, as in a container whose memory group is mounted as the root: "no limit" is a huge
    /// number; a real limit leaves limit - usage.
    #[test]
    fn cgroup_v1_limits_are_read_from_the_group_or_the_mount_root() {
        let cgroup = "9:name=systemd:/\n4:memory:/process_api/05e2\n0::/\n";
        let unlimited = files(&[
            (
                "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                "9223372036854771712\n",
            ),
            (
                "/sys/fs/cgroup/memory/memory.usage_in_bytes",
                "3065274368\n",
            ),
        ]);
        assert_eq!(cgroup_room(cgroup, &unlimited), None);
        let limited = files(&[
            (
                "/sys/fs/cgroup/memory/process_api/05e2/memory.limit_in_bytes",
                "2147483648\n",
            ),
            (
                "/sys/fs/cgroup/memory/process_api/05e2/memory.usage_in_bytes",
                "536870912\n",
            ),
        ]);
        assert_eq!(cgroup_room(cgroup, &limited), Some(1_610_612_736));
    }

    #[test]
    fn ulimit_v_leaves_the_limit_less_the_address_space_in_use() {
        let status = "Name:\tktour\nVmPeak:\t  20000 kB\nVmSize:\t  10000 kB\n";
        let limited = "Limit                     Soft Limit           Hard Limit           Units     \nMax address space         1024000000           unlimited            bytes     \n";
        assert_eq!(
            address_space_room(limited, status),
            Some(1_024_000_000 - 10_000 * 1024)
        );
        let unlimited =
            "Max address space         unlimited            unlimited            bytes     \n";
        assert_eq!(address_space_room(unlimited, status), None);
    }
}
