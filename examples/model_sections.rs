//! Lists a model file's sections: kind, encoding, stored bytes.
//! Usage: `cargo run --release --example model_sections -- MODEL`
use henkan::model::Container;

fn main() {
    let path = std::env::args().nth(1).expect("MODEL");
    let c = Container::from_bytes(std::fs::read(&path).unwrap()).unwrap();
    for e in c.entries() {
        println!(
            "{:?}\t{:?}\t{}",
            e.kind
                .map_or(format!("raw {}", e.raw_kind), |k| format!("{k:?}")),
            e.encoding,
            e.length
        );
    }
    println!("total\t{}", c.len());
}
