//! Where walks die: `deadends.csv` (how many runs of a group dead-ended after exactly L squares)
//! as a histogram per rule of the path's share of its board, `L / squares` in twenty bins of 5%
//! (the squares of a masked board are its own), every board and method of the rule pooled. Read
//! row by row, so a file of any length takes the memory of its histograms only; drawn by hand as
//! one small SVG panel a rule, at most [`MAX_PANELS`] of them.

use super::ReportError;
use crate::board::Shape;
use crate::experiment::{board_squares, DeadEndRow};
use crate::render::escape_xml;
use std::fmt::Write;
use std::path::Path;

/// Bins of the share of the board, each 100 / BINS percent wide.
pub const BINS: usize = 20;
/// Most rules drawn; the rest are named.
pub const MAX_PANELS: usize = 12;

/// The dead ends of one rule by share of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleDeadEnds {
    /// Tie-break rule.
    pub rule: String,
    /// Dead ends whose path covered `[5k, 5k+5)` % of the board, k = 0..20.
    pub bins: [u64; BINS],
}

impl RuleDeadEnds {
    /// Dead ends in all.
    pub fn total(&self) -> u64 {
        self.bins.iter().sum()
    }
}

/// The bin of a dead end after `length` of `squares` squares.
pub fn bin(length: u32, squares: u64) -> usize {
    ((u64::from(length) * BINS as u64) / squares.max(1)).min(BINS as u64 - 1) as usize
}

/// The histograms of `path` (a `deadends.csv`), one per rule in first-seen order; `mask` is the
/// sweep's.
pub fn read_dead_ends(path: &Path, mask: Option<&Shape>) -> Result<Vec<RuleDeadEnds>, ReportError> {
    let mut reader = super::error::csv_stream(path)?;
    let mut out: Vec<RuleDeadEnds> = Vec::new();
    for row in reader.deserialize::<DeadEndRow>() {
        let r = row.map_err(|e| ReportError::malformed(path, e))?;
        let squares = board_squares(r.rows, r.cols, mask);
        let i = match out.iter().position(|h| h.rule == r.rule) {
            Some(i) => i,
            None => {
                out.push(RuleDeadEnds {
                    rule: r.rule,
                    bins: [0; BINS],
                });
                out.len() - 1
            }
        };
        out[i].bins[bin(r.length, squares)] += r.count;
    }
    Ok(out)
}

/// The panels of the first [`MAX_PANELS`] rules as one SVG: bars of each bin's share of the rule's
/// dead ends; each bar a `<rect class="bin">` carrying its rule, bin and count.
pub fn dead_ends_svg(hists: &[RuleDeadEnds]) -> String {
    const PW: i32 = 280;
    const PH: i32 = 150;
    const COLS: usize = 3;
    let shown = &hists[..hists.len().min(MAX_PANELS)];
    let rows = shown.len().div_ceil(COLS) as i32;
    let (w, h) = (PW * COLS as i32 + 20, rows * (PH + 20) + 30);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="10" y="16" font-size="13">dead ends by the share of the board the path covered (5% bins; bar = share of the rule's dead ends)</text>"#
    );
    for (k, hist) in shown.iter().enumerate() {
        let x0 = 10 + (k % COLS) as i32 * PW;
        let y0 = 30 + (k / COLS) as i32 * (PH + 20);
        let total = hist.total().max(1) as f64;
        let top = hist.bins.iter().copied().max().unwrap_or(0).max(1) as f64 / total;
        let (left, bottom, plot_w, plot_h) = (x0 + 30, y0 + PH - 18, PW - 50, PH - 40);
        let _ = writeln!(
            s,
            r#"<text x="{left}" y="{}" font-size="12">{} ({} dead ends)</text>"#,
            y0 + 12,
            escape_xml(&hist.rule),
            hist.total()
        );
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{bottom}" x2="{}" y2="{bottom}" stroke="#444"/>"##,
            left + plot_w
        );
        for (b, &n) in hist.bins.iter().enumerate() {
            let bw = plot_w / BINS as i32;
            let bh = ((n as f64 / total) / top * f64::from(plot_h)).round() as i32;
            let _ = writeln!(
                s,
                r##"<rect class="bin" data-rule="{}" data-bin="{b}" data-count="{n}" x="{}" y="{}" width="{}" height="{bh}" fill="#c8321e"/>"##,
                escape_xml(&hist.rule),
                left + b as i32 * bw,
                bottom - bh,
                bw - 1
            );
        }
        for pct in [0, 50, 100] {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="middle">{pct}%</text>"#,
                left + plot_w * pct / 100,
                bottom + 13
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{:.0}%</text>"#,
            left - 3,
            bottom - plot_h + 8,
            100.0 * top
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_fall_in_the_bin_of_their_share_of_the_board() {
        assert_eq!(bin(0, 64), 0);
        assert_eq!(bin(3, 64), 0); // 4.7%
        assert_eq!(bin(4, 64), 1); // 6.25%
        assert_eq!(bin(32, 64), 10); // 50%
        assert_eq!(bin(63, 64), 19);
        assert_eq!(
            bin(64, 64),
            19,
            "a whole path that did not close is in the last bin"
        );
    }

    #[test]
    fn the_file_is_pooled_per_rule_over_boards() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("deadends.csv");
        std::fs::write(
            &path,
            "rows,cols,rule,method,closed,length,count\n\
             5,5,first,warnsdorff,false,17,1\n\
             8,8,first,warnsdorff,false,60,3\n\
             5,5,random,warnsdorff,false,19,2\n",
        )
        .unwrap();
        let h = read_dead_ends(&path, None).unwrap();
        assert_eq!(h.len(), 2);
        assert_eq!((h[0].rule.as_str(), h[0].total()), ("first", 4));
        assert_eq!(h[0].bins[13], 1); // 17/25 = 68%
        assert_eq!(h[0].bins[18], 3); // 60/64 = 93.75%
        assert_eq!(h[1].bins[15], 2); // 19/25 = 76%
        let svg = dead_ends_svg(&h);
        assert_eq!(svg.matches("class=\"bin\"").count(), 2 * BINS);
        std::fs::write(&path, "rows,cols\n5,x\n").unwrap();
        let e = read_dead_ends(&path, None).unwrap_err().to_string();
        assert!(e.contains("deadends.csv") && !e.contains('\n'), "{e}");
    }
}
