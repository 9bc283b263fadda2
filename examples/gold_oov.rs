//! For each `reading<TAB>text` line: the number of words outside the LM's vocabulary on the
//! sentence's gold path (the cheapest lattice path spelling the text, words the LM knows
//! preferred), or -1 without one. Prints `oov<TAB>reading` per line.
//! Usage: `cargo run --release --example gold_oov -- MODEL FILE`
use henkan::build::gold::{unknown_word_cost, GoldAligner};
use henkan::decoder::neural::NeuralDecoder;
use henkan::lattice::{NUMBER_ENTRY, UNKNOWN_ENTRY};
use henkan::Engine;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = Engine::from_bytes(std::fs::read(&args[1]).unwrap()).unwrap();
    let lm = engine.neural.as_ref().unwrap();
    let mut aligner = GoldAligner::new();
    for line in std::fs::read_to_string(&args[2]).unwrap().lines() {
        let Some((reading, want)) = line.split_once('\t') else {
            continue;
        };
        let n = match aligner.align(&engine, reading, want, |n| unknown_word_cost(lm, n)) {
            Some(path) => {
                let nodes = aligner.lattice().nodes();
                path.iter()
                    .filter(|&&i| {
                        let e = nodes[i as usize].entry;
                        e == UNKNOWN_ENTRY
                            || (e != NUMBER_ENTRY
                                && NeuralDecoder::word_of(lm, e) == lm.model.unk_id)
                    })
                    .count() as i64
            }
            None => -1,
        };
        println!("{n}\t{reading}");
    }
}
