#!/usr/bin/env python3
"""A phrase-by-phrase conversion set: analyzed sentences cut into phrases (文節) as a user types and
converts them one at a time: a phrase is a content word and the function words after it (particles,
auxiliaries, suffixes, dependent verbs, punctuation; a prefix joins the word after it, a number
the number before it). One phrase
per line, `reading<TAB>text`, and a third column `+` when the phrase goes on with the sentence of
the line before (`henkan eval conversion --phrases`). Digits are written half width, as the IME
writes them by default (KWDLC writes them full width). A sentence with a token of no reading is
left out.

Tokens are `surface/reading/POS`: the annotated dev sets name the POS (`助詞-格助詞`,
`../shared/data/dev/kwdlc.test.tok`); the analyzed text (`build/corpus/dev/chat.txt`) gives Mozc's
POS ids, named by `--id-def` (Mozc's `id.def`). With `--chat N`, the first N sentences whose
reading is kana (as `conversion_set.py` takes them: a number of several digits typed as its
digits) are cut. `--tok FILE` writes each phrase's tokens too, a `.tok` line a phrase, for
`henkan eval conversion --phrases --candidates FILE`.

Usage: python3 training/phrase_set.py ../shared/data/dev/kwdlc.test.tok ../shared/data/dev/wac.dev.tok > phrases.tsv
       python3 training/phrase_set.py --id-def ../shared/data/mozc/id.def --chat 2000 build/corpus/dev/chat.txt > chat-phrases.tsv
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import conversion_set  # noqa: E402

FUNCTION_WORDS = ("助詞", "助動詞", "接尾辞", "特殊", "判定詞", "記号")
HALF_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")


def read_id_def(path):
    """Mozc's POS names by id (`id.def`: `ID NAME` lines, the name's fields joined by `,`)."""
    names = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split(" ", 1)
            if len(parts) == 2 and parts[0].isdigit():
                names[parts[0]] = parts[1].strip()
    return names


def kind(pos, names=None):
    """`function`, `prefix` or `content`, of a POS name or (with `names`) of a Mozc POS id."""
    if names is not None and pos.isdigit():
        fields = names.get(pos, "").split(",")
        if fields[0] in ("助詞", "助動詞", "記号") or (len(fields) > 1 and fields[1] in ("接尾", "非自立")):
            return "function"
        return "prefix" if fields[0] == "接頭詞" else "content"
    if pos.startswith(FUNCTION_WORDS):
        return "function"
    return "prefix" if pos.startswith("接頭辞") else "content"


def is_number(pos, names=None):
    """Whether a POS (name, or Mozc id with `names`) is a number (`名詞-数詞`, `名詞,数`)."""
    if names is not None and pos.isdigit():
        return names.get(pos, "").startswith("名詞,数,")
    return pos.startswith("名詞-数詞")


def phrase_tokens(line, names=None, readings=None):
    """The phrases of one analyzed sentence as lists of its tokens (`[surface, reading, POS]`),
    in order, or `[]` when a token has no reading. `readings`: the tokens' readings as typed
    (default: as analyzed)."""
    tokens = [t.split("/") for t in line.split()]
    if not tokens or any(len(t) < 3 or not t[0] or not t[1] for t in tokens):
        return []
    if readings is not None:
        tokens = [[t[0], r] + t[2:] for t, r in zip(tokens, readings)]
    out, cur = [], []
    for t in tokens:
        # a number goes on with the number before it (`１` `０` `万`)
        starts = kind(t[2], names) != "function" and not (
            cur and is_number(t[2], names) and is_number(cur[-1][2], names)
        )
        if cur and starts and kind(cur[-1][2], names) != "prefix":
            out.append(cur)
            cur = []
        cur.append(t)
    if cur:
        out.append(cur)
    return out


def phrases(line, names=None, readings=None):
    """The `(reading, text)` phrases of one analyzed sentence, in order, or `[]` when a token has
    no reading. `readings`: the tokens' readings as typed (default: as analyzed)."""
    return [as_pair(p) for p in phrase_tokens(line, names, readings)]


def as_pair(tokens):
    """A phrase's `(reading, text)`, digits half width."""
    return ("".join(t[1] for t in tokens), "".join(t[0] for t in tokens).translate(HALF_DIGITS))


def as_tok(tokens):
    """A phrase's tokens as a `.tok` line (`surface/reading/POS …`, digits half width), for
    `henkan eval conversion --candidates`."""
    return " ".join("/".join([t[0].translate(HALF_DIGITS)] + t[1:]) for t in tokens)


def chat_phrases(line, names):
    """The phrases (token lists) of an analyzed line whose reading is kana, typed as
    `conversion_set.py` types it, else `[]`."""
    if conversion_set.conversion_pair(line) is None:
        return []
    parts = [t.split("/") for t in line.split()]
    return phrase_tokens(line, names, list(conversion_set.typed_readings(parts)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tokens", nargs="+")
    ap.add_argument("--id-def")
    ap.add_argument("--chat", type=int, help="the first N sentences whose reading is kana")
    ap.add_argument("--tok", help="also write each phrase's tokens here, a line each")
    a = ap.parse_args()
    names = read_id_def(a.id_def) if a.id_def else None
    tok = open(a.tok, "w", encoding="utf-8") if a.tok else None
    n = 0
    for path in a.tokens:
        with open(path, encoding="utf-8") as f:
            for line in f:
                cut = chat_phrases(line, names) if a.chat else phrase_tokens(line, names)
                for i, p in enumerate(cut):
                    reading, text = as_pair(p)
                    print(f"{reading}\t{text}" + ("\t+" if i else ""))
                    if tok:
                        print(as_tok(p), file=tok)
                n += bool(cut)
                if a.chat and n >= a.chat:
                    break
        if a.chat and n >= a.chat:
            break
    if tok:
        tok.close()


if __name__ == "__main__":
    main()
