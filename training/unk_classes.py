#!/usr/bin/env python3
"""Out-of-vocabulary words by class: one `<unk:CLASS>` LM word per group of parts of speech, so that the LM
says what kind of rare word fits a context (a サ変 noun such as `帰社` where `した` follows, a place name after
`から`) instead of one `<unk>` for all of them. The lattice's own unknown words (and the analyzer's `<unk>`)
keep the plain `<unk>`.

A word's class is that of its left POS id (Mozc's `id.def`), see `class_of`. The class words are appended
after the ids of an existing vocabulary (the shipped LM's words keep their ids).

  vocab:  --vocab-tsv's rows, then one `<unk:CLASS>` row per class, counted over the training text as
          vocab.py counts it; `<unk>` keeps only what no class takes (the analyzer's unknown words). Writes
          OUT/vocab.tsv, OUT/classes.tsv (left id -> class id) and the dev streams OUT/dev_{chat,kwdlc,wac}.bin
          (the first --dev-sents sentences, as vocab.py).
  init:   the LM export --lstm extended to the class rows: a class's embedding row is the mean row of the
          LM's words of that class past the 4,096 most frequent (its share of the rare words' meaning), its
          output bias `<unk>`'s plus log(class count / `<unk>` count before); `<unk>`'s own bias loses
          log(count before / after).

classes.tsv travels beside vocab.tsv: vocab.py and mix_stream.py write every out-of-vocabulary word of a
stream as its class when it is there, export.py copies it, and `henkan model attach lstm` stores it in the
model.

  python3 training/unk_classes.py vocab --vocab-tsv build/lm-ft/shipped/vocab.tsv --id-def MOZC/id.def --out D
  python3 training/vocab.py --vocab-tsv D/vocab.tsv --weights kwdlc=10,... --out D
  python3 training/unk_classes.py init --lstm build/lm-ft/shipped/lstm.safetensors --vocab-dir D --out D/init.safetensors
"""
import argparse
import collections
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import extend_vocab  # noqa: E402
import vocab  # noqa: E402

HEAD_ROWS = 4096
PREFIX = "<unk:"


def class_of(pos):
    """The class name of a POS (id.def's comma-separated fields after the id)."""
    p = pos.split(",") + ["*"] * 7
    if p[0] == "名詞":
        if p[1] == "固有名詞":
            return "名詞,固有名詞," + (p[2] if p[2] in ("人名", "地域", "組織") else "一般")
        if p[1] in ("サ変接続", "形容動詞語幹", "副詞可能", "数", "接尾"):
            return "名詞," + p[1]
        return "名詞,一般"
    if p[0] == "動詞":
        if p[1] != "自立":
            return "動詞,非自立"
        if p[5].startswith("連用"):
            return "動詞,連用"
        if p[5] == "基本形":
            return "動詞,基本"
        return "動詞,その他"
    if p[0] in ("形容詞", "副詞", "接頭詞", "記号"):
        return p[0]
    return "その他"


def read_id_def(path):
    """{left id (str): class name} of every POS id of id.def."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            n, pos = line.split()
            out[n] = class_of(pos)
    return out


def class_names(by_id):
    """The classes, in a fixed order (sorted names)."""
    return sorted(set(by_id.values()))


def key_class(key, by_id):
    """The class of a word key `surface/reading/left/right`, or None (`<unk>`, `<s>`, ill-formed keys)."""
    p = extend_vocab.pos_of(key)
    return by_id.get(p[0]) if p else None


def cmd_vocab(a):
    old = extend_vocab.read_vocab(a.vocab_tsv)
    by_id = read_id_def(a.id_def)
    names = class_names(by_id)
    known = {k for k, _ in old}
    counts = extend_vocab.count_corpus(a.corpus)
    per = collections.Counter()
    for k, c in counts.items():
        if k not in known:
            cl = key_class(k, by_id)
            if cl:
                per[cl] += c
    moved = sum(per.values())
    rows = [(k, c - moved if k == vocab.UNK else c) for k, c in old]
    rows += [(PREFIX + n + ">", per[n]) for n in names]
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "vocab.tsv"), "w", encoding="utf-8") as f:
        for i, (k, c) in enumerate(rows):
            f.write(f"{i}\t{k}\t{int(c)}\n")
    first = len(old)
    with open(os.path.join(a.out, "classes.tsv"), "w", encoding="utf-8") as f:
        for n in sorted(by_id, key=int):
            f.write(f"{n}\t{first + names.index(by_id[n])}\n")
    ids = {k: i for i, (k, _) in enumerate(rows)}
    classes = {left: first + names.index(cl) for left, cl in by_id.items()}
    for name in ["chat", "kwdlc", "wac"]:
        sents = vocab.read_sents(os.path.join(a.corpus, "dev", name + ".txt"))[: a.dev_sents]
        enc = vocab.encode_sents(sents, ids, ids[vocab.UNK], ids[vocab.BOS], classes)
        arr = np.array(enc + [ids[vocab.BOS]], dtype=np.int32)
        arr.tofile(os.path.join(a.out, f"dev_{name}.bin"))
    for n in names:
        print(f"{PREFIX}{n}>\t{int(per[n])}", file=sys.stderr)
    print(f"{a.out}/vocab.tsv: {len(old)} ids kept, {len(names)} classes appended; <unk> keeps "
          f"{int(rows[ids[vocab.UNK]][1])}", file=sys.stderr)


def read_classes(d):
    """{left id (str): LM id (str)} of D/classes.tsv."""
    with open(os.path.join(d, "classes.tsv"), encoding="utf-8") as f:
        return dict(line.split() for line in f)


def cmd_init(a):
    t, meta = extend_vocab.load_lstm(a.lstm)
    rows = extend_vocab.read_vocab(os.path.join(a.vocab_dir, "vocab.tsv"))
    emb, bias = t["embedding"], t["out_bias"]
    v0, v = emb.shape[0], len(rows)
    keys = [k for k, _ in rows]
    counts = np.array([c for _, c in rows], dtype=np.float64)
    unk = keys.index(vocab.UNK)
    lm_of = read_classes(a.vocab_dir)
    members = collections.defaultdict(list)
    for i in range(HEAD_ROWS, v0):
        p = extend_vocab.pos_of(keys[i])
        if p and p[0] in lm_of:
            members[int(lm_of[p[0]])].append(i)
    tail_mean = emb[min(HEAD_ROWS, v0 - 1):v0].mean(0)
    emb2 = np.zeros((v, emb.shape[1]), np.float32)
    emb2[:v0] = emb
    bias2 = np.zeros(v, np.float32)
    bias2[:v0] = bias
    before = counts[unk] + counts[v0:].sum()
    for i in range(v0, v):
        ix = members.get(i)
        emb2[i] = emb[ix].mean(0) if ix and len(ix) >= 3 else tail_mean
        bias2[i] = bias[unk] + np.log(max(counts[i], 1) / before)
    bias2[unk] = bias[unk] + np.log(max(counts[unk], 1) / before)
    out = dict(t)
    out["embedding"], out["out_bias"] = emb2, bias2
    extend_vocab.save_lstm(a.out, out, meta)
    print(f"{a.out}: {v - v0} class rows appended to {v0}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("vocab")
    p.add_argument("--vocab-tsv", required=True, help="the vocabulary whose ids are kept")
    p.add_argument("--id-def", required=True, help="Mozc's id.def")
    p.add_argument("--corpus", default="build/corpus")
    p.add_argument("--dev-sents", type=int, default=3000)
    p.add_argument("--out", required=True)
    p = sub.add_parser("init")
    p.add_argument("--lstm", required=True, help="the LM's lstm.safetensors")
    p.add_argument("--vocab-dir", required=True, help="what `vocab` wrote")
    p.add_argument("--out", required=True)
    a = ap.parse_args()
    {"vocab": cmd_vocab, "init": cmd_init}[a.cmd](a)


if __name__ == "__main__":
    main()
