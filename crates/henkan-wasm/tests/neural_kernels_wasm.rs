//! The kernels under wasm (`simd128` from `.cargo/config.toml`) against the scalar
//! references, in node: `cargo test -p henkan-wasm --target wasm32-unknown-unknown --test neural_kernels_wasm`.
#![cfg(target_arch = "wasm32")]

use henkan::kernels::{self, scalar};
use wasm_bindgen_test::wasm_bindgen_test;

#[path = "../../../tests/common/kernel_data.rs"]
mod kernel_data;
use kernel_data::{close, data};

#[wasm_bindgen_test]
fn simd128_is_compiled_in() {
    assert_eq!(kernels::implementation(), "wasm simd128");
}

#[wasm_bindgen_test]
fn dot_matches_scalar() {
    for n in 0..300 {
        let (a, b) = (data(n, 1), data(n, 2));
        assert!(close(kernels::dot(&a, &b), scalar::dot(&a, &b)), "n={n}");
    }
}

#[wasm_bindgen_test]
fn row_times_states_matches_scalar() {
    for (n, dim) in [(1, 8), (3, 17), (4, 256), (10, 256), (13, 67), (7, 5)] {
        let row = data(dim, 7);
        let states = data(n * dim, 8);
        let mut out = vec![0.0; n];
        kernels::row_times_states(&row, &states, dim, &mut out);
        for s in 0..n {
            assert!(close(
                out[s],
                scalar::dot(&row, &states[s * dim..(s + 1) * dim])
            ));
        }
    }
}
