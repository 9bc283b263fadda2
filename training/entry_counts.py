#!/usr/bin/env python3
"""Count how often each dictionary entry occurs in the analyzed training corpus.

Reads the token files of `make corpus-tok` (tokens `surface/reading/left_id/right_id`,
percent-escaped, see docs/training.md) and writes `reading<TAB>surface<TAB>left<TAB>right<TAB>count`
lines, most frequent first. The model builder keeps these entries when it prunes the
dictionary (`henkan model build --keep FILE`). Only the training corpus is read — never the dev sets.

Usage: entry_counts.py OUT.tsv TOKFILE...
"""
import sys
from collections import Counter
from urllib.parse import unquote


def main() -> None:
    out, files = sys.argv[1], sys.argv[2:]
    counts: Counter = Counter()
    for path in files:
        with open(path, encoding="utf-8") as f:
            for line in f:
                counts.update(line.split())
    counts.pop("<unk>", None)
    with open(out, "w", encoding="utf-8") as f:
        for key, n in counts.most_common():
            parts = key.split("/")
            if len(parts) != 4:
                continue
            surface, reading, left, right = (unquote(p) for p in parts)
            f.write(f"{reading}\t{surface}\t{left}\t{right}\t{n}\n")
    print(f"{len(counts)} distinct entries -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
