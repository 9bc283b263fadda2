//! Conformance of the SIMD kernels with their scalar references (natively: AVX2+FMA when
//! the CPU has it; the same file runs under wasm with `simd128`), and of the quantized row
//! decoders with the packer.
#![cfg(not(target_arch = "wasm32"))]

use henkan::kernels::{self, scalar};
use proptest::prelude::*;

#[path = "../../../tests/common/kernel_data.rs"]
mod kernel_data;
use kernel_data::{close, data};

proptest! {
    #[test]
    fn dot_agrees(v in proptest::collection::vec((-2.0f32..2.0, -2.0f32..2.0), 0..600)) {
        let a: Vec<f32> = v.iter().map(|p| p.0).collect();
        let b: Vec<f32> = v.iter().map(|p| p.1).collect();
        prop_assert!(close(kernels::dot(&a, &b), scalar::dot(&a, &b)));
    }

    #[test]
    fn row_times_states_agrees(dim in 1usize..300, n in 1usize..12, seed in 0u32..1000) {
        let f = |i: usize| (((i as u32).wrapping_mul(2654435761) ^ seed) % 2001) as f32 / 1000.0 - 1.0;
        let row: Vec<f32> = (0..dim).map(f).collect();
        let states: Vec<f32> = (0..n * dim).map(|i| f(i + 7919)).collect();
        let mut out = vec![0.0; n];
        kernels::row_times_states(&row, &states, dim, &mut out);
        for s in 0..n {
            prop_assert!(close(out[s], scalar::dot(&row, &states[s * dim..(s + 1) * dim])));
        }
    }
}

#[test]
fn codebook_rows_decode_to_the_nearest_centroid() {
    use henkan_builder::lstm::codebook_quantize;
    for bits in [3u32, 4, 5, 6, 8] {
        let (rows, dim) = (9, 37);
        let w: Vec<f32> = (0..rows * dim)
            .map(|i| ((i * 7919) % 1000) as f32 / 500.0 - 1.0)
            .collect();
        let (c, codes) = codebook_quantize(&w, bits);
        assert_eq!(c.len(), 1 << bits);
        let mut out = vec![0.0; dim];
        for r in 0..rows {
            kernels::decode_codebook_row(&codes, bits, &c, r, dim, &mut out);
            for j in 0..dim {
                let v = w[r * dim + j];
                let best = c
                    .iter()
                    .map(|x| (x - v).abs())
                    .fold(f32::INFINITY, f32::min);
                assert!(
                    ((out[j] - v).abs() - best).abs() < 1e-6,
                    "bits {bits} row {r} col {j}"
                );
            }
        }
    }
}

#[test]
fn int8_rows_round_trip() {
    use henkan_builder::lstm::int8_quantize;
    let (rows, dim) = (5, 33);
    let w: Vec<f32> = (0..rows * dim)
        .map(|i| ((i * 31) % 200) as f32 / 100.0 - 1.0)
        .collect();
    let (scales, codes) = int8_quantize(&w, dim);
    let bytes: Vec<u8> = codes.iter().map(|&c| c as u8).collect();
    let mut out = vec![0.0; dim];
    for r in 0..rows {
        kernels::decode_i8_row(&bytes, scales[r], r, dim, &mut out);
        for j in 0..dim {
            assert!((out[j] - w[r * dim + j]).abs() <= scales[r] * 0.5 + 1e-6);
        }
    }
}

/// Product quantization: rows made of few distinct sub-vectors come back exactly through a
/// packed `Lstm` section; truncated sections are errors.
#[test]
fn product_quantized_rows_round_trip() {
    use henkan::lm::lstm::format::read_lstm;
    use henkan::model::SectionBytes;
    use henkan_builder::lstm::product_quantize;
    use henkan_builder::lstm_format::{write_lstm, LstmPayload, MatrixPayload};
    let (rows, dim, sub) = (300, 16, 4);
    // 10 distinct sub-vectors per column block: 256 centroids reproduce them exactly
    let w: Vec<f32> = (0..rows * dim)
        .map(|i| {
            let (r, c) = (i / dim, i % dim);
            ((r * 7 + c / sub * 3) % 10) as f32 * 0.25 - 1.0 + (c % sub) as f32 * 0.01
        })
        .collect();
    let (centroids, k, codes) = product_quantize(&w, dim, sub, 8);
    assert_eq!(k, 256);
    assert_eq!(codes.len(), rows * dim / sub);
    let payload = MatrixPayload::Product(sub, centroids, k, codes);
    let section = write_lstm(&LstmPayload {
        vocab: rows,
        hidden: dim,
        cell: dim,
        unk_id: 3,
        bos_id: 0,
        embedding: &payload,
        w_ih: &MatrixPayload::F32(vec![0.0; 4 * dim * dim]),
        w_hh: &MatrixPayload::F32(vec![0.0; 4 * dim * dim]),
        w_hr: None,
        b: &vec![0.0; 4 * dim],
        out_bias: &vec![0.0; rows],
    });
    let model = read_lstm(SectionBytes::from_vec(section.clone())).unwrap();
    assert_eq!(model.embedding.bits(), 2);
    let mut out = vec![0.0; dim];
    for r in 0..rows {
        model.embedding.decode_row(r, dim, &mut out);
        for c in 0..dim {
            assert!((out[c] - w[r * dim + c]).abs() < 1e-6, "row {r} col {c}");
        }
    }
    // truncated sections are errors
    for cut in [section.len() - 1, section.len() / 2, 40] {
        assert!(read_lstm(SectionBytes::from_vec(section[..cut].to_vec())).is_err());
    }
}

#[test]
fn gemv_matches_scalar() {
    let (rows, dim) = (37, 67);
    let w = data(rows * dim, 3);
    let x = data(dim, 4);
    let b = data(rows, 5);
    let mut out = vec![0.0; rows];
    kernels::gemv(&w, dim, &x, &b, &mut out);
    for r in 0..rows {
        let want = b[r] + scalar::dot(&w[r * dim..(r + 1) * dim], &x);
        assert!(close(want, out[r]), "row {r}: {want} vs {}", out[r]);
    }
}
