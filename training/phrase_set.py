#!/usr/bin/env python3
"""A phrase-by-phrase conversion set: the annotated dev sentences (`surface/reading/POS` tokens,
`../shared/data/dev/kwdlc.test.tok`, `wac.dev.tok`) cut into phrases (文節) as a user types and
converts them one at a time: a phrase is a content word and the function words after it (particles,
auxiliaries, suffixes, punctuation; a prefix joins the word after it). One phrase per line,
`reading<TAB>text`, and a third column `+` when the phrase goes on with the sentence of the line
before (`henkan eval conversion --phrases`). Digits are written half width, as the IME writes them
by default (KWDLC writes them full width). A sentence with a token of no reading is left out.

Usage: python3 training/phrase_set.py ../shared/data/dev/kwdlc.test.tok ../shared/data/dev/wac.dev.tok > phrases.tsv
"""
import sys

FUNCTION_WORDS = ("助詞", "助動詞", "接尾辞", "特殊", "判定詞")
HALF_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def phrases(line):
    """The `(reading, text)` phrases of one annotated sentence, in order, or `[]` when a token has
    no reading."""
    tokens = [t.split("/") for t in line.split()]
    if any(len(t) < 3 or not t[0] or not t[1] for t in tokens):
        return []
    out, cur = [], []
    for t in tokens:
        if cur and not t[2].startswith(FUNCTION_WORDS) and not cur[-1][2].startswith("接頭辞"):
            out.append(cur)
            cur = []
        cur.append(t)
    if cur:
        out.append(cur)
    return [("".join(t[1] for t in p), "".join(t[0] for t in p).translate(HALF_DIGITS)) for p in out]


def main(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                for i, (reading, text) in enumerate(phrases(line)):
                    print(f"{reading}\t{text}" + ("\t+" if i else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
