"""Sorts the wrong sentences of `henkan eval conversion --errors` into spelling choices and others.

A wrong sentence is a *spelling choice* when every place where the conversion differs from the
annotated text (runs between the characters of a longest common subsequence) has hiragana alone on
one side and kana or kanji on the other, hiragana alone against nothing (okurigana), or numerals on
both (`下さい`/`ください`, `事`/`こと`, `頂き`/`いただき`, `話`/`話し`, `１`/`一`): the words are the
ones the writer meant, written as the writer did not. The others are errors of meaning or of
segmentation (`機能`/`昨日`, `公演`/`講演`). A heuristic: `見`/`み` counts as a spelling choice
too. `henkan eval conversion` applies the same rule (`crates/henkan-cli/src/spelling_choice.rs`,
its "top-1 up to spelling choices"), so the two count the same sentences.

With `--tokens GOLD.tok` (the set's hand-annotated tokens, `surface/reading/POS`), the others are
split by what their differences touch: a *proper noun* (a gold token tagged 固有名詞, 人名, 地名 or
組織名 at a difference), else *kanji* (a difference of kanji words: meaning, or a kanji variant),
else *katakana* (katakana on one side: `メガネ`/`眼鏡`, `ハイドロゲン`/`ハイドロ減`), else *digits*
(digits on one side: `語を`/`５を`), else *other* (symbols).

Usage: python3 training/error_kinds.py ERRORS N [--list] [--tokens GOLD.tok]
(ERRORS: the output of `henkan eval conversion --errors`; N: the set's number of sentences.)
"""
import argparse
import collections
import re

HIRAGANA = re.compile(r'^[\u3041-\u309f]*$')
WRITTEN = re.compile(r'^[\u3041-\u309f\u30a0-\u30ff\u4e00-\u9fff々]+$')
NUMERALS = re.compile(r'^[0-9０-９〇一二三四五六七八九十百千万億]+$')
KATAKANA = re.compile(r'[\u30a0-\u30ff]')
DIGITS = re.compile(r'[0-9０-９]')
KANJI = re.compile(r'[\u4e00-\u9fff々〆]')
PROPER = ('固有名詞', '人名', '地名', '組織名')
KINDS = ('proper noun', 'kanji', 'katakana', 'digits', 'other')


def wrong_sentences(text):
    """(want, got) of each wrong sentence in `eval conversion --errors` output."""
    lines = text.split('\n')
    out = []
    for i in range(len(lines) - 2):
        if lines[i + 1].startswith('  want ') and lines[i + 2].startswith('  got  '):
            out.append((lines[i + 1][7:], lines[i + 2][7:]))
    return out


def difference_spans(want, got):
    """(a, b, c, d) of each run where the two differ (`want[a:b]` against `got[c:d]`), between the
    characters of a longest common subsequence; ties broken as `spelling_choice.rs` breaks them."""
    n, m = len(want), len(got)
    lcs = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            lcs[i][j] = lcs[i + 1][j + 1] + 1 if want[i] == got[j] else max(lcs[i + 1][j], lcs[i][j + 1])
    out, i, j, start = [], 0, 0, None
    while i < n or j < m:
        if i < n and j < m and want[i] == got[j]:
            if start:
                out.append((start[0], i, start[1], j))
                start = None
            i, j = i + 1, j + 1
            continue
        start = start or (i, j)
        if j == m or (i < n and lcs[i + 1][j] >= lcs[i][j + 1]):
            i += 1
        else:
            j += 1
    if start:
        out.append((start[0], n, start[1], m))
    return out


def differences(want, got):
    """The (annotated, converted) pieces where the two differ."""
    return [(want[a:b], got[c:d]) for a, b, c, d in difference_spans(want, got)]


def is_spelling_piece(w, g):
    """Whether one difference is a spelling choice (see the module docs)."""
    if not w or not g:
        return bool(HIRAGANA.match(w + g))
    return (HIRAGANA.match(w) and WRITTEN.match(g)) or (HIRAGANA.match(g) and WRITTEN.match(w)) or (
        NUMERALS.match(w) and NUMERALS.match(g))


def is_spelling_choice(want, got):
    """Whether every difference is a spelling choice."""
    return all(is_spelling_piece(w, g) for w, g in differences(want, got))


def gold_tokens(tok_lines):
    """{sentence: [(start, end, surface, reading, POS) of each gold token]} from
    `surface/reading/POS` lines."""
    out = {}
    for line in tok_lines:
        tokens, text = [], ''
        for t in line.split():
            parts = t.split('/')
            surface = parts[0]
            reading = parts[1] if len(parts) > 1 else ''
            pos = parts[-1] if len(parts) > 2 else ''
            tokens.append((len(text), len(text) + len(surface), surface, reading, pos))
            text += surface
        out[text] = tokens
    return out


def gold_spans(tok_lines):
    """{sentence: [(start, end, POS) of each gold token]} from `surface/reading/POS` lines."""
    return {text: [(s, e, pos) for s, e, _, _, pos in tokens]
            for text, tokens in gold_tokens(tok_lines).items()}


def touches(start, end, a, b):
    """Whether the token `start..end` touches the difference `a..b` of the annotated text (an
    insertion, `a == b`, touches the token it is in)."""
    return start < max(b, a + 1) and end > a


def other_kind(want, got, spans):
    """The kind of an error that is not a spelling choice (one of `KINDS`), by its differences
    that are not spelling choices; `spans`: the gold tokens of `want` (`gold_spans`), or None."""
    found = set()
    for a, b, c, d in difference_spans(want, got):
        w, g = want[a:b], got[c:d]
        if is_spelling_piece(w, g):
            continue
        if spans and any(
            touches(s, e, a, b) and any(p in pos for p in PROPER) for s, e, pos in spans
        ):
            found.add('proper noun')
        found.add(_piece_kind(w, g))
    return next((k for k in KINDS if k in found), 'other')


def _piece_kind(w, g):
    """The kind of one difference (annotated `w`, converted `g`) by its characters."""
    if KANJI.search(w) and KANJI.search(g):
        return 'kanji'
    if KATAKANA.search(w) or KATAKANA.search(g):
        return 'katakana'
    if DIGITS.search(w) or DIGITS.search(g):
        return 'digits'
    if KANJI.search(w) or KANJI.search(g):
        return 'kanji'
    return 'other'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('errors')
    ap.add_argument('n', type=int, help="the set's number of sentences")
    ap.add_argument('--list', action='store_true', help='print the errors of meaning')
    ap.add_argument('--tokens', help="the set's gold tokens (`surface/reading/POS` lines): split the others by kind")
    a = ap.parse_args()
    with open(a.errors, encoding='utf-8') as f:
        wrong = wrong_sentences(f.read())
    spelling, others = [], []
    for p in wrong:
        (spelling if is_spelling_choice(*p) else others).append(p)
    print(f'{len(wrong)} wrong of {a.n}: {len(spelling)} spelling choices '
          f'({100 * len(spelling) / max(1, len(wrong)):.0f}%), {len(others)} others; '
          f'exact {100 * (a.n - len(wrong)) / a.n:.2f}%, '
          f'{100 * (a.n - len(others)) / a.n:.2f}% with every spelling choice the writer\'s')
    if a.tokens:
        with open(a.tokens, encoding='utf-8') as f:
            gold = gold_spans(f)
        kinds = collections.Counter(other_kind(w, g, gold.get(w)) for w, g in others)
        print('others: ' + ', '.join(f'{kinds[k]} {k}' for k in KINDS))
    if a.list:
        for want, got in others:
            print(f'  want {want}\n  got  {got}')


if __name__ == '__main__':
    main()
