//! The Rust LSTM against PyTorch: `golden.json` (written by `training/export.py` beside the
//! exported LM) holds the full-softmax log-probabilities of 24 next words and the last hidden
//! state. The tiny LMs are committed under `tests/data`; the full LM (`build/lm`) is checked
//! by an ignored test (`cargo test -- --ignored` after `make train lm-export`).

use henkan::lm::lstm::{LstmModel, StepScratch};
use henkan::model::SectionBytes;
use henkan_builder::lstm::{pack_lstm, read_safetensors, read_vocab_tsv, PackOptions, Quant};

fn load(dir: &str, opts: PackOptions) -> (LstmModel, serde_json::Value) {
    // `lm-tiny` is committed under tests/data (a copy of `make lm-tiny`'s output) so that CI
    // runs this test without training, and so is `lm-tiny-proj` (the same widened to 48 cells
    // with a projection and trained for 0.4 minutes, `--cell 48`; it shares lm-tiny's
    // vocabulary); other directories are read from build/.
    let root = if dir.starts_with("lm-tiny") {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/")
    } else {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../build/")
    };
    let path = format!("{root}{dir}/lstm.safetensors");
    let st = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let vocab = std::fs::read_to_string(format!("{root}{dir}/vocab.tsv"))
        .or_else(|_| std::fs::read_to_string(format!("{root}lm-tiny/vocab.tsv")))
        .unwrap();
    let golden: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{root}{dir}/golden.json")).unwrap())
            .unwrap();
    let w = read_safetensors(&st).unwrap();
    let v = read_vocab_tsv(&vocab).unwrap();
    let bytes = pack_lstm(&w, &v, opts);
    (
        LstmModel::from_section(SectionBytes::from_vec(bytes)).unwrap(),
        golden,
    )
}

/// Runs the golden ids through the model: (max |Δ log-prob|, max |Δ h_last|, top-1 agreement).
fn check(m: &LstmModel, golden: &serde_json::Value) -> (f32, f32, usize) {
    let ids: Vec<u32> = golden["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    let want: Vec<f32> = golden["logprob_next"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    let top5: Vec<u32> = golden["top5"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v[0].as_u64().unwrap() as u32)
        .collect();
    let hd = m.hidden;
    let (mut h, mut c) = (vec![0.0; hd], vec![0.0; m.cell]);
    let mut x = vec![0.0; hd];
    let mut scratch = StepScratch::default();
    let (mut lp, mut row) = (Vec::new(), Vec::new());
    let (mut max_d, mut top_ok) = (0f32, 0);
    // h_last is the state after ids[..24] (the last id is only a target)
    for k in 0..ids.len() - 1 {
        m.embed(ids[k], &mut x);
        m.step(&x, &mut h, &mut c, &mut scratch);
        {
            m.log_softmax_full(&h, &mut lp, &mut row);
            max_d = max_d.max((lp[ids[k + 1] as usize] - want[k]).abs());
            let best = (0..lp.len())
                .max_by(|&a, &b| lp[a].total_cmp(&lp[b]))
                .unwrap() as u32;
            top_ok += usize::from(best == top5[k]);
        }
    }
    let h_last: Vec<f32> = golden["h_last"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect();
    let max_h = h
        .iter()
        .zip(&h_last)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    (max_d, max_h, top_ok)
}

#[test]
fn tiny_fp32_matches_pytorch() {
    let (m, g) = load("lm-tiny", PackOptions::bits(32));
    let (d, dh, top) = check(&m, &g);
    assert!(d < 1e-3, "max |Δ log-prob| {d}");
    assert!(dh < 1e-4, "max |Δ h| {dh}");
    assert_eq!(top, 24);
}

/// A model with a projection (LSTMP: 48 cells, 32 outputs) computes what PyTorch's
/// `nn.LSTM(proj_size=32)` does, in f32 and at 4 bits.
#[test]
fn tiny_projected_matches_pytorch() {
    let (m, g) = load("lm-tiny-proj", PackOptions::bits(32));
    assert_eq!((m.hidden, m.cell), (32, 48));
    let (d, dh, top) = check(&m, &g);
    assert!(d < 1e-3, "max |Δ log-prob| {d}");
    assert!(dh < 1e-4, "max |Δ h| {dh}");
    assert_eq!(top, 24);
    let (m4, g) = load("lm-tiny-proj", "4,r4".parse().unwrap());
    assert_eq!((m4.cell, m4.recurrent_bits), (48, 4));
    let (d, dh, _) = check(&m4, &g);
    assert!(d > 0.0 && d < 2.0, "max |Δ log-prob| {d}");
    assert!(dh < 1.0, "max |Δ h| {dh}");
}

#[test]
fn tiny_8bit_is_close() {
    let opts = PackOptions {
        embedding: Quant::Codebook(8),
        recurrent: Quant::Int8,
    };
    let (m, g) = load("lm-tiny", opts);
    let (d, dh, _) = check(&m, &g);
    assert!(d < 0.25, "max |Δ log-prob| {d}");
    assert!(dh < 0.3, "max |Δ h| {dh}");
}

/// The full exported model (`build/lm`, 50K words, `make train lm-export`).
#[test]
#[ignore = "needs build/lm from `make train lm-export`"]
fn full_model_fp32_matches_pytorch() {
    let (m, g) = load("lm", PackOptions::bits(32));
    let (d, dh, top) = check(&m, &g);
    assert!(d < 2e-3, "max |Δ log-prob| {d}");
    assert!(dh < 1e-3, "max |Δ h| {dh}");
    assert!(top >= 23, "top-1 agreement {top}/24");
}

/// A split embedding (8 bits for the first rows, 3 for the rest) decodes every row exactly
/// as the two codebooks it was built from, and stays close to PyTorch.
#[test]
fn tiny_split_embedding_decodes_each_part() {
    use henkan::kernels;
    use henkan_builder::lstm::codebook_quantize;
    let opts: PackOptions = "8:3@100".parse().unwrap();
    let (m, g) = load("lm-tiny", opts);
    let st = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/lm-tiny/lstm.safetensors"
    ))
    .unwrap();
    let w = read_safetensors(&st).unwrap();
    let hd = w.hidden;
    let (c8, codes8) = codebook_quantize(&w.embedding[..100 * hd], 8);
    let (c3, codes3) = codebook_quantize(&w.embedding[100 * hd..], 3);
    let (mut got, mut want) = (vec![0.0; hd], vec![0.0; hd]);
    for row in [0, 1, 99, 100, 101, w.vocab - 1] {
        m.embedding.decode_row(row, hd, &mut got);
        if row < 100 {
            kernels::decode_codebook_row(&codes8, 8, &c8, row, hd, &mut want);
        } else {
            kernels::decode_codebook_row(&codes3, 3, &c3, row - 100, hd, &mut want);
        }
        assert_eq!(got, want, "row {row}");
    }
    assert_eq!(
        m.embedding.stored_bytes(w.vocab, hd),
        100 * hd + ((w.vocab - 100) * hd * 3).div_ceil(8)
    );
    let (d, _, _) = check(&m, &g);
    assert!(d.is_finite() && d < 2.0, "max |Δ log-prob| {d}");
}

#[test]
fn quantization_specs_parse() {
    let p = |s: &str| s.parse::<PackOptions>();
    assert_eq!(p("4").unwrap(), PackOptions::bits(4));
    assert_eq!(p("32").unwrap(), PackOptions::bits(32));
    assert_eq!(
        p("4:3@8192,r4").unwrap(),
        PackOptions {
            embedding: Quant::Mixed {
                head_rows: 8192,
                head_bits: 4,
                tail_bits: 3
            },
            recurrent: Quant::Codebook(4),
        }
    );
    for bad in ["", "2", "9", "4:3", "4:3@x", "4,4", "4:1@10", "x"] {
        assert!(p(bad).is_err(), "{bad} should not parse");
    }
}
