//! `shuffle` exactly: the run's one ordering is a uniform draw among the 40,320 orderings of the
//! labels (Squirrel & Cull 1996's random ordering; `docs/REFERENCE.md`, section 4), after which the
//! walk is deterministic. Rather than walk 40,320 times, the walk carries the orderings still
//! consistent with the ties it has broken: at a tie among the kept labels `S`, the orderings split
//! by which label of `S` each puts first, and the walk goes on once per non-empty part, with the
//! part. A leaf's probability is its part's size over 40,320; orderings that agree on every tie met
//! are walked once.

use crate::solve::rules::LabelOrder;

/// The orderings, each as the position of every label, kept in parts that the walk splits in
/// place (a part is a range of the array).
#[derive(Clone, Debug)]
pub struct Orderings {
    /// `pos[i][label]`: where ordering `i` puts `label` (0 = first preference).
    pos: Vec<[u8; 8]>,
    scratch: Vec<[u8; 8]>,
}

/// How many orderings there are.
pub const ORDERINGS: u64 = 40_320;

impl Default for Orderings {
    fn default() -> Self {
        let pos: Vec<[u8; 8]> = LabelOrder::all()
            .map(|o| {
                let mut at = [0u8; 8];
                for (i, &l) in o.labels().iter().enumerate() {
                    at[l as usize] = i as u8;
                }
                at
            })
            .collect();
        Orderings {
            scratch: pos.clone(),
            pos,
        }
    }
}

impl Orderings {
    /// Split the part `part` by which of `labels` (0-based, two or more) each ordering prefers:
    /// afterwards `parts[j]` is the range of the orderings that put `labels[j]` first among them
    /// (possibly empty). Only the part's own range is reordered.
    pub fn split(&mut self, part: (u32, u32), labels: &[u8], parts: &mut [(u32, u32); 8]) {
        let (from, to) = (part.0 as usize, part.1 as usize);
        let winner = |at: &[u8; 8]| {
            (0..labels.len())
                .min_by_key(|&j| at[labels[j] as usize])
                .expect("two or more")
        };
        let mut count = [0u32; 8];
        for at in &self.pos[from..to] {
            count[winner(at)] += 1;
        }
        let mut next = [0u32; 8];
        let mut at = part.0;
        for j in 0..labels.len() {
            parts[j] = (at, at + count[j]);
            next[j] = at;
            at += count[j];
        }
        for i in from..to {
            let w = winner(&self.pos[i]);
            self.scratch[next[w] as usize] = self.pos[i];
            next[w] += 1;
        }
        self.pos[from..to].copy_from_slice(&self.scratch[from..to]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_are_by_the_first_label_and_nest() {
        let mut o = Orderings::default();
        let mut parts = [(0, 0); 8];
        o.split((0, 40_320), &[2, 5, 7], &mut parts);
        // each of three labels is first among them in a third of the orderings
        assert_eq!(
            &parts[..3],
            &[(0, 13_440), (13_440, 26_880), (26_880, 40_320)]
        );
        for (j, &(a, b)) in parts[..3].iter().enumerate() {
            for at in &o.pos[a as usize..b as usize] {
                let first = [2u8, 5, 7].into_iter().min_by_key(|&l| at[l as usize]);
                assert_eq!(first, Some([2u8, 5, 7][j]));
            }
        }
        // within the part where 2 beats 5 and 7, 5 beats 1 in 3 of the 8 orders of {1, 2, 5, 7}
        // that put 2 before 5 and 7
        let mut inner = [(0, 0); 8];
        o.split(parts[0], &[5, 1], &mut inner);
        assert_eq!(&inner[..2], &[(0, 5_040), (5_040, 13_440)]);
    }
}
