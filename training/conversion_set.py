#!/usr/bin/env python3
"""A conversion test set from analyzed text: `reading<TAB>text` per line, from `surface/reading/...`
tokens (e.g. `build/corpus/dev/chat.txt`, written by `make corpus-tok`). Lines whose joined reading
has anything but hiragana, ー, digits and common punctuation are skipped. The readings are the
analyzer's guesses (BENCHMARKS.md: 74–89% of sentences fully right), so a figure on such a set
compares engines; it is not an absolute accuracy.

Usage: python3 training/conversion_set.py --tokens build/corpus/dev/chat.txt --limit 2000 > chat.tsv
"""
import argparse
import re
import sys

KANA = re.compile(r"[\u3041-\u3096ー、。！？!?・「」…０-９0-9]+")

ap = argparse.ArgumentParser()
ap.add_argument("--tokens", required=True)
ap.add_argument("--limit", type=int, default=2000)
a = ap.parse_args()

n = 0
with open(a.tokens, encoding="utf-8") as f:
    for line in f:
        parts = [t.split("/") for t in line.split()]
        if not parts or any(len(p) < 2 for p in parts):
            continue
        text = "".join(p[0] for p in parts)
        reading = "".join(p[1] for p in parts)
        if not KANA.fullmatch(reading):
            continue
        sys.stdout.write(f"{reading}\t{text}\n")
        n += 1
        if n >= a.limit:
            break
