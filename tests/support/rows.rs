//! A CSV file's rows without its timing columns (those whose name starts with `elapsed`): what the
//! tests compare between sweeps, which give the same results but not the same wall times. Also
//! included by the `journal` and `merge` fuzz targets, beside `damage.rs` (so it uses only `csv`).

use std::path::Path;

/// A CSV file's rows without its timing columns, in order.
pub fn rows_without_timing(path: &Path) -> Vec<Vec<String>> {
    rows_without_timing_where(path, |_, _| true)
}

/// A CSV file's rows without its timing columns, in order, of the rows that `keep` accepts (given
/// the header and the whole row).
pub fn rows_without_timing_where(
    path: &Path,
    keep: impl Fn(&csv::StringRecord, &csv::StringRecord) -> bool,
) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let headers = r.headers().unwrap().clone();
    let kept: Vec<usize> = (0..headers.len())
        .filter(|&i| !headers[i].starts_with("elapsed"))
        .collect();
    r.records()
        .map(Result::unwrap)
        .filter(|rec| keep(&headers, rec))
        .map(|rec| kept.iter().map(|&i| rec[i].to_string()).collect())
        .collect()
}
