#![no_main]
//! Any text as a rule or a sequence of rules (the algebra of `docs/REFERENCE.md`, section 4): never a
//! panic; a rule that parses prints a name that parses back to it, and runs a walk and a short
//! search on a small board.
use ktour::board::{Board, Square};
use ktour::solve::{Method, Request, RuleSeq, Solver};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(seq) = text.parse::<RuleSeq>() else {
        return;
    };
    assert_eq!(
        seq.to_string().parse::<RuleSeq>().as_ref(),
        Ok(&seq),
        "{text:?}"
    );
    let board = Board::square(6).unwrap();
    let mut solver = Solver::new();
    for method in [Method::Warnsdorff, Method::Backtrack] {
        let mut req = Request::warnsdorff(board, Square::new(1, 2), seq.first());
        req.method = method;
        req.budget = 1000;
        // a rule outside its domain (squirrel off the corner) is an error, not a panic
        let _ = solver.run_attempts(&req, &seq, 3);
    }
});
