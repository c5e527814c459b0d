//! What every bench that prints its own ratios shares: the calling thread's CPU time (so that time
//! the scheduler gave to other processes on a shared machine is left out), and the median of ratios
//! taken pair by pair from alternated runs, printed with the CPU they were taken on.

// each bench includes this file as its own module and uses part of it
#![allow(dead_code)]

use std::time::Duration;

/// CPU time of the calling thread (wall time where there is no such clock).
#[cfg(unix)]
pub fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

#[cfg(not(unix))]
pub fn thread_cpu() -> Duration {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ZERO: OnceLock<Instant> = OnceLock::new();
    ZERO.get_or_init(Instant::now).elapsed()
}

/// The CPU time of one call of `f`.
pub fn cpu_of(mut f: impl FnMut()) -> Duration {
    let t = thread_cpu();
    f();
    thread_cpu() - t
}

/// `a` and `b` run in turn `pairs` times (A B A B ...), the ratio of their CPU times taken pair by
/// pair: (median, lowest, highest) of the ratios, and the median CPU time of each.
pub fn alternated(
    pairs: usize,
    mut a: impl FnMut(),
    mut b: impl FnMut(),
) -> ((f64, f64, f64), Duration, Duration) {
    let mut ratios = Vec::with_capacity(pairs);
    let (mut ta, mut tb) = (Vec::with_capacity(pairs), Vec::with_capacity(pairs));
    for _ in 0..pairs {
        let x = cpu_of(&mut a);
        let y = cpu_of(&mut b);
        ratios.push(x.as_secs_f64() / y.as_secs_f64().max(1e-12));
        ta.push(x);
        tb.push(y);
    }
    ratios.sort_by(f64::total_cmp);
    ta.sort();
    tb.sort();
    let mid = pairs / 2;
    (
        (ratios[mid], ratios[0], ratios[pairs - 1]),
        ta[mid],
        tb[mid],
    )
}

/// The line that says which machine a printed ratio was taken on: the CPU's name, family and
/// model, and its clock as the kernel reports it (a virtual machine's may be nominal).
pub fn machine_line() -> String {
    let clock = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("cpu MHz"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| format!(", {} MHz", v.trim()))
        })
        .unwrap_or_default();
    format!("machine: {}{clock}", ktour::machine::cpu_model())
}
