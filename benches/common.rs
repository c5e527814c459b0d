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

/// The core's clock while this thread runs, in GHz, where it can be measured: a chain of dependent
/// 64-bit multiplies takes 3 cycles a multiply on x86-64 cores (Intel since Core 2, AMD since Zen;
/// Agner Fog's instruction tables), the fastest of five chains. A virtual machine's `cpu MHz` is
/// often the part's nominal clock: 2445 MHz on a Zen 3 part measured here at 3.2 GHz.
pub fn measured_ghz() -> Option<f64> {
    if !cfg!(target_arch = "x86_64") {
        return None;
    }
    let multiplies = 20_000_000u64;
    let fastest = (0..5)
        .map(|_| {
            let mut x = std::hint::black_box(3u64);
            let t = std::time::Instant::now();
            for _ in 0..multiplies / 4 {
                x = x.wrapping_mul(x);
                x = x.wrapping_mul(x);
                x = x.wrapping_mul(x);
                x = x.wrapping_mul(x);
            }
            std::hint::black_box(x);
            t.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min);
    Some(3.0 * multiplies as f64 / fastest / 1e9)
}

/// The line that says which machine a printed ratio was taken on: the CPU's name, family and
/// model, its clock as the kernel reports it, and the clock [`measured_ghz`] measures.
pub fn machine_line() -> String {
    let reported = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("cpu MHz"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| format!(", {} MHz reported", v.trim()))
        })
        .unwrap_or_default();
    let measured = measured_ghz()
        .map(|ghz| format!(", {ghz:.2} GHz measured"))
        .unwrap_or_default();
    format!(
        "machine: {}{reported}{measured}",
        ktour::machine::cpu_model()
    )
}
