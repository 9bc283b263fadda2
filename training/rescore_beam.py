#!/usr/bin/env python3
"""Re-ranks the engines' final beams (`examples/dump_finals.rs` JSON lines) with a forward and a backward LSTM
LM (training/export.py safetensors; full softmax in PyTorch) and prints exact top-1 for
`score + β·(bwd − fwd)` and `score + β·bwd` (BENCHMARKS.md "Session 9").

    python3 training/rescore_beam.py --dump beam.jsonl --fwd build/lm-shipped/lstm.safetensors \
        --bwd build/lm-back/lstm.safetensors --meta build/lm-back/data/meta.json
"""
import argparse
import json

import torch
from safetensors.torch import load_file


def load(path):
    t = load_file(path)
    _, h = t["embedding"].shape
    lstm = torch.nn.LSTM(h, h)
    with torch.no_grad():
        lstm.weight_ih_l0.copy_(t["w_ih"])
        lstm.weight_hh_l0.copy_(t["w_hh"])
        lstm.bias_ih_l0.copy_(t["b"])
        lstm.bias_hh_l0.zero_()
    return t["embedding"].float(), t["out_bias"].float(), lstm


def log_prob(model, seqs, bos):
    """Sum of log p over each id sequence and the closing `<s>`, starting after `<s>`."""
    emb, ob, lstm = model
    n, steps = len(seqs), max(len(s) for s in seqs) + 1
    x = torch.full((steps, n), bos, dtype=torch.long)
    y = torch.full((steps, n), bos, dtype=torch.long)
    mask = torch.zeros(steps, n)
    for j, s in enumerate(seqs):
        for t, w in enumerate(s):
            x[t + 1, j] = w
            y[t, j] = w
        mask[: len(s) + 1, j] = 1
    with torch.no_grad():
        h, _ = lstm(emb[x])
        lp = torch.log_softmax(h @ emb.T + ob, -1).gather(-1, y.unsqueeze(-1)).squeeze(-1)
    return (lp * mask).sum(0).tolist()


def accuracy(rows, key):
    ok = sum(max(d["cands"], key=key)["text"] == d["want"] for d in rows if d["cands"])
    return 100 * ok / len(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dump", required=True)
    ap.add_argument("--fwd", required=True)
    ap.add_argument("--bwd", required=True)
    ap.add_argument("--meta", required=True, help="meta.json of the data directory (bos_id)")
    a = ap.parse_args()
    torch.set_num_threads(2)
    bos = json.load(open(a.meta))["bos_id"]
    fwd, bwd = load(a.fwd), load(a.bwd)
    rows = [json.loads(line) for line in open(a.dump, encoding="utf-8")]
    for d in rows:
        seqs = [c["ids"] for c in d["cands"]]
        if seqs:
            fs = log_prob(fwd, seqs, bos)
            bs = log_prob(bwd, [s[::-1] for s in seqs], bos)
            for c, f, b in zip(d["cands"], fs, bs):
                c["fwd"], c["bwd"] = f, b
    oracle = 100 * sum(any(c["text"] == d["want"] for c in d["cands"]) for d in rows) / len(rows)
    print(f"{len(rows)} sentences: beam {accuracy(rows, lambda c: c['score']):.2f}, oracle {oracle:.2f}")
    for beta in [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0]:
        mix = accuracy(rows, lambda c: c["score"] + beta * (c["bwd"] - c["fwd"]))
        add = accuracy(rows, lambda c: c["score"] + beta * c["bwd"])
        print(f"beta {beta}: score + beta*(bwd - fwd) {mix:.2f}   score + beta*bwd {add:.2f}")


if __name__ == "__main__":
    main()
