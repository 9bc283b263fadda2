#!/usr/bin/env python3
"""Encodes word-cut sentences (one per line, `surface/reading/left/right` keys separated by spaces) as the
int32 id stream that `henkan eval perplexity` and train_lstm.py read: `<s>` before every sentence and at
the end, words outside the vocabulary as `<unk>`.

    python3 training/encode_ids.py --vocab build/lm/vocab.tsv IN.txt OUT.bin
"""
import argparse

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", default="build/lm/vocab.tsv")
    ap.add_argument("input")
    ap.add_argument("output")
    a = ap.parse_args()
    ids = {}
    with open(a.vocab, encoding="utf-8") as f:
        for line in f:
            i, key, _ = line.rstrip("\n").split("\t")
            ids[key] = int(i)
    unk, bos = ids["<unk>"], ids["<s>"]
    out = []
    with open(a.input, encoding="utf-8") as f:
        for line in f:
            out.append(bos)
            out.extend(ids.get(t, unk) for t in line.split())
    out.append(bos)
    np.array(out, dtype=np.int32).tofile(a.output)
    print(f"{a.output}: {len(out)} ids")


if __name__ == "__main__":
    main()
