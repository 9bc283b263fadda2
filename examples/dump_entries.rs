//! Every lexicon entry of a model as `offset<TAB>reading<TAB>surface<TAB>left<TAB>right<TAB>cost`
//! lines. Usage: `cargo run --release --example dump_entries -- MODEL`.
use std::io::Write;

fn main() {
    let path = std::env::args().nth(1).expect("usage: dump_entries MODEL");
    let engine = henkan::Engine::from_bytes(std::fs::read(path).unwrap()).unwrap();
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    engine.lexicon.for_each_entry(|reading, e| {
        let surface = engine.lexicon.surface_text(&e.surface, reading);
        writeln!(
            out,
            "{}\t{reading}\t{surface}\t{}\t{}\t{}",
            e.offset, e.left_id, e.right_id, e.cost
        )
        .unwrap();
    });
}
