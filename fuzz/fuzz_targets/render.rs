#![no_main]
//! Any bytes as a tour record (the JSON of `solve --format json`), then its picture, drawn without
//! the checks `ktour render` makes first (repeats, non-knight moves): never a panic.
use ktour::render::{tour_svg_with, SvgOptions};
use ktour::tour::parse_record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(rec) = parse_record(data) {
        if rec.rows as u64 * rec.cols as u64 <= 10_000 {
            let _ = tour_svg_with(&rec, &SvgOptions::default());
        }
    }
});
