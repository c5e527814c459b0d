//! The rows of `summary.csv`, `deadends.csv` and the journal formatted straight into bytes: integers
//! by `itoa`, floats by `zmij` (the shortest digits that read back, as `ryu` gives them, about twice
//! as fast; `ryu` itself where their texts differ), and text quoted where it holds a comma, a quote
//! or a line break, exactly as the `csv` crate's serde writer (`ryu` for floats) formats them (its
//! defaults: `,` between fields, `"` doubled inside quotes, `\n` after a row), without its
//! field-by-field dispatch. A sweep of every ordering writes 40,320 rows, one of every ordering on
//! every board of Squirrel & Cull's table tens of millions, all at its end.
//!
//! The serde writer is the slow twin: a test holds the two byte for byte on rows of random values.

use crate::experiment::record::{ChunkRow, DeadEndRow, SummaryRow};

/// The bits of 1.0.
const ONE: u64 = 0x3FF0_0000_0000_0000;

/// The texts of floats below 1e16 written before on a thread, by their bits, in a table of
/// [`TEXT_SLOTS`] (a value's slot taken by the last one hashed there). A summary's floats take few
/// values: rates `k / n` of a group's runs and their Wilson bounds, means of small counts, the
/// same in row after row. A value found copies its text; one not found is written by `zmij`.
struct FloatTexts {
    slots: Box<[(u64, u8, [u8; 24])]>,
}

/// Slots of [`FloatTexts`]: a power of two.
const TEXT_SLOTS: usize = 1 << 9;

impl FloatTexts {
    fn new() -> Self {
        // bits 0 (the value 0.0) is never looked up here, so that an empty slot misses
        FloatTexts {
            slots: vec![(0, 0, [0; 24]); TEXT_SLOTS].into_boxed_slice(),
        }
    }

    /// Append the text of `v` (finite, below 1e16 in magnitude, not 0.0) to `out`.
    fn write(&mut self, v: f64, out: &mut Vec<u8>) {
        let bits = v.to_bits();
        let slot = (bits.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TEXT_SLOTS.ilog2())) as usize;
        let (key, len, text) = &mut self.slots[slot];
        if *key != bits {
            let mut buffer = zmij::Buffer::new();
            let written = buffer.format_finite(v).as_bytes();
            // a sign, 17 digits, a point and an exponent of three digits fill the slot
            let Some(slot_text) = text.get_mut(..written.len()) else {
                return out.extend_from_slice(written);
            };
            slot_text.copy_from_slice(written);
            (*key, *len) = (bits, written.len() as u8);
        }
        out.extend_from_slice(&text[..usize::from(*len)]);
    }
}

thread_local! {
    static TEXTS: std::cell::RefCell<FloatTexts> = std::cell::RefCell::new(FloatTexts::new());
}

/// One row being appended to a buffer, a field at a time.
struct Line<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
}

impl Line<'_> {
    fn sep(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.out.push(b',');
        }
    }

    fn int(&mut self, v: impl itoa::Integer) {
        self.sep();
        self.out
            .extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
    }

    fn float(&mut self, v: f64) {
        self.sep();
        // rates of 0 and 1 and a mean of one attempt are most of a summary's floats: written as
        // `ryu` writes them, without digit generation
        let text: &[u8] = match v.to_bits() {
            0 => b"0.0",
            ONE => b"1.0",
            // `zmij` writes the digits of every finite value as `ryu` does, and its exponent as
            // `ryu` does where the exponent is negative; from 1e16 up it writes `e+16` for `e16`
            _ if v.is_finite() && v.abs() < 1e16 => {
                return TEXTS.with_borrow_mut(|texts| texts.write(v, self.out));
            }
            _ => {
                return self
                    .out
                    .extend_from_slice(ryu::Buffer::new().format(v).as_bytes())
            }
        };
        self.out.extend_from_slice(text);
    }

    /// `None` is an empty field.
    fn opt_int(&mut self, v: Option<u64>) {
        match v {
            Some(v) => self.int(v),
            None => self.sep(),
        }
    }

    fn opt_float(&mut self, v: Option<f64>) {
        match v {
            Some(v) => self.float(v),
            None => self.sep(),
        }
    }

    fn flag(&mut self, v: bool) {
        self.sep();
        self.out
            .extend_from_slice(if v { b"true" } else { b"false" });
    }

    /// The columns that name a row's group, first in both `summary.csv` and `deadends.csv`.
    fn group(&mut self, rows: u32, cols: u32, rule: &str, method: &str, closed: bool) {
        self.int(rows);
        self.int(cols);
        self.text(rule);
        self.text(method);
        self.flag(closed);
    }

    fn text(&mut self, s: &str) {
        self.sep();
        if s.bytes().any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n')) {
            self.out.push(b'"');
            for b in s.bytes() {
                if b == b'"' {
                    self.out.push(b'"');
                }
                self.out.push(b);
            }
            self.out.push(b'"');
        } else {
            self.out.extend_from_slice(s.as_bytes());
        }
    }
}

/// Append `r` to `out` as a line of `summary.csv`, its fields in the order of [`SummaryRow`]'s.
pub(super) fn summary_line(r: &SummaryRow<&str>, out: &mut Vec<u8>) {
    let mut l = Line { out, first: true };
    l.group(r.rows, r.cols, r.rule, r.method, r.closed);
    l.int(r.runs);
    l.int(r.feasible_runs);
    l.int(r.successes);
    l.float(r.success_rate);
    l.opt_float(r.success_rate_feasible);
    l.int(r.dead_ends);
    l.int(r.budget_exhausted);
    l.int(r.impossible);
    l.float(r.visited_mean);
    l.float(r.backtracks_mean);
    l.int(r.backtracks_max);
    l.int(r.nodes_total);
    l.int(r.ties_total);
    l.int(r.elapsed_ns_total);
    l.int(r.not_closed);
    l.float(r.attempts_mean);
    l.float(r.success_ci_low);
    l.float(r.success_ci_high);
    l.int(r.closed_tours);
    l.float(r.closed_rate);
    l.float(r.closed_ci_low);
    l.float(r.closed_ci_high);
    l.opt_int(r.visited_min);
    l.opt_int(r.visited_max);
    l.flag(r.complete);
    l.out.push(b'\n');
}

/// Append `r` to `out` as a line of `deadends.csv`, its fields in the order of [`DeadEndRow`]'s.
pub(super) fn dead_end_line(r: &DeadEndRow<&str>, out: &mut Vec<u8>) {
    let mut l = Line { out, first: true };
    l.group(r.rows, r.cols, r.rule, r.method, r.closed);
    l.int(r.length);
    l.int(r.count);
    l.out.push(b'\n');
}

/// Append `r` to `out` as a line of the journal (`chunks.csv`), in [`ChunkRow::header`]'s columns.
pub(super) fn chunk_line(r: &ChunkRow, out: &mut Vec<u8>) {
    let mut l = Line { out, first: true };
    l.int(r.chunk);
    l.int(r.group);
    l.int(r.job);
    for n in r.tally.counts() {
        l.int(n);
    }
    // digits, `:` and `;`: never quoted
    l.sep();
    r.dead_ends
        .write_text(|piece| l.out.extend_from_slice(piece));
    l.opt_int(r.check.map(u64::from));
    l.out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::record::{DeadEndLengths, Tally, COUNTERS};
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn serde_line(r: &impl serde::Serialize) -> Vec<u8> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(r).unwrap();
        w.into_inner().unwrap()
    }

    /// `row` as its fast writer writes it and as serde does, held equal.
    fn same_as_serde<R: serde::Serialize + std::fmt::Debug>(
        row: &R,
        write: impl Fn(&R, &mut Vec<u8>),
    ) {
        let mut fast = Vec::new();
        write(row, &mut fast);
        assert_eq!(
            String::from_utf8_lossy(&fast),
            String::from_utf8_lossy(&serde_line(row)),
            "{row:?}"
        );
    }

    /// Values written again and again, more of them than the table has slots, text for text
    /// those `zmij` writes afresh: a slot gives back only its own value's text.
    #[test]
    fn kept_texts_are_the_values_own() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let values: Vec<f64> = (0..3 * TEXT_SLOTS)
            .map(|i| match i % 4 {
                0 => (i % 65) as f64 / 64.0,
                1 => rng.gen::<f64>(),
                2 => -rng.gen::<f64>() * 1e15,
                _ => f64::from_bits(rng.gen::<u64>() >> 2),
            })
            .filter(|v| v.is_finite() && v.abs() < 1e16 && *v != 0.0)
            .collect();
        let mut texts = FloatTexts::new();
        for _ in 0..20_000 {
            let v = values[rng.gen_range(0..values.len())];
            let mut out = b"x".to_vec();
            texts.write(v, &mut out);
            let want = format!("x{}", zmij::Buffer::new().format_finite(v));
            assert_eq!(String::from_utf8(out).unwrap(), want, "{v:e}");
        }
    }

    /// Every field distinct and drawn at random (a field out of order shows), floats of every
    /// magnitude and the values rates take, text that needs quotes and text that does not.
    #[test]
    fn lines_equal_the_serde_writers() {
        assert_eq!(ONE, 1f64.to_bits());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let names = [
            "first",
            "order:87654321",
            "pohl|random",
            "a,b",
            "say \"hi\"",
            "two\nlines",
            "cr\r",
            "",
            "squirrel",
        ];
        let float = |rng: &mut Xoshiro256PlusPlus| match rng.gen_range(0..10) {
            0 => 0.0,
            1 => 1.0,
            2 => -0.0,
            3 => rng.gen::<f64>(),
            4 => rng.gen::<f64>() * 1e-9,
            5 => rng.gen::<f64>() * 1e22,
            // where the digits turn to an exponent, at 1e16 and 1e-5, either side
            6 => 1e16 * (1.0 + (rng.gen::<f64>() - 0.5) * 1e-3),
            7 => 1e-5 * (1.0 + (rng.gen::<f64>() - 0.5) * 1e-1),
            // any bits: subnormals, infinities, NaN
            8 => f64::from_bits(rng.gen()),
            _ => f64::from(rng.gen::<u32>()) / 7.0,
        };
        let int = |rng: &mut Xoshiro256PlusPlus| match rng.gen_range(0..3) {
            0 => 0,
            1 => rng.gen_range(0..100),
            _ => rng.gen::<u64>(),
        };
        for _ in 0..5000 {
            let r = SummaryRow {
                rows: rng.gen(),
                cols: rng.gen(),
                rule: names[rng.gen_range(0..names.len())],
                method: names[rng.gen_range(0..names.len())],
                closed: rng.gen(),
                runs: int(&mut rng),
                feasible_runs: int(&mut rng),
                successes: int(&mut rng),
                success_rate: float(&mut rng),
                success_rate_feasible: rng.gen::<bool>().then(|| float(&mut rng)),
                dead_ends: int(&mut rng),
                budget_exhausted: int(&mut rng),
                impossible: int(&mut rng),
                visited_mean: float(&mut rng),
                backtracks_mean: float(&mut rng),
                backtracks_max: int(&mut rng),
                nodes_total: int(&mut rng),
                ties_total: int(&mut rng),
                elapsed_ns_total: int(&mut rng),
                not_closed: int(&mut rng),
                attempts_mean: float(&mut rng),
                success_ci_low: float(&mut rng),
                success_ci_high: float(&mut rng),
                closed_tours: int(&mut rng),
                closed_rate: float(&mut rng),
                closed_ci_low: float(&mut rng),
                closed_ci_high: float(&mut rng),
                visited_min: rng.gen::<bool>().then(|| int(&mut rng)),
                visited_max: rng.gen::<bool>().then(|| int(&mut rng)),
                complete: rng.gen(),
            };
            same_as_serde(&r, summary_line);
            let d = DeadEndRow {
                rows: r.rows,
                cols: r.cols,
                rule: r.rule,
                method: r.method,
                closed: r.closed,
                length: rng.gen(),
                count: int(&mut rng),
            };
            same_as_serde(&d, dead_end_line);
            let mut dead_ends = DeadEndLengths::default();
            for _ in 0..rng.gen_range(0..4) {
                dead_ends.add(rng.gen_range(1..500));
            }
            let c = ChunkRow {
                chunk: int(&mut rng),
                group: rng.gen(),
                job: int(&mut rng),
                tally: Tally::from_counts(std::array::from_fn::<_, COUNTERS, _>(|_| int(&mut rng))),
                dead_ends,
                check: rng.gen::<bool>().then(|| rng.gen()),
            };
            same_as_serde(&c, chunk_line);
        }
    }
}
