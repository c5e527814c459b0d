#![no_main]
//! Any bytes as a `summary.csv`, then (for up to 200 rows) the plots `ktour plot` draws: never a
//! panic.
use ktour::render::{read_summary, write_plots, PlotOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("summary.csv");
    std::fs::write(&csv, data).unwrap();
    if let Ok(summary) = read_summary(&csv, Some("fuzz")) {
        if summary.rows.len() < 200 {
            let _ = write_plots(&summary, &PlotOptions::new(dir.path().join("plot.svg")));
        }
    }
});
