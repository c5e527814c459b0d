//! Per-start probability maps (`ktour exact --svg`): a board per quantity (a complete tour, a
//! closed tour), each start square shaded by the exact probability from it and labelled with it,
//! written as hand-made SVG (one `<rect>` per start, its value in a `data-p` attribute, checkable
//! square by square). Shades run from red (0) through yellow to green (1).

use std::fmt::Write;

/// One panel: a quantity and its value from each start, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbPanel {
    /// What the values are ("complete tour").
    pub title: String,
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// `rows * cols` probabilities, row-major.
    pub values: Vec<f64>,
}

/// The shade of probability `p`: red at 0, yellow at 1/2, green at 1.
fn shade(p: f64) -> (u8, u8, u8) {
    let p = p.clamp(0.0, 1.0);
    let lerp = |a: f64, b: f64, t: f64| (a + (b - a) * t).round() as u8;
    if p < 0.5 {
        let t = p / 0.5;
        (
            lerp(215.0, 250.0, t),
            lerp(48.0, 220.0, t),
            lerp(39.0, 80.0, t),
        )
    } else {
        let t = (p - 0.5) / 0.5;
        (
            lerp(250.0, 26.0, t),
            lerp(220.0, 152.0, t),
            lerp(80.0, 80.0, t),
        )
    }
}

/// The value as written in its square: `1` and `0` exactly, else three decimals (`.979`), or `<.001`
/// / `>.999` when rounding would say 0 or 1 of a value that is not.
fn label(p: f64) -> String {
    if p == 1.0 {
        "1".into()
    } else if p == 0.0 {
        "0".into()
    } else if p < 0.0005 {
        "<.001".into()
    } else if p > 0.9995 {
        ">.999".into()
    } else {
        format!("{p:.3}").trim_start_matches('0').to_string()
    }
}

/// The panels side by side under `title`, as an SVG document.
pub fn prob_map_svg(panels: &[ProbPanel], title: &str) -> String {
    const GAP: u32 = 24;
    const TOP: u32 = 56;
    let side = panels.iter().map(|p| p.rows.max(p.cols)).max().unwrap_or(1);
    let cell = (480 / side).clamp(12, 56);
    let panel_w = panels.iter().map(|p| p.cols).max().unwrap_or(1) * cell;
    let panel_h = panels.iter().map(|p| p.rows).max().unwrap_or(1) * cell;
    let w = GAP + panels.len() as u32 * (panel_w + GAP);
    let h = TOP + panel_h + GAP + 20;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, sans-serif">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{GAP}" y="24" font-size="16">{}</text>"#,
        super::escape_xml(title)
    );
    let font = (cell as f64 * 0.3).clamp(6.0, 14.0);
    for (k, panel) in panels.iter().enumerate() {
        let x0 = GAP + k as u32 * (panel_w + GAP);
        let _ = writeln!(
            s,
            r#"<text x="{x0}" y="{}" font-size="13">{}</text>"#,
            TOP - 10,
            super::escape_xml(&panel.title)
        );
        for row in 0..panel.rows {
            for col in 0..panel.cols {
                let p = panel.values[(row * panel.cols + col) as usize];
                let (r, g, b) = shade(p);
                let (x, y) = (x0 + col * cell, TOP + row * cell);
                let _ = writeln!(
                    s,
                    r##"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#{r:02x}{g:02x}{b:02x}" stroke="white" data-row="{row}" data-col="{col}" data-p="{p}"/>"##
                );
                if cell >= 24 {
                    let _ = writeln!(
                        s,
                        r#"<text x="{}" y="{}" font-size="{font:.0}" text-anchor="middle">{}</text>"#,
                        x + cell / 2,
                        y + cell / 2 + (font / 3.0) as u32,
                        label(p)
                    );
                }
            }
        }
    }
    let _ = writeln!(
        s,
        r##"<text x="{GAP}" y="{}" font-size="11" fill="#555">row 0 at the top, column 0 at left; red 0, yellow 1/2, green 1</text>"##,
        h - 8
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_never_round_to_a_wrong_certainty() {
        assert_eq!(label(1.0), "1");
        assert_eq!(label(0.0), "0");
        assert_eq!(label(0.9999), ">.999");
        assert_eq!(label(0.0001), "<.001");
        assert_eq!(label(0.73692), ".737");
    }

    #[test]
    fn a_square_per_start_with_its_value() {
        let panel = ProbPanel {
            title: "complete tour".into(),
            rows: 2,
            cols: 3,
            values: vec![1.0, 0.5, 0.0, 0.25, 0.75, 1.0],
        };
        let svg = prob_map_svg(&[panel], "t");
        assert_eq!(svg.matches("data-p=").count(), 6);
        assert!(svg.contains(r#"data-row="1" data-col="0" data-p="0.25""#));
        assert_eq!(shade(0.0), (215, 48, 39));
        assert_eq!(shade(1.0), (26, 152, 80));
    }
}
