#!/usr/bin/env python3
"""A conversion test set from analyzed text: `reading<TAB>text` per line, from `surface/reading/...`
tokens (e.g. `build/corpus/dev/chat.txt`, written by `make corpus-tok`). Lines whose joined reading
has anything but hiragana, ー, digits and common punctuation are skipped. A number of two or more
digits is read as typed, as its digits. The readings are the
analyzer's guesses (BENCHMARKS.md: 74–89% of sentences fully right), so a figure on such a set
compares engines; it is not an absolute accuracy.

Usage: python3 training/conversion_set.py --tokens build/corpus/dev/chat.txt --limit 2000 > chat.tsv
"""
import argparse
import re
import sys

KANA = re.compile(r"[\u3041-\u3096ー、。！？!?・「」…０-９0-9]+")


def typed_readings(parts):
    """Each token's reading as a user types it: a number of two or more digits, which the analyzer
    reads digit by digit (`100` as `いちぜろぜろ`), is typed as its digits; a single digit keeps its
    reading (`3人` as `さんにん`)."""
    digit = [p[0].isascii() and p[0].isdigit() for p in parts]
    for i, p in enumerate(parts):
        in_run = digit[i] and ((i > 0 and digit[i - 1]) or (i + 1 < len(parts) and digit[i + 1]))
        yield p[0] if in_run else p[1]


def conversion_pair(line):
    """`(reading, text)` of one analyzed line, or `None` when its reading has anything but kana,
    digits and common punctuation."""
    parts = [t.split("/") for t in line.split()]
    if not parts or any(len(p) < 2 for p in parts):
        return None
    text = "".join(p[0] for p in parts)
    reading = "".join(typed_readings(parts))
    if not KANA.fullmatch(reading):
        return None
    return reading, text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", required=True)
    ap.add_argument("--limit", type=int, default=2000)
    a = ap.parse_args()
    n = 0
    with open(a.tokens, encoding="utf-8") as f:
        for line in f:
            pair = conversion_pair(line)
            if pair is None:
                continue
            sys.stdout.write(f"{pair[0]}\t{pair[1]}\n")
            n += 1
            if n >= a.limit:
                break


if __name__ == "__main__":
    main()
