"""Sorts the wrong sentences of `henkan eval conversion --errors` into spelling choices and others.

A wrong sentence is a *spelling choice* when every place where the conversion differs from the
annotated text (a character alignment, Python's difflib) has hiragana alone on one side, or numerals
on both (`下さい`/`ください`, `事`/`こと`, `頂き`/`いただき`, `１`/`一`): the words are the ones the
writer meant, written as the writer did not. The others are errors of meaning or of segmentation
(`機能`/`昨日`, `公演`/`講演`). A heuristic: `見`/`み` counts as a spelling choice too.

Usage: python3 training/error_kinds.py ERRORS N [--list]
(ERRORS: the output of `henkan eval conversion --errors`; N: the set's number of sentences.)
"""
import argparse
import difflib
import re

HIRAGANA = re.compile(r'^[\u3041-\u309f]*$')
NUMERALS = re.compile(r'^[0-9０-９〇一二三四五六七八九十百千万億]+$')


def wrong_sentences(text):
    """(want, got) of each wrong sentence in `eval conversion --errors` output."""
    lines = text.split('\n')
    out = []
    for i in range(len(lines) - 2):
        if lines[i + 1].startswith('  want ') and lines[i + 2].startswith('  got  '):
            out.append((lines[i + 1][7:], lines[i + 2][7:]))
    return out


def differences(want, got):
    """The (annotated, converted) pieces where the two differ."""
    m = difflib.SequenceMatcher(None, want, got, autojunk=False)
    return [(want[a:b], got[c:d]) for op, a, b, c, d in m.get_opcodes() if op != 'equal']


def is_spelling_choice(want, got):
    """Whether every difference has hiragana alone on one side, or numerals on both."""
    return all(
        HIRAGANA.match(w) or HIRAGANA.match(g) or (NUMERALS.match(w) and NUMERALS.match(g))
        for w, g in differences(want, got)
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('errors')
    ap.add_argument('n', type=int, help="the set's number of sentences")
    ap.add_argument('--list', action='store_true', help='print the errors of meaning')
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
    if a.list:
        for want, got in others:
            print(f'  want {want}\n  got  {got}')


if __name__ == '__main__':
    main()
