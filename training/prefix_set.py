#!/usr/bin/env python3
"""Conversion sets of sentence beginnings from gold tokens, for what the IME converts while the user is
still typing (BENCHMARKS.md, inputs cut partway): `reading<TAB>text` lines cut after a random token of each
sentence (`--cut any`: the input as it stands at some key, often in the middle of a phrase) or only
where a particle is followed by a content word (`--cut phrase`: where a user would press Space).
Two cuts per sentence (seed 17), none after the last two tokens.

    python3 training/prefix_set.py --tok ../shared/data/dev/kwdlc.test.tok --cut any > build/kwdlc.prefixes.tsv
"""
import argparse
import random

NOT_CONTENT = ("助詞", "接尾辞", "特殊", "助動詞")


def cuts(toks, how):
    if how == "any":
        return list(range(1, len(toks) - 1))
    return [
        k
        for k in range(1, len(toks) - 1)
        if toks[k - 1][2].startswith("助詞") and toks[k][2].split("-")[0] not in NOT_CONTENT
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tok", required=True, help="gold tokens `surface/reading/POS`, one sentence per line")
    ap.add_argument("--cut", choices=["any", "phrase"], default="any")
    ap.add_argument("--per-sentence", type=int, default=2)
    ap.add_argument("--seed", type=int, default=17)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    for line in open(a.tok, encoding="utf-8"):
        toks = [t.split("/") for t in line.split()]
        if len(toks) < 4 or any(len(t) < 3 for t in toks):
            continue
        at = cuts(toks, a.cut)
        for k in rng.sample(at, min(a.per_sentence, len(at))):
            print("".join(t[1] for t in toks[:k]) + "\t" + "".join(t[0] for t in toks[:k]))


if __name__ == "__main__":
    main()
