//! Numeric kernels for the LSTM LM: dot products, matrix × vector and codebook row
//! decoding, over f32 and k-means codebook / int8 weights.
//!
//! This is the only module with `unsafe` (SIMD intrinsics). Every kernel has a plain
//! scalar reference in [`scalar`]; the public functions here pick the fastest
//! implementation for the target once (at compile time for wasm `simd128`, at run time
//! for x86_64 AVX2+FMA) and are tested against the scalar twin (`tests/neural_kernels.rs`
//! and the unit tests below).
//!
//! Terms:
//! - *row*: one output unit's weights (`dim` contiguous f32).
//! - *codebook row*: a row stored as bit-packed `bits`-bit indices into a table of
//!   2^bits centroids (per matrix k-means, see `build::lstm`). Codes are packed
//!   little-endian, least significant bit first, a row starting at bit `row * dim * bits`.
#![allow(unsafe_code)]

pub mod scalar;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm;

#[cfg(target_arch = "x86_64")]
mod avx2;

/// Which implementation the dispatching functions use (for reports and tests).
pub fn implementation() -> &'static str {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        return "wasm simd128";
    }
    #[cfg(target_arch = "x86_64")]
    {
        if avx2::available() {
            return "x86_64 avx2+fma";
        }
    }
    #[allow(unreachable_code)]
    "scalar"
}

/// `Σ a[i]·b[i]` over the shorter length.
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        return wasm::dot(a, b);
    }
    #[cfg(target_arch = "x86_64")]
    {
        if avx2::available() {
            // SAFETY: AVX2 and FMA were detected at run time; lengths are equal.
            return unsafe { avx2::dot(a, b) };
        }
    }
    #[allow(unreachable_code)]
    scalar::dot(a, b)
}

/// `out[r] = bias[r] + Σ_j w[r·dim + j]·x[j]` for every row `r < out.len()`.
///
/// Panics if `w` holds fewer than `out.len() · dim` values or `x` fewer than `dim`.
pub fn gemv(w: &[f32], dim: usize, x: &[f32], bias: &[f32], out: &mut [f32]) {
    assert!(w.len() >= out.len() * dim && x.len() >= dim && bias.len() >= out.len());
    let x = &x[..dim];
    for (r, o) in out.iter_mut().enumerate() {
        *o = bias[r] + dot(&w[r * dim..(r + 1) * dim], x);
    }
}

/// Decodes codebook row `row` (of `dim` codes of `bits` bits) into `out[..dim]`.
pub fn decode_codebook_row(
    codes: &[u8],
    bits: u32,
    centroids: &[f32],
    row: usize,
    dim: usize,
    out: &mut [f32],
) {
    scalar::decode_codebook_row(codes, bits, centroids, row, dim, out)
}

/// Decodes int8 row `row` (`dim` signed bytes times `scale`) into `out[..dim]`.
pub fn decode_i8_row(codes: &[u8], scale: f32, row: usize, dim: usize, out: &mut [f32]) {
    scalar::decode_i8_row(codes, scale, row, dim, out)
}

/// `out[s] = Σ_j row[j]·states[s·dim + j]` for each of the `out.len()` states: one row
/// against a batch of states (the row is read once, the states stay in cache).
pub fn row_times_states(row: &[f32], states: &[f32], dim: usize, out: &mut [f32]) {
    assert!(row.len() >= dim && states.len() >= out.len() * dim);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        return wasm::row_times_states(row, states, dim, out);
    }
    #[cfg(target_arch = "x86_64")]
    {
        if avx2::available() {
            // SAFETY: AVX2 and FMA were detected; lengths checked above.
            return unsafe { avx2::row_times_states(row, states, dim, out) };
        }
    }
    #[allow(unreachable_code)]
    for (s, o) in out.iter_mut().enumerate() {
        *o = dot(row, &states[s * dim..(s + 1) * dim]);
    }
}
