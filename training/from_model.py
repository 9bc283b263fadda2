#!/usr/bin/env python3
"""Recover the word LSTM LM from a henkan model container as an f32 export (for fine-tuning).

Reads the container (src/model/mod.rs: magic "HENKAN\\0\\x1a", u32 version, u32 count, then count x 32-byte
table entries kind u32, reserved u32, offset u64, length u64, crc32 u32, reserved u32), checks the CRC of the
`Lstm` section (kind 6), decodes it (src/lm/lstm/format.rs: "HKLSTM01", u32 vocab, hidden, unk_id, bos_id,
matrices embedding [V,H], w_ih [4H,H], w_hh [4H,H], f32 b[4H], f32 out_bias[V]; a matrix is u32 kind
(0 f32, 1 k-means codebook, 2 int8 with per-row scales, 3 split into a head and a tail part), rows, cols,
bits) and dequantizes every matrix to f32 exactly as the Rust reader does (codebook codes are bit-packed LSB
first over the whole matrix; int8 = code * scale of its row).

Writes --out/lstm.safetensors in the format of training/export.py (tensors embedding, w_ih, w_hh, b = the
combined bias, out_bias; metadata vocab_size, emb, hidden, unk_id, bos_id, gate_order "i,f,g,o", steps,
tokens — steps/tokens are "0": the container does not record them — plus `source`), and copies --vocab
(build/lm/vocab.tsv) next to it after checking that it has as many ids and the same <unk>/<s> ids.

--check DIR: full-softmax perplexity (PyTorch, fp32) of the decoded weights on DIR/dev_{chat,kwdlc,wac}.bin,
both as `henkan eval perplexity` computes it (state reset at every <s>, first --limit tokens) and as
train_lstm.py's periodic eval does (whole file, 32 streams, state carried across sentences).
--weights X.safetensors --check DIR: the same perplexities for an f32 export (e.g. the fine-tuned
build/lm-ft/lstm.safetensors); nothing is written.
"""
import argparse
import json
import math
import os
import shutil
import struct
import sys
import zlib

import numpy as np

MAGIC = b"HENKAN\x00\x1a"
LSTM_KIND = 6
LSTM_MAGIC = b"HKLSTM01"
KIND_NAMES = {0: "f32", 1: "codebook", 2: "int8", 3: "split"}


class Reader:
    def __init__(self, b):
        self.b, self.at = b, 0

    def take(self, n):
        if self.at + n > len(self.b):
            raise ValueError(f"lstm section truncated at byte {self.at}")
        s = self.b[self.at: self.at + n]
        self.at += n
        return s

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def f32s(self, n):
        return np.frombuffer(self.take(4 * n), dtype="<f4").astype(np.float32)

    def pad4(self):
        self.at = (self.at + 3) & ~3


def unpack_codes(raw, n, bits):
    """n codes of `bits` bits, bit-packed LSB first."""
    if bits == 8:
        return np.frombuffer(raw, dtype=np.uint8)[:n].astype(np.int64)
    if bits == 4:
        b = np.frombuffer(raw, dtype=np.uint8)[: (n + 1) // 2]
        out = np.empty(2 * len(b), dtype=np.int64)
        out[0::2], out[1::2] = b & 15, b >> 4
        return out[:n]
    bitv = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")[: n * bits]
    return (bitv.reshape(n, bits).astype(np.int64) << np.arange(bits)).sum(1)


def read_matrix(r, rows, cols, desc, may_split=True):
    """Returns the dequantized [rows, cols] f32 matrix; appends a description of its storage to desc."""
    kind, rr, cc, bits = r.u32(), r.u32(), r.u32(), r.u32()
    if (rr, cc) != (rows, cols):
        raise ValueError(f"matrix is {rr}x{cc}, expected {rows}x{cols}")
    n = rows * cols
    if kind == 0:
        desc.append(f"f32[{rows}]")
        return r.f32s(n).reshape(rows, cols)
    if kind == 1:
        k = r.u32()
        if not (1 <= bits <= 8) or not (0 < k <= 256):
            raise ValueError(f"codebook bits {bits}, {k} centroids")
        cent = r.f32s(k)
        ln = r.u64()
        if ln < (n * bits + 7) // 8:
            raise ValueError("codes shorter than the matrix")
        codes = unpack_codes(r.take(ln), n, bits)
        r.pad4()
        if codes.max() >= k:
            raise ValueError(f"code {codes.max()} >= {k} centroids")
        desc.append(f"codebook{bits}[{rows}, {k} centroids]")
        return cent[codes].reshape(rows, cols)
    if kind == 2:
        scales = r.f32s(rows)
        codes = np.frombuffer(r.take(n), dtype=np.int8).reshape(rows, cols)
        r.pad4()
        desc.append(f"int8[{rows}]")
        return (codes.astype(np.float32) * scales[:, None]).astype(np.float32)
    if kind == 3 and may_split:
        head_rows = bits
        if head_rows > rows:
            raise ValueError(f"split at row {head_rows} of {rows}")
        desc.append("split(")
        head = read_matrix(r, head_rows, cols, desc, False)
        tail = read_matrix(r, rows - head_rows, cols, desc, False)
        desc.append(")")
        return np.concatenate([head, tail], 0)
    raise ValueError(f"unknown matrix kind {kind}")


def lstm_section(data):
    if data[:8] != MAGIC:
        raise ValueError("not a henkan model (bad magic)")
    version, count = struct.unpack_from("<II", data, 8)
    for i in range(count):
        kind, _, off, ln, crc, _ = struct.unpack_from("<IIQQII", data, 16 + 32 * i)
        if kind == LSTM_KIND:
            sec = data[off: off + ln]
            if len(sec) != ln or zlib.crc32(sec) != crc:
                raise ValueError("Lstm section truncated or CRC mismatch")
            return version, sec
    raise ValueError("the model has no Lstm section (kind 6)")


def decode(path):
    data = open(path, "rb").read()
    version, sec = lstm_section(data)
    r = Reader(sec)
    if r.take(8) != LSTM_MAGIC:
        raise ValueError("bad Lstm magic")
    V, H, unk_id, bos_id = r.u32(), r.u32(), r.u32(), r.u32()
    info = {"container_version": version, "vocab_size": V, "hidden": H, "unk_id": unk_id, "bos_id": bos_id}
    t = {}
    for name, rows in [("embedding", V), ("w_ih", 4 * H), ("w_hh", 4 * H)]:
        desc = []
        t[name] = np.ascontiguousarray(read_matrix(r, rows, H, desc))
        info[name] = " ".join(desc).replace("( ", "(").replace(" )", ")")
    t["b"] = r.f32s(4 * H)
    t["out_bias"] = r.f32s(V)
    if r.at != len(sec):
        raise ValueError(f"{len(sec) - r.at} trailing bytes in the Lstm section")
    return t, info


def check(t, info, data_dir, limit):
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import torch
    import torch.nn.functional as F
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from train_lstm import LM, evaluate
    V, H = info["vocab_size"], info["hidden"]
    unk_id, bos_id = info["unk_id"], info["bos_id"]
    model = LM(V, H, H)
    with torch.no_grad():
        model.embedding.weight.copy_(torch.from_numpy(t["embedding"]))
        model.lstm.weight_ih_l0.copy_(torch.from_numpy(t["w_ih"]))
        model.lstm.weight_hh_l0.copy_(torch.from_numpy(t["w_hh"]))
        model.lstm.bias_ih_l0.copy_(torch.from_numpy(t["b"]))
        model.lstm.bias_hh_l0.zero_()
        model.out_bias.copy_(torch.from_numpy(t["out_bias"]))
    model.eval()
    W, ob = model.embedding.weight, model.out_bias
    res = {}
    for d in ["chat", "kwdlc", "wac"]:
        p = os.path.join(data_dir, f"dev_{d}.bin")
        if not os.path.exists(p):
            continue
        s = np.fromfile(p, dtype=np.int32).astype(np.int64)
        s = np.where((s < 0) | (s >= V), unk_id, s)
        # as `henkan eval perplexity`: first `limit` targets, zero state at every <s>
        ids = s[: limit + 1]
        starts = np.flatnonzero(ids[:-1] == bos_id)
        if len(starts) == 0 or starts[0] != 0:
            starts = np.concatenate([[0], starts])
        bounds = list(starts) + [len(ids) - 1]
        nll, n, nllk, nk = 0.0, 0, 0.0, 0
        with torch.no_grad():
            for a, b in zip(bounds[:-1], bounds[1:]):
                x = torch.from_numpy(ids[a:b]).unsqueeze(1)
                y = torch.from_numpy(ids[a + 1: b + 1])
                h, _ = model(x, None)
                lp = F.log_softmax(h[:, 0] @ W.t() + ob, -1)
                l = -lp[torch.arange(len(y)), y].double()
                nll += float(l.sum())
                n += len(y)
                k = y != unk_id
                nllk += float(l[k].sum())
                nk += int(k.sum())
        ppl_all, ppl_known, cnt = evaluate(model, s, V, unk_id)
        res[d] = {"reset_at_s": {"tokens": n, "perplexity": math.exp(nll / n),
                                 "perplexity_no_unk": math.exp(nllk / max(nk, 1))},
                  "trainer_eval": {"tokens": cnt, "perplexity": ppl_all, "perplexity_no_unk": ppl_known}}
        print(json.dumps({d: res[d]}), flush=True)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="models/henkan.henkan")
    ap.add_argument("--out", default="build/lm-ft/shipped", help="directory for lstm.safetensors + vocab.tsv")
    ap.add_argument("--vocab", default="build/lm/vocab.tsv", help="the vocabulary the LM was trained with")
    ap.add_argument("--check", default=None, metavar="DIR", help="also compute dev perplexities (PyTorch) "
                    "on DIR/dev_*.bin")
    ap.add_argument("--limit", type=int, default=5000, help="tokens for the reset-at-<s> figure (as the CLI)")
    ap.add_argument("--weights", default=None, metavar="X.safetensors",
                    help="only evaluate this f32 export (with --check); no container is read, nothing is written")
    a = ap.parse_args()
    if a.weights:
        if not a.check:
            sys.exit("--weights needs --check DIR")
        from safetensors import safe_open
        from safetensors.numpy import load_file
        t = load_file(a.weights)
        with safe_open(a.weights, "np") as f:
            md = f.metadata()
        info = {"vocab_size": int(md["vocab_size"]), "hidden": int(md["hidden"]), "unk_id": int(md["unk_id"]),
                "bos_id": int(md["bos_id"])}
        check(t, info, a.check, a.limit)
        return
    t, info = decode(a.model)
    V, H = info["vocab_size"], info["hidden"]
    rows = [line.rstrip("\n").split("\t") for line in open(a.vocab, encoding="utf-8")]
    if len(rows) != V:
        sys.exit(f"{a.vocab} has {len(rows)} ids, the model's LM {V}")
    ids = {r[1]: int(r[0]) for r in rows}
    if ids.get("<unk>") != info["unk_id"] or ids.get("<s>") != info["bos_id"]:
        sys.exit(f"{a.vocab}: <unk>={ids.get('<unk>')} <s>={ids.get('<s>')}, the model's LM has "
                 f"<unk>={info['unk_id']} <s>={info['bos_id']}")
    os.makedirs(a.out, exist_ok=True)
    from safetensors.numpy import save_file
    meta = {"vocab_size": str(V), "emb": str(H), "hidden": str(H), "unk_id": str(info["unk_id"]),
            "bos_id": str(info["bos_id"]), "gate_order": "i,f,g,o", "steps": "0", "tokens": "0",
            "source": f"dequantized from {os.path.basename(a.model)} (embedding {info['embedding']}, "
                      f"w_ih {info['w_ih']}, w_hh {info['w_hh']})"}
    out = os.path.join(a.out, "lstm.safetensors")
    save_file({k: np.ascontiguousarray(v, dtype=np.float32) for k, v in t.items()}, out + ".tmp", metadata=meta)
    os.chmod(out + ".tmp", 0o644)
    os.replace(out + ".tmp", out)
    dst = os.path.join(a.out, "vocab.tsv")
    if os.path.abspath(a.vocab) != os.path.abspath(dst):
        shutil.copyfile(a.vocab, dst)
    print(json.dumps({"out": out, "bytes": os.path.getsize(out), **info}), flush=True)
    if a.check:
        check(t, info, a.check, a.limit)


if __name__ == "__main__":
    main()
