#!/usr/bin/env python3
"""Writes a data directory (train.bin, dev_*.bin, vocab.tsv, meta.json of training/vocab.py) with every
stream reversed: each sentence's words right to left, `<s>` still between sentences — the training data of
a backward LM (reversing the whole stream reverses each sentence and keeps the boundaries).

    python3 training/reverse_stream.py --src build/lm-ft/data --out build/lm-back/data
"""
import argparse
import os
import shutil

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name in sorted(os.listdir(a.src)):
        p = os.path.join(a.src, name)
        if name.endswith(".bin"):
            arr = np.fromfile(p, dtype=np.int32)
            arr[::-1].copy().tofile(os.path.join(a.out, name))
            print(f"{name}: {len(arr)} ids reversed")
        elif name in ("vocab.tsv", "meta.json"):
            shutil.copy(p, os.path.join(a.out, name))


if __name__ == "__main__":
    main()
