//! The slow twin of the sampler: the exact expectation of one walk's weight, by enumerating every
//! path of the proposal tree (every sequence of choices a walk can make) and summing probability
//! times weight. The walks are the sampler's own ([`Scratch::walk`]), replayed with scripted choices,
//! while the probabilities are multiplied here from the weights each choice was offered; so the sum
//! equals the number of tours exactly when every weight is the inverse of its path's probability and
//! pruning loses no tour: compared with `ktour count` on small boards, it is the estimator's
//! unbiasedness checked in full rather than by sampling.

use super::walk::{Chooser, Graph, Scratch};

/// Replays a prefix of choices, then takes choice 0; records each decision's number of options and
/// the probability of the path taken.
struct Script {
    choices: Vec<usize>,
    options: Vec<usize>,
    depth: usize,
    probability: f64,
}

impl Script {
    fn next(&mut self, n: usize) -> usize {
        if self.depth == self.choices.len() {
            self.choices.push(0);
            self.options.push(n);
        }
        assert_eq!(
            self.options[self.depth], n,
            "a replayed walk must offer the same moves"
        );
        let i = self.choices[self.depth];
        self.depth += 1;
        i
    }
}

impl Chooser for Script {
    fn uniform(&mut self, n: usize) -> usize {
        let i = self.next(n);
        self.probability /= n as f64;
        i
    }

    fn weighted(&mut self, weights: &[f64], total: f64) -> usize {
        let i = self.next(weights.len());
        self.probability *= weights[i] / total;
        i
    }
}

/// The expectation of a walk's weight on `graph` and the number of walks in the tree; at most
/// `max_walks` walks are made (`None` past it).
pub fn expectation(graph: &Graph, max_walks: u64) -> Option<(f64, u64)> {
    let mut scratch = Scratch::new(graph);
    let mut script = Script {
        choices: Vec::new(),
        options: Vec::new(),
        depth: 0,
        probability: 1.0,
    };
    let (mut sum, mut walks) = (0.0, 0u64);
    loop {
        if walks == max_walks {
            return None;
        }
        script.depth = 0;
        script.probability = 1.0;
        let ln = scratch.walk(graph, &mut script);
        walks += 1;
        sum += script.probability * ln.exp();
        // the odometer: drop the decisions below this walk's last one, then advance the deepest
        // decision that has an untried option
        script.choices.truncate(script.depth);
        script.options.truncate(script.depth);
        while let Some(&last) = script.choices.last() {
            if last + 1 < *script.options.last().unwrap() {
                break;
            }
            script.choices.pop();
            script.options.pop();
        }
        match script.choices.last_mut() {
            Some(last) => *last += 1,
            None => return Some((sum, walks)),
        }
    }
}
