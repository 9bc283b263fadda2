//! Inputs for the SIMD kernels' conformance tests, natively and under wasm: deterministic
//! pseudo-random floats in [−1, 1] and the tolerance a kernel may differ from its scalar twin.
#![allow(dead_code)]

/// `n` floats in [−1, 1] from a xorshift sequence seeded by `seed`.
pub fn data(n: usize, seed: u32) -> Vec<f32> {
    let mut x = seed.wrapping_mul(2654435761).wrapping_add(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x % 2001) as f32 / 1000.0 - 1.0
        })
        .collect()
}

/// Equal up to float reassociation (the SIMD kernels sum in another order).
pub fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-4 * (1.0 + a.abs().max(b.abs()))
}
