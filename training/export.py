#!/usr/bin/env python3
"""Export a trained LSTM LM checkpoint (--dir/ckpt.pt) to the neutral format the Rust packer reads:

  --dir/lstm.safetensors  f32 tensors, little endian:
      embedding [V, E]     input embedding = output projection (tied)
      w_ih      [4H, E]    PyTorch nn.LSTM weight_ih_l0, gate blocks in order i, f, g, o
      w_hh      [4H, H]    weight_hh_l0, same gate order
      b         [4H]       bias_ih_l0 + bias_hh_l0
      out_bias  [V]        output bias
      w_hr      [H, C]     only for a model with a projection (LSTMP, `--cell C`): weight_hr_l0
    metadata (strings): vocab_size, emb, hidden, unk_id, bos_id, gate_order="i,f,g,o", steps, tokens, and
    cell (= C, only with w_hr). Without a projection C = H and w_ih is [4H, E], w_hh [4H, H], b [4H]; with one
    they are [4C, E], [4C, H], [4C].
    One step: z = w_ih x + w_hh h + b; i = sigmoid(z[0:C]); f = sigmoid(z[C:2C]); g = tanh(z[2C:3C]);
    o = sigmoid(z[3C:4C]); c' = f*c + i*g; m = o*tanh(c'); h' = m (no projection) or w_hr m;
    logits = embedding h' + out_bias.
  --dir/vocab.tsv         id<TAB>key<TAB>count for the V ids of the model (a copy of the training vocabulary,
                          truncated to V for a smaller model; the truncated words' counts are added to <unk>).
  --dir/classes.tsv       a copy of the training vocabulary's, for an LM with `<unk>` classes
                          (training/unk_classes.py; `henkan model attach lstm` reads it beside vocab.tsv).
"""
import argparse
import json
import os
import shutil

import torch
from safetensors.torch import save_file


def golden(t, cfg, out_dir, n=24):
    """Self-check of the documented step equations against torch.nn.LSTM, and golden vectors for the Rust
    side's tests: golden.json = {ids, logprob_next[k] (log-softmax of the true next id after ids[:k+1]),
    top5[k], h_last}."""
    import numpy as np
    import torch.nn.functional as F
    dev = os.path.join(cfg["vocab_from"], "dev_kwdlc.bin")
    ids = np.fromfile(dev, dtype=np.int32)[: n + 1].astype(np.int64)
    V, H = cfg["vocab_size"], cfg["hidden"]
    C = cfg.get("cell") or H
    ids = np.where(ids >= V, cfg["unk_id"], ids)
    E, Wi, Wh, b, ob = (t[k].double().numpy() for k in ["embedding", "w_ih", "w_hh", "b", "out_bias"])
    Wr = t["w_hr"].double().numpy() if "w_hr" in t else None
    sig = lambda z: 1 / (1 + np.exp(-z))
    h, c = np.zeros(H), np.zeros(C)
    lps, tops = [], []
    for k in range(n):
        z = Wi @ E[ids[k]] + Wh @ h + b
        i, f, g, o = sig(z[:C]), sig(z[C:2 * C]), np.tanh(z[2 * C:3 * C]), sig(z[3 * C:])
        c = f * c + i * g
        h = o * np.tanh(c)
        if Wr is not None:
            h = Wr @ h
        logits = E @ h + ob
        m = logits.max()
        lse = m + np.log(np.exp(logits - m).sum())
        lps.append(float(logits[ids[k + 1]] - lse))
        tops.append([int(x) for x in np.argsort(-logits)[:5]])
    # the same with torch.nn.LSTM
    lstm = (torch.nn.LSTM(cfg["emb"], C, proj_size=H) if Wr is not None else torch.nn.LSTM(cfg["emb"], H)).double()
    with torch.no_grad():
        if Wr is not None:
            lstm.weight_hr_l0.copy_(t["w_hr"].double())
        lstm.weight_ih_l0.copy_(t["w_ih"].double())
        lstm.weight_hh_l0.copy_(t["w_hh"].double())
        lstm.bias_ih_l0.copy_(t["b"].double())
        lstm.bias_hh_l0.zero_()
        x = t["embedding"].double()[torch.from_numpy(ids[:n])].unsqueeze(1)
        hs, _ = lstm(x)
        lp = F.log_softmax(hs[:, 0] @ t["embedding"].double().t() + t["out_bias"].double(), -1)
        ref = lp[torch.arange(n), torch.from_numpy(ids[1: n + 1])].numpy()
    err = float(np.abs(ref - np.array(lps)).max())
    assert err < 1e-6, f"export self-check failed: max |logprob diff| {err}"
    with open(os.path.join(out_dir, "golden.json"), "w") as f:
        json.dump({"ids": [int(x) for x in ids[: n + 1]], "logprob_next": lps, "top5": tops,
                   "h_last": [float(x) for x in h], "note": "state starts at zero; ids[0] is <s>; "
                   "logprob_next[k] = log P(ids[k+1] | ids[0..=k]) with the full softmax"}, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="build/lm")
    ap.add_argument("--ckpt", default=None)
    a = ap.parse_args()
    ck = torch.load(a.ckpt or os.path.join(a.dir, "ckpt.pt"), map_location="cpu", weights_only=False)
    cfg, m = ck["config"], ck["model"]
    V, unk_id = cfg["vocab_size"], cfg["unk_id"]
    tensors = {
        "embedding": m["embedding.weight"].float().contiguous(),
        "w_ih": m["lstm.weight_ih_l0"].float().contiguous(),
        "w_hh": m["lstm.weight_hh_l0"].float().contiguous(),
        "b": (m["lstm.bias_ih_l0"] + m["lstm.bias_hh_l0"]).float().contiguous(),
        "out_bias": m["out_bias"].float().contiguous(),
    }
    C = cfg.get("cell") or cfg["hidden"]
    if cfg.get("cell"):
        tensors["w_hr"] = m["lstm.weight_hr_l0"].float().contiguous()
    assert tensors["embedding"].shape == (V, cfg["emb"])
    assert tensors["w_ih"].shape == (4 * C, cfg["emb"])
    meta = {"vocab_size": str(V), "emb": str(cfg["emb"]), "hidden": str(cfg["hidden"]),
            "unk_id": str(unk_id), "bos_id": str(cfg["bos_id"]), "gate_order": "i,f,g,o",
            "steps": str(ck["st"]["step"]), "tokens": str(ck["st"]["tokens"])}
    if cfg.get("cell"):
        meta["cell"] = str(C)
    out = os.path.join(a.dir, "lstm.safetensors")
    save_file(tensors, out + ".tmp", metadata=meta)
    os.chmod(out + ".tmp", 0o644)
    os.replace(out + ".tmp", out)

    src = os.path.join(cfg["vocab_from"], "vocab.tsv")
    dst = os.path.join(a.dir, "vocab.tsv")
    rows = [line.rstrip("\n").split("\t") for line in open(src, encoding="utf-8")]
    if len(rows) != V:
        extra = sum(int(r[2]) for r in rows[V:])
        rows = rows[:V]
        rows[unk_id][2] = str(int(rows[unk_id][2]) + extra)
        with open(dst + ".tmp", "w", encoding="utf-8") as f:
            for r in rows:
                f.write("\t".join(r) + "\n")
        os.replace(dst + ".tmp", dst)
    elif os.path.abspath(src) != os.path.abspath(dst):
        shutil.copyfile(src, dst)
    classes = os.path.join(cfg["vocab_from"], "classes.tsv")
    if os.path.exists(classes) and os.path.abspath(a.dir) != os.path.abspath(cfg["vocab_from"]):
        shutil.copyfile(classes, os.path.join(a.dir, "classes.tsv"))
    golden(tensors, cfg, a.dir)
    size = os.path.getsize(out)
    print(json.dumps({"out": out, "bytes": size, **meta}))


if __name__ == "__main__":
    main()
