"""Fit a per-word logit offset for next-word prediction (the LSTM's output bias adapted to typed chat).

Input: `henkan model dump-lm-states` output (DIR/states.f32, targets.u32, emb.f32, out_bias.f32): the frozen
LSTM's state before every word of analyzed chat text and the word. The offset `d` maximizes the
full-softmax likelihood of the words given the states, with logits `E h + b + d`. For a bias-only
log-linear model, generalized iterative scaling is exact: each pass sets d += log((count + a) /
(expected + a)), the expected counts summed over every state's softmax (a = additive smoothing).
Offsets are clipped to [-CLIP, CLIP]. Writes DIR/predict_bias.f32 (f32 LE, one per word).
"""
import argparse
import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("--dir", required=True)
ap.add_argument("--passes", type=int, default=4)
ap.add_argument("--smooth", type=float, default=1.0)
ap.add_argument("--clip", type=float, default=3.0)
ap.add_argument("--chunk", type=int, default=2048)
ap.add_argument("--out", default=None)
a = ap.parse_args()

E = np.fromfile(f"{a.dir}/emb.f32", dtype=np.float32)
b = np.fromfile(f"{a.dir}/out_bias.f32", dtype=np.float32)
V = b.shape[0]
E = E.reshape(V, -1)
H = np.fromfile(f"{a.dir}/states.f32", dtype=np.float32).reshape(-1, E.shape[1])
y = np.fromfile(f"{a.dir}/targets.u32", dtype=np.uint32).astype(np.int64)
N = y.shape[0]
print(f"{N} words, vocab {V}, hidden {E.shape[1]}", flush=True)
count = np.bincount(y, minlength=V).astype(np.float64)
d = np.zeros(V, dtype=np.float32)
ET = np.ascontiguousarray(E.T)
for p in range(a.passes + 1):
    expected = np.zeros(V, dtype=np.float64)
    nll = 0.0
    for s in range(0, N, a.chunk):
        z = H[s:s + a.chunk] @ ET
        z += b + d
        z -= z.max(axis=1, keepdims=True)
        np.exp(z, out=z)
        tot = z.sum(axis=1, keepdims=True)
        z /= tot
        yy = y[s:s + a.chunk]
        nll -= np.log(z[np.arange(len(yy)), yy] + 1e-30).sum()
        expected += z.sum(axis=0)
    print(f"pass {p}: train ppl {np.exp(nll / N):.2f}, |d| max {np.abs(d).max():.2f} mean {np.abs(d).mean():.3f}", flush=True)
    if p == a.passes:
        break
    d += np.log((count + a.smooth) / (expected + a.smooth)).astype(np.float32)
    np.clip(d, -a.clip, a.clip, out=d)
out = a.out or f"{a.dir}/predict_bias.f32"
d.astype("<f4").tofile(out)
print("wrote", out)
