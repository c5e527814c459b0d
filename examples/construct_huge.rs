//! Time the construction on a huge board (measure peak memory with `/usr/bin/time -v`):
//! `cargo run --release --example construct_huge -- 10000 10000 closed [verify] [out.bin]`.
use ktour::board::Board;
use ktour::board::Closure;
use ktour::construct::construct;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rows: u64 = args[1].parse().unwrap();
    let cols: u64 = args[2].parse().unwrap();
    let closed = args.get(3).is_some_and(|a| a == "closed");
    let board = Board::new(rows, cols).unwrap();
    let t = Instant::now();
    let tour = construct(board, Closure::of(closed), None).unwrap();
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{board} {}: {} squares in {secs:.3} s ({:.0} Msquares/s)",
        if closed { "closed" } else { "open" },
        tour.len(),
        tour.len() as f64 / secs / 1e6
    );
    if let Some(path) = args.iter().find(|a| a.ends_with(".bin")) {
        let t = Instant::now();
        let mut w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        ktour::tour::write_bin(&mut w, board, &tour, closed).unwrap();
        drop(w);
        println!("wrote {path} in {:.3} s", t.elapsed().as_secs_f64());
    }
    if args.iter().any(|a| a == "verify") {
        let t = Instant::now();
        let kind = ktour::verify::verify_tour(board, &tour).unwrap();
        println!("verified {kind} in {:.3} s", t.elapsed().as_secs_f64());
    }
}
