#!/usr/bin/env python3
"""wac.dev with the readings a keyboard can type: `reading<TAB>text` lines as the input has them,
except that in a reading
- the part-of-speech tags of the tool that made it are taken out (`特殊-空白` where a space was,
  `:名詞-数詞`, `接尾辞-名詞性名詞助数辞`: kanji or katakana joined by `-`, which no reading has);
- a word given two readings (`にほん／にっぽん`, as the gold tokens have them) keeps the first.

58 of wac.dev's 443 readings have one or the other (BENCHMARKS.md, "Method"); the other lines are
copied as they are. The figures of the set as given stay the reference; this one says what the
engine does where the input is what a user would type.

Usage: python3 training/clean_readings.py --tsv ../shared/data/dev/wac.dev.tsv \
  --tokens ../shared/data/dev/wac.dev.tok > build/corpus/dev/wac.clean.tsv
"""
import argparse
import re
import sys

TAG = re.compile(r":?[\u4e00-\u9fff\u30a0-\u30ff]+(?:-[\u4e00-\u9fff\u30a0-\u30ff]+)+")


def clean(reading, tokens):
    """`reading` without tags and with the first of each word's two readings; `tokens` are the
    sentence's gold tokens `surface/reading/POS`."""
    out = TAG.sub("", reading)
    for t in tokens:
        parts = t.split("/")
        if len(parts) < 3:
            continue
        surface, both = parts[0], "/".join(parts[1:-1])
        # a slash the text writes (`TotalBases／TB`) is read as it is
        if "／" in both and "／" not in surface:
            out = out.replace(both, both.split("／")[0], 1)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsv", required=True)
    ap.add_argument("--tokens", required=True)
    a = ap.parse_args()
    with open(a.tsv, encoding="utf-8") as f:
        pairs = [line.rstrip("\n").split("\t") for line in f]
    with open(a.tokens, encoding="utf-8") as f:
        tokens = [line.rstrip("\n").split(" ") for line in f]
    if len(pairs) != len(tokens):
        sys.exit(f"{len(pairs)} sentences against {len(tokens)} token lines")
    changed = 0
    for (reading, text), toks in zip(pairs, tokens):
        new = clean(reading, toks)
        changed += new != reading
        print(f"{new}\t{text}")
    print(f"{changed} readings cleaned", file=sys.stderr)


if __name__ == "__main__":
    main()
