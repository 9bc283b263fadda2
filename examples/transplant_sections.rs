//! Copies sections from one model into another: the sections of INTO in their order, those named
//! replaced by FROM's (decoded) copy where INTO has them, the others appended in the order named.
//! The result is stored uncompressed (`henkan repack --compress 19`, or any later step with
//! `--compress`, compresses it).
//! Usage: `cargo run --release --example transplant_sections -- FROM INTO OUT Kind[,Kind…]`
//! (kinds as `model_sections` prints them, e.g. `Lstm,PredictBias,LmVocab,Ngram,LstmBackward`).
use henkan::model::{Container, SectionKind};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [from, into, out, kinds] = args.as_slice() else {
        panic!("usage: FROM INTO OUT Kind[,Kind…]");
    };
    let from = Container::from_bytes(std::fs::read(from).unwrap()).unwrap();
    let into = Container::from_bytes(std::fs::read(into).unwrap()).unwrap();
    let mut sections = Vec::new();
    for name in kinds.split(',') {
        let kind = *SectionKind::ALL
            .iter()
            .find(|k| format!("{k:?}") == name)
            .unwrap_or_else(|| panic!("unknown section kind {name}"));
        let bytes = from
            .section(kind)
            .unwrap_or_else(|| panic!("FROM has no {name} section"));
        sections.push((kind, bytes.as_ref().to_vec()));
    }
    for (k, c) in [("from", &from), ("into", &into)] {
        if let Some(m) = c.section(SectionKind::Meta) {
            eprintln!("{k} meta: {:?}", String::from_utf8_lossy(m.as_ref()));
        }
    }
    std::fs::write(out, into.with_sections(sections)).unwrap();
}
