//! wasm32 `simd128` kernels (compiled in when the target feature is on).

use core::arch::wasm32::*;

/// `Σ a[i]·b[i]`; `a` and `b` have equal lengths.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let mut acc0 = f32x4_splat(0.0);
    let mut acc1 = f32x4_splat(0.0);
    let mut i = 0;
    while i + 8 <= n {
        // SAFETY: i + 8 <= n, so the two 4-lane unaligned loads at i and i + 4 are in
        // bounds of both slices; v128_load has no alignment requirement.
        unsafe {
            let pa = a.as_ptr().add(i) as *const v128;
            let pb = b.as_ptr().add(i) as *const v128;
            acc0 = f32x4_add(acc0, f32x4_mul(v128_load(pa), v128_load(pb)));
            acc1 = f32x4_add(acc1, f32x4_mul(v128_load(pa.add(1)), v128_load(pb.add(1))));
        }
        i += 8;
    }
    let acc = f32x4_add(acc0, acc1);
    let mut s = (f32x4_extract_lane::<0>(acc) + f32x4_extract_lane::<1>(acc))
        + (f32x4_extract_lane::<2>(acc) + f32x4_extract_lane::<3>(acc));
    while i < n {
        s += a[i] * b[i];
        i += 1;
    }
    s
}
