#!/usr/bin/env python3
"""A larger LM vocabulary, for a larger model: the shipped LM's words keep their ids and the next most frequent
words of the training text are appended; and the shipped LM's weights extended to it, each new word's rows
started from what the LM knows of words like it (BENCHMARKS.md, "Measured and not kept": the 100,000-word
vocabulary).

  vocab:  counts the analyzed training text as training/vocab.py does (modern text x3, Aozora x1, every
          sentence), keeps the ids of --vocab-tsv and appends its --size most frequent other words (ties by
          key); `<unk>` keeps its id and loses the new words' count. Writes OUT/vocab.tsv and the dev streams
          OUT/dev_{chat,kwdlc,wac}.bin in the new ids (the first --dev-sents sentences, as vocab.py).
  init:   the LM export --lstm (training/export.py's or `henkan model export-lstm`'s lstm.safetensors, over the
          first ids of --vocab) extended to every id of --vocab: a new word's embedding row is the mean row of
          the LM's words with its POS ids (left and right; else its left id; else every word past the 4,096
          most frequent), plus, when the word vectors (training/coherence_vectors.py's words.tsv and
          vectors.f32) have its surface, a ridge map (λ 1) from its vector to what the LM's words differ from
          their POS mean; its output bias a line in log count fitted on the LM's words past the 4,096 most
          frequent; `<unk>`'s output bias loses log(its count before / after). numpy only, so it runs where
          the text is not (an accelerator).

  python3 training/extend_vocab.py vocab --vocab-tsv build/lm/vocab.tsv --size 50000 --corpus build/corpus --out build/lm-large
  python3 training/extend_vocab.py init --lstm EXPORT/lstm.safetensors --vocab build/lm-large/vocab.tsv \\
      --vectors build/coherence/vectors --out INIT/lstm.safetensors
"""
import argparse
import collections
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vocab  # noqa: E402
from coherence_vectors import read_words  # noqa: E402

HEAD_ROWS = 4096


def read_vocab(path):
    """[(key, count)] in id order."""
    rows = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            n, key, count = line.rstrip("\n").split("\t")
            if int(n) != i:
                sys.exit(f"{path}: line {i + 1} has id {n}")
            rows.append((key, float(count)))
    return rows


def extended_vocab(old, counts, size):
    """The rows of `old` ([(key, count)]) with `size` new words appended, the most frequent of `counts` not in
    `old` first (ties by key); `<unk>` counts what it counted less the new words' count."""
    known = {k for k, _ in old}
    new = sorted(((k, c) for k, c in counts.items() if k not in known and k not in (vocab.UNK, vocab.BOS)),
                 key=lambda kc: (-kc[1], kc[0]))[:size]
    moved = sum(c for _, c in new)
    rows = [(k, c - moved if k == vocab.UNK else c) for k, c in old]
    return rows + new


def count_corpus(corpus):
    """Weighted counts of every word of the analyzed training text, as vocab.py counts them."""
    counts = collections.Counter()
    for name in vocab.MODERN + vocab.OLD:
        vocab.add_counts(counts, name, vocab.read_sents(os.path.join(corpus, "train", name + ".txt")))
    return counts


def cmd_vocab(a):
    old = read_vocab(a.vocab_tsv)
    rows = extended_vocab(old, count_corpus(a.corpus), a.size)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "vocab.tsv"), "w", encoding="utf-8") as f:
        for i, (k, c) in enumerate(rows):
            f.write(f"{i}\t{k}\t{int(c)}\n")
    ids = {k: i for i, (k, _) in enumerate(rows)}
    unk_id, bos_id = ids[vocab.UNK], ids[vocab.BOS]
    for name in ["chat", "kwdlc", "wac"]:
        sents = vocab.read_sents(os.path.join(a.corpus, "dev", name + ".txt"))[: a.dev_sents]
        ids_arr = np.array(vocab.encode_sents(sents, ids, unk_id, bos_id) + [bos_id], dtype=np.int32)
        ids_arr.tofile(os.path.join(a.out, f"dev_{name}.bin"))
        oov = float(np.mean(ids_arr == unk_id))
        print(f"dev {name}: {len(ids_arr)} ids, <unk> {oov:.4f}", file=sys.stderr)
    print(f"{a.out}/vocab.tsv: {len(old)} ids kept, {len(rows) - len(old)} appended (the last counted "
          f"{int(rows[-1][1])})", file=sys.stderr)


def pos_of(key):
    """The (left, right) POS ids of a word key `surface/reading/left/right`, or None."""
    p = key.split("/")
    return (p[-2], p[-1]) if len(p) >= 4 else None


def read_vectors(d):
    """{surface: vector} of training/coherence_vectors.py's output directory."""
    rows, vecs = read_words(d)
    return {s: vecs[r] for s, r in rows.items()}


def extend_weights(t, rows, vectors):
    """`t` (the LM's tensors over the first ids of `rows`) with `embedding` and `out_bias` extended to every
    row of `rows` ([(key, count)]); see the module docs. Returns (tensors, report)."""
    emb, bias = t["embedding"], t["out_bias"]
    v0, v = emb.shape[0], len(rows)
    if v < v0:
        sys.exit(f"the vocabulary has {v} ids, the LM {v0}")
    keys = [k for k, _ in rows]
    counts = np.array([c for _, c in rows], dtype=np.float64)
    unk = keys.index(vocab.UNK)
    by_pos, by_left = collections.defaultdict(list), collections.defaultdict(list)
    for i in range(v0):
        p = pos_of(keys[i])
        if p:
            by_pos[p].append(i)
            by_left[p[0]].append(i)
    tail_mean = emb[min(HEAD_ROWS, v0 - 1):v0].mean(0)
    pos_mean = {p: emb[ix].mean(0) for p, ix in by_pos.items() if len(ix) >= 3}
    left_mean = {p: emb[ix].mean(0) for p, ix in by_left.items()}

    def base(key):
        p = pos_of(key)
        if p in pos_mean:
            return pos_mean[p]
        if p and p[0] in left_mean:
            return left_mean[p[0]]
        return tail_mean

    # a ridge map from a word's vector to its row's difference from its POS mean
    xs, ys = [], []
    for i in range(v0):
        s = keys[i].split("/")[0]
        if s in vectors and pos_of(keys[i]):
            xs.append(vectors[s])
            ys.append(emb[i] - base(keys[i]))
    ridge = None
    if len(xs) > 1:
        x, y = np.array(xs, dtype=np.float64), np.array(ys, dtype=np.float64)
        ridge = np.linalg.solve(x.T @ x + np.eye(x.shape[1]), x.T @ y)
    tail = np.arange(min(HEAD_ROWS, v0 - 2), v0)
    a = np.stack([np.ones(len(tail)), np.log(np.maximum(counts[tail], 1))], 1)
    coef = np.linalg.lstsq(a, bias[tail].astype(np.float64), rcond=None)[0]
    emb2 = np.zeros((v, emb.shape[1]), np.float32)
    emb2[:v0] = emb
    bias2 = np.zeros(v, np.float32)
    bias2[:v0] = bias
    with_vector = 0
    for i in range(v0, v):
        row = base(keys[i]).astype(np.float64)
        s = keys[i].split("/")[0]
        if ridge is not None and s in vectors:
            row = row + vectors[s] @ ridge
            with_vector += 1
        emb2[i] = row
        bias2[i] = coef[0] + coef[1] * np.log(max(counts[i], 1))
    before = counts[unk] + counts[v0:].sum()
    if v > v0 and counts[unk] > 0:
        bias2[unk] = bias[unk] + np.log(counts[unk] / before)
    out = dict(t)
    out["embedding"], out["out_bias"] = emb2, bias2
    return out, f"{v - v0} rows appended to {v0}, {with_vector} of them with a word vector"


def load_lstm(path):
    """An LM export's tensors and metadata."""
    from safetensors import safe_open
    from safetensors.numpy import load_file

    with safe_open(path, framework="np") as f:
        meta = dict(f.metadata() or {})
    return load_file(path), meta


def save_lstm(path, tensors, meta):
    """Writes an LM export, its metadata's vocab_size that of its embedding."""
    from safetensors.numpy import save_file

    if "vocab_size" in meta:
        meta = dict(meta, vocab_size=str(tensors["embedding"].shape[0]))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    save_file({k: np.ascontiguousarray(x) for k, x in tensors.items()}, path, metadata=meta)


def cmd_init(a):
    t, meta = load_lstm(a.lstm)
    vectors = read_vectors(a.vectors) if a.vectors else {}
    out, report = extend_weights(t, read_vocab(a.vocab), vectors)
    save_lstm(a.out, out, meta)
    print(f"{a.out}: {report}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("vocab")
    p.add_argument("--vocab-tsv", required=True, help="the vocabulary whose ids are kept")
    p.add_argument("--size", type=int, required=True, help="words to append")
    p.add_argument("--corpus", default="build/corpus")
    p.add_argument("--dev-sents", type=int, default=3000)
    p.add_argument("--out", required=True)
    p = sub.add_parser("init")
    p.add_argument("--lstm", required=True, help="the LM's lstm.safetensors")
    p.add_argument("--vocab", required=True, help="the extended vocab.tsv")
    p.add_argument("--vectors", default=None, help="training/coherence_vectors.py's output directory")
    p.add_argument("--out", required=True)
    a = ap.parse_args()
    cmd_vocab(a) if a.cmd == "vocab" else cmd_init(a)


if __name__ == "__main__":
    main()
