#!/usr/bin/env python3
"""Vocabulary and id-encoded training/dev data for the word LSTM LM.

Reads the analyzer output of `make corpus-tok` (build/corpus/{train,dev}/*.txt: one sentence per line, tokens
`surface/reading/left_id/right_id` or `<unk>`) and writes, under --out (build/lm):

  vocab.tsv      id<TAB>key<TAB>count  -- the V most frequent words plus `<unk>` and `<s>`, ids sorted by
                 (weighted) count, most frequent first. `<s>` is the sentence boundary (= `</s>`).
                 count = weighted count: modern text (chat, docs, jglue, kwdlc, wac) x3, aozora x1.
                 `<unk>` counts the analyzer's unknown words plus every out-of-vocabulary word.
  train.bin      int32 token ids: the training stream, `<s>` before every sentence. The modern corpora are
                 included 3 times (the same x3 weighting), aozora once; each copy is cut into blocks of 500
                 sentences and all blocks are shuffled (seed 1), so every stretch of the stream mixes domains
                 while keeping short-range document context.
  dev_{chat,kwdlc,wac}.bin  int32 ids of the first --dev-sents sentences of each dev file, `<s>` before
                 every sentence and one at the end.
  vocab_report.txt  coverage figures.

Fine-tuning stream (--weights, with --vocab-tsv): keeps an EXISTING vocabulary (ids unchanged) and writes only
a new training stream under --out: train.bin (corpus `name` repeated `weight` times; a fractional part takes
that fraction of the corpus' blocks, drawn at random; all blocks shuffled, seed --seed), meta.json, and copies
of vocab.tsv and dev_*.bin from the vocabulary's directory, so --out can be train_lstm.py's --vocab-from.
  python3 training/vocab.py --vocab-tsv build/lm/vocab.tsv --out build/lm-ft/data \
      --weights kwdlc=10,wac=10,chat=2,docs=2,jglue=3,aozora=0.5
A fine-tuning stream may also take the corpora of STREAM_ONLY (Tatoeba, `make tatoeba`), which the vocabulary
does not count.
With --save-encoded PATH.npz instead of --out, the corpora named in --weights are written encoded once each
(uint16; uint32 past 65,536 words), for training/mix_stream.py to mix where the text is not (an accelerator, docs/training.md).
Only build/corpus/train/*.txt are read (never the dev files). Training sentences that are only a kanji
numeral (Aozora's section headings) are left out (`is_numeral_heading`).
"""
import argparse
import collections
import json
import os
import random
import sys
import time

import numpy as np

MODERN = ["chat", "docs", "jglue", "kwdlc", "wac"]
OLD = ["aozora"]
# Corpora only a fine-tuning stream takes (--weights): not counted in the vocabulary.
STREAM_ONLY = ["tatoeba"]
WEIGHT_MODERN = 3
UNK, BOS = "<unk>", "<s>"


def write_stream(enc, blocks, block, out):
    """Concatenates the sentence blocks (corpus name, first sentence) of the encoded corpora
    into out/train.bin (written to a temporary name first); returns the token array."""
    parts = []
    for name, i in blocks:
        arr, starts = enc[name]
        j = min(i + block, len(starts) - 1)
        parts.append(arr[starts[i]: starts[j]])
    train = np.concatenate(parts)
    train.tofile(os.path.join(out, "train.bin.part"))
    os.replace(os.path.join(out, "train.bin.part"), os.path.join(out, "train.bin"))
    return train

def read_sents(path):
    with open(path, encoding="utf-8") as f:
        return [line.split() for line in f if line.strip()]


KANJI_NUMERALS = set("〇一二三四五六七八九十百千")
PUNCTUATION = {"。", "、", "．", "."}


def is_numeral_heading(sent):
    """Whether a sentence (its tokens `surface/reading/...`) is only a kanji numeral, maybe with a full
    stop: Aozora's section headings (一, 二, 十一; 4,474 of its 871,753 sentences). They teach the LM that a
    numeral alone makes a sentence (the shipped LM writes `いちいち` typed alone as `一一`).

    >>> is_numeral_heading(["十一/じゅういち/1/1", "。/。/2/2"])
    True
    >>> is_numeral_heading(["一/いち/1/1", "つ/つ/2/2"])
    False
    """
    core = [t.split("/", 1)[0] for t in sent]
    core = [s for s in core if s not in PUNCTUATION]
    return bool(core) and all(s and set(s) <= KANJI_NUMERALS for s in core)


def without_headings(sents):
    """`sents` without the kanji numeral headings (`is_numeral_heading`)."""
    return [s for s in sents if not is_numeral_heading(s)]


def read_train_sents(path):
    """The sentences of a training corpus, without its kanji numeral headings."""
    return without_headings(read_sents(path))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default="build/corpus")
    ap.add_argument("--out", default="build/lm")
    ap.add_argument("--size", type=int, default=50000, help="words besides <unk> and <s>")
    ap.add_argument("--dev-sents", type=int, default=3000)
    ap.add_argument("--block", type=int, default=500)
    ap.add_argument("--weights", default=None, help="fine-tuning stream: name=weight,... (needs --vocab-tsv)")
    ap.add_argument("--vocab-tsv", default=None, help="existing vocab.tsv to encode with (with --weights)")
    ap.add_argument("--seed", type=int, default=1, help="block shuffle seed (with --weights)")
    ap.add_argument("--save-encoded", default=None, metavar="PATH.npz",
                    help="with --weights and --vocab-tsv: write the corpora named in --weights encoded once "
                         "each (uint16, uint32 past 65,536 words) instead of a stream; training/mix_stream.py "
                         "mixes them")
    args = ap.parse_args()
    if args.weights or args.vocab_tsv:
        if not (args.weights and args.vocab_tsv):
            sys.exit("--weights and --vocab-tsv go together")
        return finetune_stream(args)
    os.makedirs(args.out, exist_ok=True)
    t0 = time.time()

    # The vocabulary is counted over every training sentence, the numeral headings included: it is the
    # shipped LM's vocabulary (its ids are the rows of the model's embedding), so leaving the headings out
    # of the streams must not reorder it. Only the streams go without them.
    corpora = {}
    counts = collections.Counter()
    for name in MODERN + OLD:
        sents = read_sents(os.path.join(args.corpus, "train", name + ".txt"))
        add_counts(counts, name, sents)
        corpora[name] = without_headings(sents)
        print(f"read {name}: {len(corpora[name])} sentences ({time.time() - t0:.0f}s)", file=sys.stderr)
    words = [k for k, _ in counts.most_common() if k not in (UNK, BOS)]
    vocab_words = words[: args.size]
    oov_mass = sum(counts[k] for k in words[args.size:])
    final = {k: counts[k] for k in vocab_words}
    final[BOS] = counts[BOS]
    final[UNK] = counts[UNK] + oov_mass
    order = sorted(final.items(), key=lambda kv: (-kv[1], kv[0]))
    ids = {k: i for i, (k, _) in enumerate(order)}
    tmp = os.path.join(args.out, "vocab.tsv.part")
    with open(tmp, "w", encoding="utf-8") as f:
        for i, (k, c) in enumerate(order):
            f.write(f"{i}\t{k}\t{c}\n")
    unk_id, bos_id = ids[UNK], ids[BOS]
    print(f"vocab: {len(order)} ids, <unk>={unk_id} <s>={bos_id}, distinct words seen {len(words)}",
          file=sys.stderr)

    def encode(sents):
        return encode_sents(sents, ids, unk_id, bos_id)

    report = []
    total_w = sum(counts.values())
    report.append(f"vocabulary: {len(order)} ids (50K words + <unk> + <s>); distinct words in training text: "
                  f"{len(words)}; weighted token coverage of training text (excl. <s>): "
                  f"{1 - final[UNK] / (total_w - counts[BOS]):.4f}")
    for name in ["chat", "kwdlc", "wac"]:
        sents = read_sents(os.path.join(args.corpus, "dev", name + ".txt"))
        ntok = sum(len(s) for s in sents)
        n_anal_unk = sum(t == UNK for s in sents for t in s)
        n_oov = sum((t != UNK and t not in ids) for s in sents for t in s)
        clean = sum(all(t in ids and t != UNK for t in s) for s in sents)
        report.append(
            f"dev {name}: {len(sents)} sentences, {ntok} tokens; analyzer <unk> {n_anal_unk / ntok:.4f}; "
            f"out of vocabulary {n_oov / ntok:.4f}; token coverage {1 - (n_anal_unk + n_oov) / ntok:.4f}; "
            f"sentences without any <unk> {clean / len(sents):.4f}")
        arr = np.array(encode(sents[: args.dev_sents]) + [bos_id], dtype=np.int32)
        arr.tofile(os.path.join(args.out, f"dev_{name}.bin"))

    rng = random.Random(1)
    blocks = []
    for name, sents in corpora.items():
        reps = WEIGHT_MODERN if name in MODERN else 1
        for _ in range(reps):
            for i in range(0, len(sents), args.block):
                blocks.append((name, i))
    rng.shuffle(blocks)
    enc = {name: None for name in corpora}
    for name, sents in corpora.items():
        # encode each corpus once; blocks index into per-sentence offsets
        flat = encode(sents)
        starts = np.flatnonzero(np.array(flat, dtype=np.int32) == bos_id)
        enc[name] = (np.array(flat, dtype=np.int32), np.append(starts, len(flat)))
        print(f"encoded {name} ({time.time() - t0:.0f}s)", file=sys.stderr)
    train = write_stream(enc, blocks, args.block, args.out)
    report.append(f"train stream: {len(train)} tokens (incl. <s>; modern x{WEIGHT_MODERN}) in {len(blocks)} "
                  f"blocks of {args.block} sentences")
    with open(os.path.join(args.out, "meta.json"), "w") as f:
        json.dump({"vocab_size": len(order), "unk_id": unk_id, "bos_id": bos_id,
                   "train_tokens": int(len(train)), "weight_modern": WEIGHT_MODERN}, f)
    with open(os.path.join(args.out, "vocab_report.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    print("\n".join(report), file=sys.stderr)
    os.replace(tmp, os.path.join(args.out, "vocab.tsv"))
    print(f"done in {time.time() - t0:.0f}s", file=sys.stderr)


def add_counts(counts, name, sents):
    """Adds the words of corpus `name`'s sentences to `counts`, weighted as the vocabulary counts them
    (modern text WEIGHT_MODERN, Aozora 1), and `<s>` once per sentence."""
    w = WEIGHT_MODERN if name in MODERN else 1
    c = collections.Counter()
    for s in sents:
        c.update(s)
    c[BOS] += len(sents)
    for k, v in c.items():
        counts[k] += w * v


def encode_sents(sents, ids, unk_id, bos_id, classes=None):
    """The sentences as one id list, `<s>` before each; words outside `ids` are `<unk>`, or with `classes`
    ({left POS id: LM id}, an LM with `<unk>` classes: training/unk_classes.py) their left id's class."""
    out = []
    if not classes:
        for s in sents:
            out.append(bos_id)
            out.extend(ids.get(t, unk_id) for t in s)
        return out
    memo = {}
    for s in sents:
        out.append(bos_id)
        for t in s:
            i = ids.get(t)
            if i is None:
                i = memo.get(t)
                if i is None:
                    p = t.split("/")
                    i = memo[t] = classes.get(p[-2], unk_id) if len(p) >= 4 else unk_id
            out.append(i)
    return out


def classes_beside(vocab_tsv):
    """{left POS id (str): LM id} of the `classes.tsv` beside `vocab_tsv` (an LM with `<unk>` classes), or None."""
    path = os.path.join(os.path.dirname(os.path.abspath(vocab_tsv)), "classes.tsv")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return {left: int(i) for left, i in (line.split() for line in f)}


def parse_weights(spec):
    """`name=weight,...` -> {name: weight}, corpora of MODERN + OLD + STREAM_ONLY only."""
    weights = {}
    known = MODERN + OLD + STREAM_ONLY
    for part in spec.split(","):
        name, w = part.split("=")
        if name not in known:
            sys.exit(f"unknown corpus {name} (known: {', '.join(known)})")
        weights[name] = float(w)
    return weights


def encode_corpora(corpus, names, vocab_tsv):
    """Each training corpus of `names` encoded with an existing vocabulary (and its `<unk>` classes, when a
    classes.tsv is beside it): {name: (ids, starts)}, ids int32 with `<s>` before every sentence, starts the
    offsets of the sentences plus the end; and (unk_id, bos_id)."""
    ids = {}
    with open(vocab_tsv, encoding="utf-8") as f:
        for line in f:
            i, k, _ = line.rstrip("\n").split("\t")
            ids[k] = int(i)
    unk_id, bos_id = ids[UNK], ids[BOS]
    classes = classes_beside(vocab_tsv)
    enc = {}
    for name in names:
        sents = read_train_sents(os.path.join(corpus, "train", name + ".txt"))
        flat = np.array(encode_sents(sents, ids, unk_id, bos_id, classes), dtype=np.int32)
        enc[name] = (flat, np.append(np.flatnonzero(flat == bos_id), len(flat)))
    return enc, (unk_id, bos_id)


def save_encoded(path, enc, special):
    """The encoded corpora as one .npz: uint16 ids, or uint32 for a vocabulary of 65,536 words or more (a larger
    model's, training/extend_vocab.py)."""
    arrays = {"special": np.array(special, dtype=np.int32)}
    wide = any(flat.max(initial=0) >= 1 << 16 for flat, _ in enc.values())
    for name, (flat, _) in enc.items():
        arrays[name] = flat.astype(np.uint32 if wide else np.uint16)
    np.savez(path, **arrays)


def load_encoded(path, names):
    """What save_encoded wrote: {name: (ids, starts)} for `names`, and (unk_id, bos_id)."""
    z = np.load(path)
    unk_id, bos_id = (int(v) for v in z["special"])
    enc = {}
    for name in names:
        flat = z[name].astype(np.int32)
        enc[name] = (flat, np.append(np.flatnonzero(flat == bos_id), len(flat)))
    return enc, (unk_id, bos_id)


def mix_stream(enc, weights, block, seed, out):
    """Writes out/train.bin: corpus `name` repeated `weight` times (a fractional part takes that fraction of
    its blocks of `block` sentences, drawn at random), all blocks shuffled (seed). Returns (tokens, report)."""
    rng = random.Random(seed)
    blocks, report = [], []
    for name, w in weights.items():
        flat, starts = enc[name]
        nb = list(range(0, len(starts) - 1, block))
        reps = int(w)
        chosen = nb * reps
        frac = w - reps
        if frac > 0:
            chosen += sorted(rng.sample(nb, round(frac * len(nb))))
        blocks += [(name, i) for i in chosen]
        report.append(f"{name}: {len(starts) - 1} sentences, {len(flat)} ids, weight {w:g} -> {len(chosen)} blocks")
    rng.shuffle(blocks)
    train = write_stream(enc, blocks, block, out)
    report.append(f"train stream: {len(train)} tokens (incl. <s>) in {len(blocks)} blocks of {block} sentences, "
                  f"seed {seed}")
    return train, report


def finetune_stream(args):
    """A new train.bin over an existing vocabulary, with per-corpus repeat weights; or, with --save-encoded,
    the corpora encoded once each for mix_stream.py (the accelerator bundle, docs/training.md)."""
    import shutil
    t0 = time.time()
    weights = parse_weights(args.weights)
    enc, (unk_id, bos_id) = encode_corpora(args.corpus, list(weights), args.vocab_tsv)
    print(f"encoded {', '.join(weights)} ({time.time() - t0:.0f}s)", file=sys.stderr)
    if args.save_encoded:
        save_encoded(args.save_encoded, enc, (unk_id, bos_id))
        return
    os.makedirs(args.out, exist_ok=True)
    train, report = mix_stream(enc, weights, args.block, args.seed, args.out)
    src_dir = os.path.dirname(os.path.abspath(args.vocab_tsv))
    if os.path.abspath(args.out) != src_dir:
        for fn in ["vocab.tsv", "classes.tsv"] + [f"dev_{d}.bin" for d in ["chat", "kwdlc", "wac"]]:
            if os.path.exists(os.path.join(src_dir, fn)):
                shutil.copyfile(os.path.join(src_dir, fn), os.path.join(args.out, fn))
    report[-1] += f", weights {args.weights}"
    with open(os.path.join(args.out, "meta.json"), "w") as f:
        json.dump({"vocab_size": vocab_size(args.vocab_tsv), "unk_id": unk_id, "bos_id": bos_id,
                   "train_tokens": int(len(train)), "weights": weights, "vocab_from": args.vocab_tsv}, f)
    with open(os.path.join(args.out, "stream_report.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    print("\n".join(report) + f"\ndone in {time.time() - t0:.0f}s", file=sys.stderr)


def vocab_size(vocab_tsv):
    with open(vocab_tsv, encoding="utf-8") as f:
        return sum(1 for _ in f)


if __name__ == "__main__":
    main()
