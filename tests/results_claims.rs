//! The figures the results pages quote (`results/README.md`, `results/atlas/README.md`,
//! `results/leapers/README.md`) recomputed from the committed CSVs: each test reads a sentence's
//! numbers out of the README text and compares each with the same figure computed from the CSV it
//! cites, rounded as the README writes it. A README figure edited without its data, or data re-run
//! without the README, fails here. No sweep is run: the committed files are read, in milliseconds.
//! The counting page's Luschny figures are read back the same way from the bench's run kept in
//! `results/counts/luschny.txt`.

use std::collections::HashMap;
use std::path::Path;

/// A number as a README writes it: its value and how many decimals it shows.
#[derive(Debug, Clone, Copy)]
struct Num {
    value: f64,
    decimals: usize,
}

impl Num {
    /// `computed` rounded as this number is written.
    fn shown(&self, computed: f64) -> String {
        format!("{:.*}", self.decimals, computed)
    }

    fn written(&self) -> String {
        format!("{:.*}", self.decimals, self.value)
    }
}

/// The numbers of `text` in order: digits, with commas between groups of three and a decimal part
/// (`1,301`, `73.5`); a `..` or `-` between two numbers separates them, it is no sign or point.
fn numbers(text: &str) -> Vec<Num> {
    let b = text.as_bytes();
    let digit = |i: usize| i < b.len() && b[i].is_ascii_digit();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < b.len() {
        if !digit(i) || (i > 0 && (b[i - 1].is_ascii_alphabetic() || b[i - 1] == b'_')) {
            i += 1;
            continue;
        }
        let mut s = String::new();
        let mut decimals = 0;
        while digit(i) {
            s.push(b[i] as char);
            i += 1;
            let group = b.get(i) == Some(&b',') && (1..=3).all(|k| digit(i + k)) && !digit(i + 4);
            if group {
                i += 1;
            }
        }
        if b.get(i) == Some(&b'.') && digit(i + 1) {
            s.push('.');
            i += 1;
            while digit(i) {
                s.push(b[i] as char);
                decimals += 1;
                i += 1;
            }
        }
        out.push(Num {
            value: s.parse().unwrap(),
            decimals,
        });
    }
    out
}

/// A README's text with every run of white space one space, so a sentence reads the same however
/// its lines are wrapped.
fn readme(path: &str) -> String {
    committed(path)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A committed file's text, `path` from the repository's root.
fn committed(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The text from `from` (which must occur once) to the next `to` after it.
fn segment<'a>(text: &'a str, from: &str, to: &str) -> &'a str {
    assert_eq!(text.matches(from).count(), 1, "{from:?} must occur once");
    let start = text.find(from).unwrap() + from.len();
    let len = text[start..]
        .find(to)
        .unwrap_or_else(|| panic!("no {to:?} after {from:?}"));
    &text[start..start + len]
}

/// The first `k` numbers after `anchor` (which must occur once).
fn numbers_after(text: &str, anchor: &str, k: usize) -> Vec<Num> {
    assert_eq!(
        text.matches(anchor).count(),
        1,
        "{anchor:?} must occur once"
    );
    let nums = numbers(&text[text.find(anchor).unwrap() + anchor.len()..]);
    assert!(nums.len() >= k, "fewer than {k} numbers after {anchor:?}");
    nums[..k].to_vec()
}

/// Each back-quoted name of `text` with the numbers between it and the next back quote: "`roth`
/// 469 of its 490 (95.7%), `first` 616" gives `roth` [469, 490, 95.7] and `first` [616].
fn named_numbers(text: &str) -> Vec<(String, Vec<Num>)> {
    let parts: Vec<&str> = text.split('`').collect();
    (1..parts.len())
        .step_by(2)
        .map(|i| {
            let after = parts.get(i + 1).copied().unwrap_or("");
            (parts[i].to_string(), numbers(after))
        })
        .collect()
}

/// Compare each written number with its computed figure, rounded as written.
fn same(what: &str, written: &[Num], computed: &[f64]) {
    assert!(!written.is_empty(), "{what}: no figure found in the README");
    assert!(
        written.len() <= computed.len(),
        "{what}: the README gives {} figures, the data {}",
        written.len(),
        computed.len()
    );
    for (i, (w, c)) in written.iter().zip(computed).enumerate() {
        assert_eq!(
            w.written(),
            w.shown(*c),
            "{what}, figure {}: the README says {}, the CSV gives {c}",
            i + 1,
            w.written()
        );
    }
}

type Row = HashMap<String, String>;

fn csv_rows(path: &str) -> Vec<Row> {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let mut r = csv::Reader::from_path(&full).unwrap_or_else(|e| panic!("{path}: {e}"));
    let head = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            head.iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn num(r: &Row, col: &str) -> f64 {
    r[col]
        .parse()
        .unwrap_or_else(|_| panic!("{col}: {:?}", r[col]))
}

fn n(r: &Row) -> u32 {
    r["rows"].parse().unwrap()
}

/// (successes, feasible runs) of `rule` (and `method`, if given) over n = lo..=hi.
fn pooled(rows: &[Row], rule: &str, method: Option<&str>, lo: u32, hi: u32) -> (f64, f64) {
    rows.iter()
        .filter(|r| r["rule"] == rule && method.map_or(true, |m| r["method"] == m))
        .filter(|r| (lo..=hi).contains(&n(r)))
        .fold((0.0, 0.0), |(k, f), r| {
            (k + num(r, "successes"), f + num(r, "feasible_runs"))
        })
}

fn pct((k, f): (f64, f64)) -> f64 {
    100.0 * k / f
}

/// The sizes at which `rule` fails from some feasible run (sorted as the CSV is: by n).
fn failing_sizes(rows: &[Row], rule: &str) -> Vec<u32> {
    rows.iter()
        .filter(|r| r["rule"] == rule && num(r, "successes") < num(r, "feasible_runs"))
        .map(n)
        .collect()
}

/// A pooled share in percent with its Wilson 95% interval, as the READMEs write them.
fn share_with_interval((k, f): (f64, f64)) -> Vec<f64> {
    let (lo, hi) = ktour::util::wilson::wilson95(k as u64, f as u64);
    vec![pct((k, f)), 100.0 * lo, 100.0 * hi]
}

fn sizes_of(rows: &[Row], rule: &str) -> usize {
    rows.iter().filter(|r| r["rule"] == rule).count()
}

fn last_success(rows: &[Row], rule: &str) -> u32 {
    rows.iter()
        .filter(|r| r["rule"] == rule && num(r, "successes") > 0.0)
        .map(n)
        .max()
        .unwrap()
}

/// Check every back-quoted rule of `seg` against `figures(rule)`; at least `min_rules` of them.
fn rules_in(what: &str, seg: &str, min_rules: usize, figures: impl Fn(&str) -> Vec<f64>) {
    let named = named_numbers(seg);
    assert!(
        named.len() >= min_rules,
        "{what}: {} rules found, {min_rules} expected",
        named.len()
    );
    for (rule, written) in named {
        same(&format!("{what}, `{rule}`"), &written, &figures(&rule));
    }
}

#[test]
fn results_readme_default_sweep() {
    let t = readme("results/README.md");
    let rows = csv_rows("results/default/summary.csv");
    let w = |rule: &str| pooled(&rows, rule, Some("warnsdorff"), 5, 64);
    let b = |rule: &str| pooled(&rows, rule, Some("backtrack"), 5, 64);
    let seg = segment(&t, "all n = 5..64 pooled:", "At n = 64:");
    rules_in("default, pooled", seg, 7, |rule| vec![pct(w(rule))]);
    let seg = segment(&t, "At n = 64:", "Backtracking");
    rules_in("default, n = 64", seg, 5, |rule| {
        vec![pct(pooled(&rows, rule, Some("warnsdorff"), 64, 64))]
    });
    // what backtracking repairs: failing runs repaired, failing runs, that share, and the
    // backtracking success rate
    let seg = segment(&t, "few of the others:", "Warnsdorff's walks");
    rules_in("default, repairs", seg, 5, |rule| {
        let (fw, fb) = (w(rule).1 - w(rule).0, b(rule).1 - b(rule).0);
        vec![fw - fb, fw, 100.0 * (fw - fb) / fw, pct(b(rule))]
    });
    // the median pure-Warnsdorff dead end, as a share of the board
    let dead = csv_rows("results/default/deadends.csv");
    let seg = segment(
        &t,
        "dead end comes after this share of the board:",
        "A late",
    );
    rules_in("default, median dead end", seg, 4, |rule| {
        let mut d: Vec<(f64, f64)> = dead
            .iter()
            .filter(|r| r["rule"] == rule && r["method"] == "warnsdorff")
            .map(|r| {
                (
                    num(r, "length") / (num(r, "rows") * num(r, "cols")),
                    num(r, "count"),
                )
            })
            .collect();
        d.sort_by(|a, b| a.0.total_cmp(&b.0));
        let total: f64 = d.iter().map(|x| x.1).sum();
        let mut acc = 0.0;
        let median = d.iter().find(|x| {
            acc += x.1;
            2.0 * acc >= total
        });
        vec![100.0 * median.unwrap().0]
    });
}

#[test]
fn results_readme_corner_and_all_starts() {
    let t = readme("results/README.md");
    let rows = csv_rows("results/rule-failure-by-size/summary.csv");
    // a rule failing at a few sizes is quoted by them; others by first failure, count and sizes
    let seg = segment(&t, "(`rule-failure-by-size/`):", "`random` (20 trials");
    rules_in("corner to 400", seg, 6, |rule| {
        let f = failing_sizes(&rows, rule);
        if f.len() <= 3 {
            f.iter().map(|&x| x.into()).collect()
        } else {
            vec![f[0].into(), f.len() as f64, sizes_of(&rows, rule) as f64]
        }
    });
    let rows = csv_rows("results/random-vs-roth-all-starts/summary.csv");
    let seg = segment(&t, "**All starts, n = 5..40**:", "- **Closed");
    rules_in("all starts to 40", seg, 4, |rule| {
        vec![
            pct(pooled(&rows, rule, Some("warnsdorff"), 5, 40)),
            pct(pooled(&rows, rule, Some("backtrack"), 5, 40)),
        ]
    });
}

#[test]
fn results_readme_gfg_closing() {
    let t = readme("results/README.md");
    let rows = csv_rows("results/gfg-closed-one-attempt/summary.csv");
    for size in [6, 8] {
        let r = rows.iter().find(|r| n(r) == size).unwrap();
        let anchor = format!("uniformly random start of {size}x{size} in");
        let anchor = if size == 6 {
            anchor
        } else {
            "of 8x8 in".into()
        };
        let (k, runs) = (num(r, "closed_tours"), num(r, "runs"));
        same(
            &format!("gfg closes on {size}x{size}, sampled"),
            &numbers_after(&t, &anchor, 3),
            &[k, runs, k / runs],
        );
    }
    let exact = |size: u32| -> f64 {
        let text = committed(&format!("results/exact/{size}x{size}-gfg.json"));
        let j: serde_json::Value = serde_json::from_str(&text).unwrap();
        j["closed_decimal"].as_f64().unwrap()
    };
    let w = numbers_after(&t, "the exact probabilities are", 4);
    same("gfg closes on 6x6, exact", &w[..1], &[exact(6)]);
    same("gfg closes on 8x8, exact", &w[3..], &[exact(8)]);
    // the program's mean attempts, 1/p: "9.3 at 6x6 and 7.0 at 8x8" (a digit after a letter, the
    // second 6 of 6x6, is no number)
    let w = numbers_after(&t, "for the one-attempt probability p above:", 4);
    same("gfg mean attempts, 6x6", &w[..1], &[1.0 / exact(6)]);
    same("gfg mean attempts, 8x8", &w[2..3], &[1.0 / exact(8)]);
}

#[test]
fn atlas_readme_corner() {
    let t = readme("results/atlas/README.md");
    let rows = csv_rows("results/atlas/corner/summary.csv");
    let share = |rule: &str| 100.0 * failing_sizes(&rows, rule).len() as f64 / 1996.0;
    // a rule failing at a few sizes is quoted by them, the others by their count and share
    let seg = segment(&t, "(`corner/`, figure `corner.png`):", "never twice");
    rules_in("corner, failures", seg, 3, |rule| {
        let f = failing_sizes(&rows, rule);
        if f.len() <= 3 {
            f.iter().map(|&x| x.into()).collect()
        } else {
            vec![f.len() as f64, share(rule)]
        }
    });
    let seg = segment(&t, "stops working for good:", "Pohl's degree-sum");
    let (last, shares) = seg.split_once("; ").unwrap();
    rules_in("corner, last success", last, 6, |rule| {
        vec![last_success(&rows, rule).into()]
    });
    rules_in("corner, share failing", shares, 2, |rule| {
        let f = failing_sizes(&rows, rule).len() as f64;
        vec![share(rule), f, sizes_of(&rows, rule) as f64]
    });
}

#[test]
fn atlas_readme_every_start_edges_rectangles() {
    let t = readme("results/atlas/README.md");
    let rows = csv_rows("results/atlas/every-start/summary.csv");
    let seg = segment(
        &t,
        "over every feasible start of n = 151..200,",
        ", and their rate",
    );
    rules_in("every start, Roth", seg, 2, |rule| {
        share_with_interval(pooled(&rows, rule, None, 151, 200))
    });
    let seg = segment(
        &t,
        "Every other rule decays with n: at n = 151..200",
        ". Random",
    );
    rules_in("every start, the others", seg, 6, |rule| {
        let mut v = vec![pct(pooled(&rows, rule, None, 151, 200))];
        if rule == "center" {
            // "3.5% at 21..50, then 1 success in 1,301 starts at n = 51 and none from n = 52 on"
            let r51 = rows
                .iter()
                .find(|r| r["rule"] == rule && n(r) == 51)
                .unwrap();
            let last = last_success(&rows, rule);
            v = vec![pct(pooled(&rows, rule, None, 21, 50)), 21.0, 50.0];
            v.extend([num(r51, "successes"), num(r51, "feasible_runs"), 51.0]);
            v.push((last + 1).into());
        }
        v
    });
    same(
        "every start, random at 101..150",
        &numbers_after(&t, "over n = 101..150 `random` succeeds from", 1),
        &[pct(pooled(&rows, "random", None, 101, 150))],
    );
    let rows = csv_rows("results/atlas/edges/summary.csv");
    let seg = segment(&t, "the degree-sum rules:", "where from every start");
    rules_in("edges", seg, 2, |rule| {
        vec![pct(pooled(&rows, rule, None, 201, 300)), 201.0, 300.0]
    });
    let rows = csv_rows("results/atlas/rectangles/summary.csv");
    let seg = segment(
        &t,
        "(`rectangles/`): over every feasible start",
        "; but no rule",
    );
    rules_in("rectangles", seg, 3, |rule| {
        share_with_interval(pooled(&rows, rule, None, 5, 60))
    });
}

const RANGES: [(u32, u32); 10] = [
    (5, 10),
    (11, 20),
    (21, 30),
    (31, 40),
    (41, 50),
    (51, 60),
    (61, 70),
    (71, 80),
    (81, 90),
    (91, 100),
];
const LEAPER_RULES: [&str; 6] = ["first", "pohl", "center", "random", "pohl+random", "gfg"];

/// The rule with the highest pooled success over n = lo..=hi, and that success in %.
fn best(rows: &[Row], lo: u32, hi: u32) -> (&'static str, f64) {
    LEAPER_RULES
        .iter()
        .map(|&rule| (rule, pct(pooled(rows, rule, None, lo, hi))))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap()
}

#[test]
fn leapers_readme() {
    let t = readme("results/leapers/README.md");
    let zebra = csv_rows("results/leapers/zebra/summary.csv");
    let giraffe = csv_rows("results/leapers/giraffe/summary.csv");
    let leapers = [("zebra", &zebra), ("giraffe", &giraffe)];
    // the best rule over any ten consecutive sizes, and over the tables' ranges
    let mut top = ("", "", 0.0, 0);
    let mut top_range = (0.0, 0);
    for (name, rows) in leapers {
        for lo in 5..=91 {
            let (rule, p) = best(rows, lo, lo + 9);
            if p > top.2 {
                top = (name, rule, p, lo);
            }
        }
        for (lo, hi) in RANGES {
            let (_, p) = best(rows, lo, hi);
            if p > top_range.0 {
                top_range = (p, lo);
            }
        }
    }
    let passes = numbers_after(&t, "no rule passes", 1)[0].value;
    assert!(top.2 < passes, "{top:?} passes {passes}%");
    let anchor = format!("the most is the {}'s `{}`,", top.0, top.1);
    let (lo, lr) = (f64::from(top.3), f64::from(top_range.1));
    same(
        "leapers, best over ten sizes",
        &numbers_after(&t, &anchor, 6),
        &[top.2, lo, lo + 9.0, top_range.0, lr, lr + 9.0],
    );
    // Pohl best in every range from some range on, and who led in the range before
    let mut computed: Vec<f64> = Vec::new();
    let mut before: Vec<f64> = Vec::new();
    for (_, rows) in [("giraffe", &giraffe), ("zebra", &zebra)] {
        let from = (0..RANGES.len())
            .rev()
            .take_while(|&i| best(rows, RANGES[i].0, RANGES[i].1).0 == "pohl")
            .last()
            .unwrap();
        let (lo, hi) = RANGES[from];
        computed.extend([f64::from(lo), f64::from(hi)]);
        let (lo, hi) = RANGES[from - 1];
        let (rule, p) = best(rows, lo, hi);
        assert_eq!(rule, "gfg", "the rule that leads before Pohl's");
        let pohl = pct(pooled(rows, "pohl", None, lo, hi));
        before.extend([f64::from(lo), f64::from(hi), p, pohl]);
    }
    same(
        "leapers, pohl best",
        &numbers_after(&t, "best of the six in every range of the tables from", 4),
        &computed,
    );
    same(
        "leapers, before pohl",
        &numbers_after(&t, "before that `gfg` leads:", 8),
        &before,
    );
    let p: Vec<f64> = RANGES[4..]
        .iter()
        .map(|&(lo, hi)| pct(pooled(&giraffe, "pohl", None, lo, hi)))
        .collect();
    let (min, max) = p
        .iter()
        .fold((100.0f64, 0.0f64), |(a, b), &x| (a.min(x), b.max(x)));
    same(
        "leapers, giraffe pohl from 41",
        &numbers_after(&t, "does not fall with n up to 100 for the giraffe (", 6),
        &[min, max, 41.0, 50.0, 91.0, 100.0],
    );
    same(
        "leapers, center",
        &numbers_after(&t, "(no success at all past n =", 2),
        &[
            last_success(&zebra, "center").into(),
            last_success(&giraffe, "center").into(),
        ],
    );
    // the table of successes at n = 100, in the order of its header
    let head = segment(&t, "| n = 100, successes of 10,000 starts |", "|---");
    let order: Vec<&str> = head
        .split('|')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    assert_eq!(order.len(), 6, "six rules in the n = 100 table");
    for (name, rows) in leapers {
        let computed: Vec<f64> = order
            .iter()
            .map(|rule| pooled(rows, rule, None, 100, 100).0)
            .collect();
        // the row starts with the leaper's move, "| zebra (2,3) |"
        let cells = numbers_after(&t, &format!("| {name} ("), 8);
        same(
            &format!("leapers, {name} at n = 100"),
            &cells[2..],
            &computed,
        );
    }
    // the knight, for comparison, from the atlas
    let knight = csv_rows("results/atlas/every-start/summary.csv");
    same(
        "leapers, the knight",
        &numbers_after(&t, "For the knight, `first` succeeds from", 4),
        &[
            pct(pooled(&knight, "first", None, 21, 50)),
            21.0,
            50.0,
            pct(pooled(&knight, "first", None, 51, 100)),
        ],
    );
}

#[test]
fn atlas_readme_roth_points() {
    let t = readme("results/atlas/README.md");
    let rows = csv_rows("results/roth-points/summary.csv");
    let below = |rule: &str| -> Vec<f64> {
        let f: Vec<f64> = failing_sizes(&rows, rule)
            .into_iter()
            .filter(|&n| n < 2000)
            .map(f64::from)
            .collect();
        let sizes = rows.iter().filter(|r| r["rule"] == rule && n(r) < 2000);
        let (k, total) = (f.len() as f64, sizes.count() as f64);
        let (lo, hi) = ktour::util::wilson::wilson95(k as u64, total as u64);
        let mut v = vec![f[0], k, total, 100.0 * k / total, 100.0 * lo, 100.0 * hi];
        v.extend(f);
        v
    };
    // "fails at 21 of the 1,995 sizes 5..1999 (1.05%): 157, 405, ..."
    let w = numbers_after(&t, "section 4) fails at", 26);
    let c = below("roth-original");
    same("Roth, half to even", &w[..2], &c[1..3]);
    same("Roth, half to even, share", &w[4..5], &c[3..4]);
    same("Roth, half to even, sizes", &w[5..], &c[6..]);
    // "`roth-halfup`, fails first at 428 and at 14 of the 1,995 sizes (0.70%, Wilson interval
    // 0.42-1.17%)"
    same(
        "Roth, half up",
        &numbers_after(&t, "`roth-halfup`, fails first at", 6),
        &below("roth-halfup"),
    );
}

#[test]
fn results_readme_squirrel_19() {
    let t = readme("results/README.md");
    let rows = csv_rows("results/squirrel-19-orderings/attempts.csv");
    let failed: Vec<&Row> = rows.iter().filter(|r| r["success"] == "false").collect();
    assert_eq!(
        failed.len(),
        1,
        "the README names one board on which all 19 fail"
    );
    let f = failed[0];
    let anchor = format!(
        "**on {} x {} all 19 dead-end** (the 19th after",
        f["rows"], f["cols"]
    );
    same(
        "squirrel 19, the failing board",
        &numbers_after(&t, &anchor, 2),
        &[num(f, "visited"), num(f, "rows") * num(f, "cols")],
    );
    let by = |a: u32| {
        rows.iter()
            .filter(|r| r["success"] == "true" && num(r, "attempts") <= f64::from(a))
            .count() as f64
    };
    let all = rows.len() as f64;
    let last = by(19) - by(18);
    same(
        "squirrel 19, attempts",
        &numbers_after(&t, "`12345678`, gives a tour on", 6),
        &[
            by(1),
            100.0 * by(1) / all,
            by(3),
            100.0 * by(3) / all,
            last,
            19.0,
        ],
    );
}

#[test]
fn results_readme_random_ties_past_325() {
    let t = readme("results/README.md");
    let rows = csv_rows("results/random-ties-past-325/summary.csv");
    let most = rows
        .iter()
        .filter(|r| n(r) > 200)
        .max_by(|a, b| num(a, "successes").total_cmp(&num(b, "successes")))
        .unwrap();
    let (k, runs) = (num(most, "successes"), num(most, "runs"));
    assert!(ktour::util::wilson::wilson95(k as u64, runs as u64).1 < 0.05);
    same(
        "random ties, the most past 200",
        &numbers_after(&t, "under 5% holds at every n past 200 (at most", 3),
        &[k, runs, n(most).into()],
    );
    let past = |lo: u32| -> (f64, f64, Vec<f64>) {
        let rs: Vec<&Row> = rows.iter().filter(|r| n(r) >= lo).collect();
        let won = rs.iter().filter(|r| num(r, "successes") > 0.0);
        let sizes = won.map(|r| f64::from(n(r))).collect();
        let k = rs.iter().map(|r| num(r, "successes")).sum();
        (k, rs.iter().map(|r| num(r, "runs")).sum(), sizes)
    };
    let (k, runs, sizes) = past(326);
    let (lo, hi) = ktour::util::wilson::wilson95(k as u64, runs as u64);
    let (k351, runs351, _) = past(351);
    let hi351 = ktour::util::wilson::wilson95(k351 as u64, runs351 as u64).1;
    let mut computed = vec![k, runs];
    computed.extend(&sizes);
    computed.extend([
        100.0 * k / runs,
        100.0 * lo,
        100.0 * hi,
        runs351,
        351.0,
        500.0,
    ]);
    computed.extend([100.0 * k351 / runs351, 100.0 * hi351]);
    same(
        "random ties past 325",
        &numbers_after(&t, "Past 325,", computed.len()),
        &computed,
    );
}

/// The seven rules of `corner-10000/`.
fn every_rule(rows: &[Row]) -> impl Iterator<Item = &'static str> + '_ {
    let all = [
        "first",
        "pohl",
        "squirrel",
        "roth",
        "roth-original",
        "roth-halfup",
        "center",
    ];
    assert!(rows.iter().all(|r| all.contains(&r["rule"].as_str())));
    all.into_iter()
}

fn last_size(rows: &[Row], rule: &str) -> u32 {
    rows.iter()
        .filter(|r| r["rule"] == rule)
        .map(n)
        .max()
        .unwrap()
}

/// The corner atlas past 2000 (`corner-10000/`, run in sittings): how far it has come, `squirrel`
/// and `pohl`, and the table of Roth's failing sizes by range with Wilson intervals.
#[test]
fn atlas_readme_corner_10000() {
    let t = readme("results/atlas/README.md");
    let rows = csv_rows("results/atlas/corner-10000/summary.csv");
    // a sitting may stop within a size: `top` is the largest n every rule has, with every n below
    let top = every_rule(&rows)
        .map(|rule| last_size(&rows, rule))
        .min()
        .unwrap();
    for rule in every_rule(&rows) {
        let below = rows.iter().filter(|r| r["rule"] == rule && n(r) <= top);
        assert_eq!(
            below.count(),
            (top - 2000) as usize,
            "{rule}: a gap below {top}"
        );
    }
    same(
        "corner-10000, how far",
        // "every rule to 6,668** (`corner-10000/`, ...; every rule has every n from 2001 to 6,668:
        // 32,676 of the 56,000 runs; ...)"
        &numbers_after(&t, "n = 2001..10000, every rule to", 6),
        &[
            top.into(),
            10000.0,
            2001.0,
            top.into(),
            rows.len() as f64,
            56000.0,
        ],
    );
    // "5 sittings (`costs.csv`): 12,493 s of wall time and 14,746 s of CPU in all, the CPU of 1 not
    // recorded": the sittings' rows of costs.csv, a sitting without user_s counted in the wall only
    let sittings: Vec<_> = csv_rows("results/atlas/costs.csv")
        .into_iter()
        .filter(|r| r["part"] == "corner-10000")
        .collect();
    let wall: f64 = sittings.iter().map(|r| num(r, "wall_s")).sum();
    let recorded: Vec<_> = sittings
        .iter()
        .filter(|r| !r["user_s"].is_empty())
        .collect();
    let cpu: f64 = recorded
        .iter()
        .map(|r| num(r, "user_s") + num(r, "sys_s"))
        .sum();
    let mut want = vec![sittings.len() as f64, wall, cpu];
    if recorded.len() < sittings.len() {
        want.push((sittings.len() - recorded.len()) as f64);
    }
    same(
        "corner-10000, sittings",
        &numbers_after(&t, "of the 56,000 runs;", want.len()),
        &want,
    );
    let w = numbers_after(&t, "`squirrel` never fails past 74: at none of the", 1);
    assert!(failing_sizes(&rows, "squirrel").is_empty());
    same(
        "corner-10000, squirrel sizes",
        &w,
        &[sizes_of(&rows, "squirrel") as f64],
    );
    let pohl: Vec<f64> = rows
        .iter()
        .filter(|r| r["rule"] == "pohl" && num(r, "successes") > 0.0)
        .map(|r| n(r).into())
        .collect();
    let w = numbers_after(&t, "`pohl` succeeds at", pohl.len() + 1);
    same("corner-10000, pohl", &w[..1], &[pohl.len() as f64]);
    same("corner-10000, pohl sizes", &w[1..], &pohl);
    for rule in ["first", "center"] {
        assert_eq!(failing_sizes(&rows, rule).len(), sizes_of(&rows, rule));
    }
    let mut want = Vec::new();
    for lo in (2001..=top).step_by(1000) {
        let hi = (lo + 999).min(top);
        want.extend([f64::from(lo), f64::from(hi)]);
        for rule in ["roth", "roth-original", "roth-halfup"] {
            let total = rows
                .iter()
                .filter(|r| r["rule"] == rule && (lo..=hi).contains(&n(r)))
                .count() as u64;
            let k = failing_sizes(&rows, rule)
                .into_iter()
                .filter(|x| (lo..=hi).contains(x))
                .count() as u64;
            let (a, b) = ktour::util::wilson::wilson95(k, total);
            let share = 100.0 * k as f64 / total as f64;
            want.extend([k as f64, total as f64, share, 100.0 * a, 100.0 * b]);
        }
    }
    let table = segment(
        &t,
        "| n | `roth` | `roth-original` | `roth-halfup` | |---|---|---|---|",
        "Roth's \"under 1%\"",
    );
    same("corner-10000, Roth by range", &numbers(table), &want);
    assert_eq!(numbers(table).len(), want.len());
}

/// `results/exact/README.md`: "Every start of 10x10 under `RULE`": the exact fraction from a uniform
/// start, its decimal and the closed tours' share, and the best and worst starts (the first in
/// row-major order where images tie), read from `10x10-RULE.json`.
#[test]
fn exact_readme_10x10_every_start() {
    let t = readme("results/exact/README.md");
    for rule in ["random", "gfg"] {
        let text = committed(&format!("results/exact/10x10-{rule}.json"));
        let j: serde_json::Value = serde_json::from_str(&text).unwrap();
        let anchor = format!("Every start of 10x10 under `{rule}` (`10x10-{rule}.json`");
        let s = segment(&t, &anchor, ").");
        let exact = format!(
            "from a uniform start `{}` = ",
            j["success"].as_str().unwrap()
        );
        let w = numbers_after(s, &exact, 2);
        same(
            &format!("10x10 {rule}, uniform start"),
            &w,
            &[
                j["success_decimal"].as_f64().unwrap(),
                j["closed_decimal"].as_f64().unwrap(),
            ],
        );
        let starts = j["starts"].as_array().unwrap();
        assert_eq!(starts.len(), 100, "{rule}: every start");
        let value = |x: &serde_json::Value| x["success_decimal"].as_f64().unwrap();
        let at = |x: &serde_json::Value| -> [f64; 2] {
            let s = x["start"].as_array().unwrap();
            [s[0].as_f64().unwrap(), s[1].as_f64().unwrap()]
        };
        // the first start of the best (worst) value in the file's row-major order
        let best = starts
            .iter()
            .fold(&starts[0], |b, x| if value(x) > value(b) { x } else { b });
        let worst = starts
            .iter()
            .fold(&starts[0], |b, x| if value(x) < value(b) { x } else { b });
        let w = numbers_after(s, "the best start is", 6);
        let (b, wo) = (at(best), at(worst));
        same(
            &format!("10x10 {rule}, best and worst starts"),
            &w,
            &[b[0], b[1], value(best), wo[0], wo[1], value(worst)],
        );
    }
}

/// The Luschny section of the counting page (and the bench page's row) quotes the bench's run kept
/// in `results/counts/luschny.txt`: the three totals, their ratios, the plan's groups' times and
/// the frontier alone's time on 6x6 and on 5x8 with its turn.
#[test]
fn counting_luschny_figures() {
    let run = committed("results/counts/luschny.txt");
    let line = |start: &str| -> Vec<f64> {
        let l = run.lines().find(|l| l.starts_with(start)).unwrap();
        numbers(l).iter().map(|n| n.value).collect()
    };
    // "plan: 40 boards, 80 counts, 0.396 s in all (best of 5 rounds, 2 threads)"
    let plan = line("plan: ")[2];
    let alone = line("frontier alone: ")[0];
    let search = line("search alone: ")[0];
    let group = |w: &str| *line(&format!("  {w} x ")).last().unwrap();
    let board = |name: &str| line(&format!("{name} "))[3];
    let page = readme("docs/counting.md");
    let seg = segment(
        &page,
        "The plan and the frontier alone are timed",
        "## 8 x n for n up to 12",
    );
    // the figures after the machine: the plan, the frontier alone, its ratio, the search, its ratio
    same(
        "counting.md, Luschny's totals",
        &numbers_after(seg, "family 6, model 167;", 5),
        &[plan, alone, alone / plan, search, search / plan],
    );
    same(
        "benches/README.md, Luschny's totals",
        &numbers_after(
            &readme("benches/README.md"),
            "best of 5 alternated rounds (the search one round) |",
            5,
        ),
        &[plan, alone, search, alone / plan, search / plan],
    );
    same(
        "counting.md, the plan's 5 x 8 and 6 x 6",
        &numbers_after(seg, "The plan's time is 5 x 8 (", 1),
        &[group("5")],
    );
    same(
        "counting.md, 6 x 6 by the search",
        &numbers_after(seg, "and 6 x 6 by the search (", 1),
        &[group("6")],
    );
    same(
        "counting.md, the narrow groups",
        &numbers_after(seg, "4 x 4..10 take ", 1),
        &[1000.0 * (group("3") + group("4"))],
    );
    same(
        "counting.md, the frontier alone's large boards",
        &numbers_after(seg, "The frontier alone spends ", 1),
        &[board("6x6")],
    );
    same(
        "counting.md, the frontier alone's 5 x 8 and its turn",
        &numbers_after(seg, "s on 6 x 6 and ", 1),
        &[board("5x8") + board("8x5")],
    );
}

/// The counting page's open 8x8 figures are those of the table kept in
/// `results/counts/8x8-open-states.txt`: the open/closed ratios at the ends of rows 2, 3 and 4 and
/// at the largest ratio, and row 4's states.
#[test]
fn counting_open_8x8_states() {
    let table = committed("results/counts/8x8-open-states.txt");
    // square, row end, open, closed: the squares both closures reached
    let rows: Vec<(u32, String, f64, f64)> = table
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            Some((
                f[0].parse().ok()?,
                f[1].into(),
                f[2].parse().ok()?,
                f[3].parse().ok()?,
            ))
        })
        .collect();
    let at_row = |r: &str| rows.iter().find(|x| x.1 == r).unwrap();
    let ratio = |x: &(u32, String, f64, f64)| x.2 / x.3;
    let peak = rows
        .iter()
        .max_by(|a, b| ratio(a).total_cmp(&ratio(b)))
        .unwrap();
    let page = readme("docs/counting.md");
    let seg = segment(&page, "- open 8x8 (A165134:", "## Symmetric");
    same(
        "counting.md, open 8x8 against closed",
        &numbers_after(seg, "open holds ", 10),
        &[
            ratio(at_row("row2")),
            2.0,
            ratio(at_row("row3")),
            3.0,
            ratio(peak),
            f64::from(peak.0),
            ratio(at_row("row4")),
            4.0,
            at_row("row4").2,
            at_row("row4").3,
        ],
    );
}

/// Each progress line of a frontier count's log (`frontier: row 7/12: 135805257 states, 2890.8 s`,
/// `frontier: square 53/96: 696790791 states ...`): its kind, its row or square, its states and
/// its time.
fn frontier_progress(log: &str) -> Vec<(&str, f64, f64, f64)> {
    log.lines()
        .filter_map(|l| {
            let what = l.strip_prefix("frontier: ")?.split(' ').next()?;
            let n: Vec<f64> = numbers(l).iter().map(|n| n.value).collect();
            matches!(what, "row" | "square").then(|| (what, n[0], n[2], *n.last().unwrap()))
        })
        .collect()
}

/// The counting page's sittings of closed 8 x n to 12 quote their log,
/// `results/counts/8xn-closed.txt`: the states after rows 5 to 8, the peaks of rows 7 and 8 and
/// their squares, each row's time in each sitting (the second sitting's rows of the second pass
/// after its first pass's end), the most memory held, the first pass's residues of 8 x 5 to 8 x 8
/// and the time counted so far.
#[test]
fn counting_8xn_closed_sitting() {
    let log = committed("results/counts/8xn-closed.txt");
    let (first, rest) = log.split_at(log.find("# SITTING 2").unwrap());
    let (second, third) = rest.split_at(rest.find("# SITTING 3").unwrap());
    let third = &third[..third.find("# SITTING 4").unwrap_or(third.len())];
    let progress = frontier_progress(first);
    let row = |r: f64| *progress.iter().find(|p| p.0 == "row" && p.1 == r).unwrap();
    let peak = |first: f64, last: f64| {
        *progress
            .iter()
            .filter(|p| p.0 == "square" && (first..=last).contains(&p.1))
            .max_by(|a, b| a.2.total_cmp(&b.2))
            .unwrap()
    };
    let (p7, p8) = (peak(49.0, 56.0), peak(57.0, 64.0));
    let resident = first
        .lines()
        .find(|l| l.contains("Maximum resident set size (kbytes)"))
        .map(|l| numbers(l)[0].value / 1_048_576.0)
        .unwrap();
    // the second sitting: rows 9 to 12 of pass 0, then rows 1 to 8 of pass 1 (after the pass line)
    let (rest, next) = second.split_at(second.find("pass 1 counts modulo").unwrap());
    let rows2 = frontier_progress(rest);
    let rows3 = frontier_progress(next);
    let at = |rows: &[(&str, f64, f64, f64)], r: f64| {
        rows.iter().find(|p| p.0 == "row" && p.1 == r).unwrap().3
    };
    let pass_end = at(&rows2, 12.0);
    let page = readme("docs/counting.md");
    let seg = segment(
        &page,
        "The closed run to n = 12 is done",
        "What is known besides",
    );
    same(
        "counting.md, the sittings' rows and times",
        &numbers_after(seg, "ran rows 1 to 8 of the first pass (", 1),
        &[row(8.0).3],
    );
    same(
        "counting.md, the second sitting",
        &numbers_after(seg, "the second, rows 9 to 12 (", 4),
        &[pass_end, 1.0, 8.0, at(&rows3, 8.0)],
    );
    same(
        "counting.md, rows 5 and 6",
        &numbers_after(seg, "those of 8x8 for r <= 6 (", 4),
        &[row(5.0).2, 5.0, row(6.0).2, 6.0],
    );
    same(
        "counting.md, the peaks of rows 7 and 8",
        &numbers_after(seg, "middle rows, peak at ", 4),
        &[p7.2, p7.1, p8.2, p8.1],
    );
    same(
        "counting.md, the ends of rows 7 and 8, and the memory",
        &numbers_after(seg, "they end at ", 3),
        &[row(7.0).2, row(8.0).2, resident],
    );
    same(
        "counting.md, the first sitting's rows' times",
        &numbers_after(seg, "in the first sitting rows 1 to 6 took ", 5),
        &[
            row(6.0).3,
            7.0,
            row(7.0).3 - row(6.0).3,
            8.0,
            row(8.0).3 - row(7.0).3,
        ],
    );
    same(
        "counting.md, the second sitting's rows' times",
        &numbers_after(seg, "in the second, rows 9 and 10 ", 13),
        &[
            at(&rows2, 9.0),
            at(&rows2, 10.0) - at(&rows2, 9.0),
            11.0,
            12.0,
            at(&rows2, 11.0) - at(&rows2, 10.0),
            at(&rows2, 12.0) - at(&rows2, 11.0),
            1.0,
            6.0,
            at(&rows3, 6.0) - pass_end,
            7.0,
            at(&rows3, 7.0) - at(&rows3, 6.0),
            8.0,
            at(&rows3, 8.0) - at(&rows3, 7.0),
        ],
    );
    // the third sitting: rows 9 to 12 of pass 1, then rows 1 to 6 of pass 2 (after its line)
    let (rest3, next3) = third.split_at(third.find("pass 2 counts modulo").unwrap());
    let (rows4, rows5) = (frontier_progress(rest3), frontier_progress(next3));
    let pass1_end = at(&rows4, 12.0);
    same(
        "counting.md, the third sitting",
        &numbers_after(seg, "rows 9 to 12 of the second pass (to ", 1),
        &[pass1_end],
    );
    same(
        "counting.md, the third sitting's stop",
        &numbers_after(seg, "rows 1 to 6 of the third pass (to ", 1),
        &[at(&rows5, 6.0)],
    );
    same(
        "counting.md, the third sitting's rows' times",
        &numbers_after(seg, "second pass's rows 9 to 12 took ", 7),
        &[
            at(&rows4, 9.0),
            at(&rows4, 10.0) - at(&rows4, 9.0),
            at(&rows4, 11.0) - at(&rows4, 10.0),
            pass1_end - at(&rows4, 11.0),
            1.0,
            6.0,
            at(&rows5, 6.0) - pass1_end,
        ],
    );
    // the fourth sitting: rows 7 to 12 of the third pass, and the run's time counted in all
    let fourth = frontier_progress(&log[log.find("# SITTING 4").unwrap()..]);
    let last = fourth.iter().rfind(|p| p.0 == "row").unwrap();
    assert_eq!((last.1, last.2), (12.0, 0.0));
    let sittings = [row(8.0).3, at(&rows3, 8.0), at(&rows5, 6.0), last.3];
    let total: f64 = sittings.iter().sum();
    same(
        "counting.md, the time counted in all",
        &numbers_after(seg, "; counted: ", 5),
        &[
            total / 3600.0,
            sittings[0],
            sittings[1],
            sittings[2],
            sittings[3],
        ],
    );
    same(
        "counting.md, the fourth sitting",
        &numbers_after(&page, "The fourth sitting counted rows 7 to 12", 3),
        &[last.3, total, total / 3600.0],
    );
    // the first pass's residues of 8 x 5 to 8 x 8, as the log's --status line gives them
    let residues: Vec<f64> = second
        .lines()
        .skip_while(|l| !l.contains("pass 0 done, modulo 2^60"))
        .take(2)
        .flat_map(|l| numbers(l.split(':').next_back().unwrap()))
        .map(|n| n.value)
        .collect();
    same(
        "counting.md, 8 x 5 to 8 x 8",
        &numbers_after(seg, "gave 8 x 5 to 8 x 8 equal to A193055 (", 4),
        &residues[4..8],
    );
}

/// Closed 8 x 9 to 8 x 12 against their two published readings. OEIS A193055's data (Zhao Hui
/// Du; the OEIS's data repository, GitHub oeis/oeisdata, seq/A193/A193055.seq) and the 2011
/// table of the same program's run on the emath forum (thread 3231, reposted in 2019) agree to
/// 8 x 10 and differ from 8 x 11 on, by exactly 2^65 and 2^64. The run's third sitting's
/// `--status` (quoted in the log) settles 8 x 9 and 8 x 10, equal to both; its first prime's
/// residues of 8 x 11 and 8 x 12 are the OEIS reading's modulo that prime and not the forum's,
/// and both readings agree with the exact pass modulo 2^60. The counting page quotes every value
/// and residue as the log and these readings give them.
#[test]
fn counting_8xn_published_readings() {
    use num_bigint::BigUint;
    let log = committed("results/counts/8xn-closed.txt");
    let third = &log[log.find("# SITTING 3").unwrap()..log.find("# SITTING 4").unwrap()];
    let quoted = |prefix: &str| {
        third
            .lines()
            .map(|l| l.trim_start_matches(['#', ' ']))
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix:?} in the third sitting"))
            .to_string()
    };
    let residues = |line: &str| -> Vec<BigUint> {
        line.rsplit(": ")
            .next()
            .unwrap()
            .split_whitespace()
            .map(|r| r.parse().unwrap())
            .collect()
    };
    let exact = residues(&quoted("pass 0 done, modulo 2^60"));
    let first = quoted("pass 1 done, modulo the prime ");
    let prime: BigUint = first["pass 1 done, modulo the prime ".len()..]
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let first = residues(&first);
    let oeis = [
        "7112881119092574",
        "4235482818156697040",
        "2122880233853945590892",
        "1105420672289849239070962",
    ];
    let forum = [
        "7112881119092574",
        "4235482818156697040",
        "2085986745706526487660",
        "1105402225545775529519346",
    ];
    let big = |s: &str| s.parse::<BigUint>().unwrap();
    let two60 = BigUint::from(1u8) << 60;
    for (i, n) in (9..=12).enumerate() {
        let (o, f) = (big(oeis[i]), big(forum[i]));
        assert_eq!(&o % &two60, exact[n - 1], "8 x {n}, OEIS, modulo 2^60");
        assert_eq!(&f % &two60, exact[n - 1], "8 x {n}, forum, modulo 2^60");
        assert_eq!(&o % &prime, first[n - 1], "8 x {n}, OEIS, modulo the prime");
        if n >= 11 {
            assert_ne!(
                &f % &prime,
                first[n - 1],
                "8 x {n}, forum, modulo the prime"
            );
            let gap = &o - &f;
            assert!(gap == BigUint::from(1u8) << 64 || gap == BigUint::from(1u8) << 65);
        } else {
            assert_eq!(o, f);
            assert!(quoted(&format!("settled: 8 x {n} = "))
                .starts_with(&format!("settled: 8 x {n} = {} (", oeis[i])));
        }
    }
    // the page quotes them, in groups of three digits
    let grouped = |digits: &str| {
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let page = readme("docs/counting.md");
    let mut quotes: Vec<String> = oeis.iter().chain(&forum[2..]).map(|v| grouped(v)).collect();
    for n in [11, 12] {
        quotes.push(grouped(&first[n - 1].to_string()));
        quotes.push(grouped(&(big(forum[n - 9]) % &prime).to_string()));
    }
    for q in quotes {
        assert!(page.contains(&q), "counting.md does not quote {q}");
    }
}

/// A count's digits grouped in threes by commas, as the pages write counts too long for an f64.
fn grouped(count: &str) -> String {
    let groups: Vec<&str> = count
        .as_bytes()
        .rchunks(3)
        .rev()
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    groups.join(",")
}

/// The counting page's account of 8x10 alone quotes its log, `results/counts/8x10-closed.txt`:
/// the exact pass's time, its rows 1 to 8 and its two closing rows, that its ways wrapped (the
/// line that starts the prime's pass), the row and time the prime's pass reached in the first
/// sitting, the second sitting's time and count, their sum in seconds and hours, its excess over
/// two hours, and the sittings' wall times.
#[test]
fn counting_8x10_alone() {
    let log = committed("results/counts/8x10-closed.txt");
    let (first, second) = log.split_at(log.find("# SITTING 2").unwrap());
    let (exact, prime) = first.split_at(first.find("pass 1 counts modulo").unwrap());
    let (rows0, rows1) = (frontier_progress(exact), frontier_progress(prime));
    let at = |rows: &[(&str, f64, f64, f64)], r: f64| {
        rows.iter().find(|p| p.0 == "row" && p.1 == r).unwrap().3
    };
    let last = |rows: &[(&str, f64, f64, f64)]| {
        let (_, row, _, time) = *rows.iter().rfind(|p| p.0 == "row").unwrap();
        (row, time)
    };
    let (reached, resumed) = (last(&rows1), last(&frontier_progress(second)));
    let wall = |sitting: &str| -> f64 {
        let l = sitting
            .lines()
            .find(|l| l.contains("Elapsed (wall clock)"))
            .unwrap();
        let clock = l.rsplit(' ').next().unwrap();
        clock
            .split(':')
            .fold(0.0, |t, x| t * 60.0 + x.parse::<f64>().unwrap())
    };
    let count = second
        .lines()
        .find(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()))
        .unwrap();
    let total = reached.1 + resumed.1;
    let page = readme("docs/counting.md");
    same(
        "counting.md, 8x10 alone's exact pass",
        &numbers_after(&page, "8x10-closed.txt`): its exact pass took ", 7),
        &[
            at(&rows0, 10.0),
            1.0,
            8.0,
            at(&rows0, 8.0),
            at(&rows0, 10.0) - at(&rows0, 8.0),
            2.0,
            60.0,
        ],
    );
    same(
        "counting.md, 8x10 alone's prime pass",
        &numbers_after(&page, "The second pass reached row ", 2),
        &[reached.0, reached.1],
    );
    same(
        "counting.md, 8x10 alone's second sitting",
        &numbers_after(&page, "counted rows 7 to 10 in ", 1),
        &[resumed.1],
    );
    // the count itself, too long for an f64: compared as its digits, grouped in threes
    assert!(page.contains(&format!("giving {}, A193055's 8 x 10", grouped(count))));
    same(
        "counting.md, 8x10 alone's time",
        &numbers_after(&page, "The count's time is ", 5),
        &[
            total,
            total / 3600.0,
            2.0,
            100.0 * (total / 7200.0 - 1.0),
            wall(first) - reached.1,
        ],
    );
    same(
        "counting.md, 8x10 alone's sittings",
        &numbers_after(&page, "before the stop, is ", 1),
        &[wall(first) + wall(second)],
    );
    same(
        "counting.md, 8x10 alone's rows 7 to 10",
        &numbers_after(&page, "The second sitting's rows 7 to 10 took ", 2),
        &[resumed.1, at(&rows0, 10.0) - at(&rows0, 6.0)],
    );
}

/// The counting page's account of 8x10 alone in one pass, its ways widened in flight, quotes its
/// log, `results/counts/8x10-closed-widened.txt`: the bits and the square before which the ways
/// widened, the count (the earlier two-pass run's, A193055's 8 x 10), its time (the last row's) in
/// seconds and hours against the target's two, the most memory held, and its rows 1 to 8.
#[test]
fn counting_8x10_widened() {
    let log = committed("results/counts/8x10-closed-widened.txt");
    let rows = frontier_progress(&log);
    let at = |r: f64| rows.iter().find(|p| p.0 == "row" && p.1 == r).unwrap().3;
    let widened = numbers(segment(&log, "frontier: the largest ways neared 2^", ";"));
    let kib = numbers(segment(&log, "Maximum resident set size (kbytes): ", "\n"))[0].value;
    let count = log
        .lines()
        .find(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()))
        .unwrap();
    assert!(committed("results/counts/8x10-closed.txt").contains(&format!("\n{count}\n")));
    let page = readme("docs/counting.md");
    assert!(page.contains(&format!("it gave {} in one pass", grouped(count))));
    same(
        "counting.md, 8x10 widened: where",
        &numbers_after(&page, "its largest ways neared 2^", 3),
        &[widened[0].value, widened[1].value, 80.0],
    );
    let total = at(10.0);
    same(
        "counting.md, 8x10 widened: time and memory",
        &numbers_after(&page, "in one pass, in ", 4),
        &[total, total / 3600.0, 2.0, kib / (1024.0 * 1024.0)],
    );
    same(
        "counting.md, 8x10 widened: rows 1 to 8",
        &numbers_after(&page, "its rows 1 to 8 took ", 1),
        &[at(8.0)],
    );
}

/// The counting page's figures of 8x8 closed counted from both ends quote its log,
/// `results/counts/8x8-closed-halves.txt` (the count equal to the whole frontier count's log),
/// and set it beside the whole count's time, memory and peak (`8x8-closed.txt`).
#[test]
fn counting_8x8_halves() {
    let log = committed("results/counts/8x8-closed-halves.txt");
    let whole = committed("results/counts/8x8-closed.txt");
    let line = log
        .lines()
        .find(|l| l.starts_with("closed tours (undirected cycles) on 8x8 (halves)"))
        .unwrap();
    let count = log
        .lines()
        .find(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()))
        .unwrap();
    assert!(
        whole.contains(&format!("\n{count}\n")),
        "the two methods' counts differ"
    );
    let seconds = numbers(segment(line, "states, in ", " s"))[0].value;
    let kib = numbers(segment(&log, "Maximum resident set size (kbytes): ", "\n"))[0].value;
    let peak = numbers(segment(line, "peak ", " states"))[0].value;
    let page = readme("docs/counting.md");
    assert!(
        page.contains(line),
        "counting.md quotes the run's line as it printed it"
    );
    same(
        "counting.md, 8x8 halves: time and memory",
        &numbers_after(&page, "8x8 closed in ", 3),
        &[seconds, seconds / 60.0, kib / (1024.0 * 1024.0)],
    );
    // "# /usr/bin/time: 1534.39 s elapsed, 11495356 KB maximum resident, ..."
    let time = numbers(segment(&whole, "# /usr/bin/time: ", "\n"));
    let (whole_seconds, whole_kib) = (time[0].value, time[1].value);
    let whole_peak = numbers(segment(&whole, "The states peak at ", " after"))[0].value;
    same(
        "counting.md, 8x8 halves: the whole count beside it",
        &numbers_after(&page, "where the whole frontier count took ", 2),
        &[whole_seconds, whole_kib / (1024.0 * 1024.0)],
    );
    same(
        "counting.md, 8x8 halves: the peaks",
        &numbers_after(&page, "Its states peak in the band at ", 2),
        &[peak / 1e6, whole_peak / 1e6],
    );
}

/// The counting page's row for open 7 x 1..20 quotes its log, `results/counts/7xn-open.txt`: the
/// wall time of the four sittings (each sitting's last progress line, summed as the log's header
/// sums them), the most memory held, the base's row and each prime's pass (from the end of the
/// exact pass's last row to the end of the next pass's), and the last term and its bits from the
/// b-file.
#[test]
fn counting_7xn_open_row() {
    let log = committed("results/counts/7xn-open.txt");
    let seconds_of = |line: &str| numbers(line).last().unwrap().value;
    let sittings: Vec<&str> = log.split("# Sitting ").skip(5).collect();
    assert_eq!(sittings.len(), 4, "four sittings' logs");
    let last_row = |part: &str, row: &str| {
        part.lines()
            .filter(|l| l.contains(&format!("frontier: row {row}/20: ")))
            .map(seconds_of)
            .collect::<Vec<f64>>()
    };
    let ends = last_row(sittings[3], "20");
    assert_eq!(ends.len(), 3, "the exact pass and two primes'");
    let primes = [ends[1] - ends[0], ends[2] - ends[1]];
    let exact = last_row(sittings[0], "10")[0]
        + last_row(sittings[1], "16")[0]
        + last_row(sittings[2], "17")[0]
        + ends[0];
    let total = exact + primes[0] + primes[1];
    same(
        "7xn-open.txt, the header's sums",
        &numbers_after(&readme("results/counts/7xn-open.txt"), "# In all ", 1),
        &[total],
    );
    let kib = numbers(segment(&log, "Maximum resident set size (kbytes): ", "\n"))[0].value;
    // "frontier: resumed from the checkpoint after square 126 of 140", the line after pass 1's
    let after_exact = &sittings[3][sittings[3].find("pass 1 counts").unwrap()..];
    let resumed = after_exact
        .lines()
        .find(|l| l.contains("resumed from the checkpoint after square "))
        .unwrap();
    let base = numbers(resumed)[0].value;
    let page = readme("docs/counting.md");
    same(
        "counting.md, open 7 x 1..20",
        &numbers_after(
            &page,
            "7 x n open, n = 1..20, one run in four sittings (",
            5,
        ),
        &[
            total / 3600.0,
            kib / (1024.0 * 1024.0),
            base / 7.0,
            primes[0],
            primes[1],
        ],
    );
    let last = committed("results/counts/7xn-open.b")
        .lines()
        .last()
        .unwrap()
        .split_once(' ')
        .unwrap()
        .1
        .to_string();
    let written = segment(&page, "(7 x 20 = ", ", about 2^");
    assert_eq!(written.replace(',', ""), last);
    // log2 of the term from its first 15 digits and its length
    let lead: f64 = last[..15].parse().unwrap();
    let bits = lead.log2() + (last.len() - 15) as f64 * 10f64.log2();
    same(
        "counting.md, 7 x 20's bits",
        &numbers_after(&page, "216,087,032, about 2^", 1),
        &[bits],
    );
}

/// The counting page's row for closed 6 x 1..40 quotes its log, `results/counts/6xn-closed.txt`:
/// the CPU time (user + system, rounded to the second), the most memory held (MiB, rounded) and
/// the passes (one a finished last row in the progress lines).
#[test]
fn counting_6xn_closed_row() {
    let log = committed("results/counts/6xn-closed.txt");
    let cpu = log
        .lines()
        .find(|l| l.starts_with("# CPU "))
        .map(|l| numbers(l)[0].value)
        .unwrap();
    let resident = log
        .lines()
        .find(|l| l.starts_with("# CPU "))
        .map(|l| numbers(l.split("wall").nth(1).unwrap())[2].value)
        .unwrap();
    let passes = log
        .lines()
        .filter(|l| l.starts_with("frontier: row 40/40"))
        .count();
    let page = readme("docs/counting.md");
    same(
        "counting.md, the 6 x n row",
        &numbers_after(&page, "| 6 x n closed, n = 1..40 (", 3),
        &[cpu.round(), resident.round(), passes as f64],
    );
}

/// The counting page's table of spilled counts is `results/counts/spill.txt`'s: for each of its
/// runs, the table's row of that board and bound gives the runs spilled, the CPU time (user +
/// sys), the most memory held and the board's peak of states in millions (and the 8x8 count's
/// wall time); every run of the file has its row.
#[test]
fn counting_spill_table() {
    let log = committed("results/counts/spill.txt");
    // "6x6 open directed 6637920 none 0 3809751 2.21+0.12 s 7.1 s 100.5 MiB"
    struct Run {
        board: String,
        bound: String,
        runs: f64,
        peak: f64,
        cpu: f64,
        wall: f64,
        resident: f64,
    }
    let runs: Vec<Run> = log
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            let b = (2..t.len())
                .find(|&i| t[i] == "none" || t[i].ends_with(['K', 'M', 'G']))
                .unwrap();
            let (user, sys) = t[b + 3].split_once('+').unwrap();
            let n = |s: &str| s.parse::<f64>().unwrap();
            Run {
                board: format!("{} {}", t[0], t[1]),
                bound: t[b].into(),
                runs: n(t[b + 1]),
                peak: n(t[b + 2]),
                // a sum of two-decimal figures, a half rounded up as the page does (2.40 + 1.15
                // is 3.55 exactly, 3.5499.. in binary)
                cpu: n(user) + n(sys) + 1e-9,
                wall: n(t[b + 5]),
                resident: n(t[b + 7]),
            }
        })
        .collect();
    assert!(runs.len() >= 8);
    let page = committed("docs/counting.md");
    let table = &page[page.find("| count | bound |").unwrap()..];
    let mut board = String::new();
    let mut first = String::new();
    let mut rows = Vec::new();
    for line in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if !cells[1].is_empty() {
            let words: Vec<&str> = cells[1].split_whitespace().collect();
            board = format!("{} {}", words[0], words[1]);
            first = cells[1].to_string();
        }
        let bound = cells[2].split_whitespace().next().unwrap().to_string();
        rows.push((board.clone(), bound, first.clone(), line.to_string()));
    }
    for run in &runs {
        let (_, _, first, line) = rows
            .iter()
            .find(|r| r.0 == run.board && r.1 == run.bound)
            .unwrap_or_else(|| {
                panic!(
                    "counting.md has no row of {} under {}",
                    run.board, run.bound
                )
            });
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let what = format!("counting.md, {} under {}", run.board, run.bound);
        same(&what, &numbers(cells[3]), &[run.runs]);
        same(&what, &numbers(cells[4]), &[run.cpu]);
        same(&what, &numbers(cells[5]), &[run.resident]);
        // "6x6 open (3.8 M states at the peak)", "8x8 closed (568 M states; ..., 1,803 s wall)":
        // the board's first number, then the peak (a number after a letter is no number here)
        let told = numbers(first);
        same(&what, &told[1..2], &[run.peak / 1e6]);
        if first.contains(" s wall") {
            same(&what, &told[2..3], &[run.wall]);
        }
    }
}
