"""Counts how annotated text writes a noun reading that comes back within one sentence.

For every noun token whose reading has at least two kana, a later noun of the same sentence with that
reading is *the same* when it is written as the first was, and *another spelling* otherwise. Another
spelling is *kanji against kanji* when neither side is kana alone, ASCII, or numerals on both sides
(`県`/`圏`, `機関`/`期間`, but also variants such as `大坂`/`大阪`). The LM and the coherence draw a
repeated reading to one spelling; this says how often text does the same (the pun
`きしゃのきしゃがきしゃできしゃした`, `貴社の記者が汽車で帰社した`, asks for four spellings).

Usage: python3 training/repeated_readings.py FILE...
(FILE: gold tokens `surface/reading/POS` separated by spaces, a sentence a line; `.xz` is read as xz.)
"""
import argparse
import collections
import lzma
import re

from error_kinds import NUMERALS

KANA = re.compile(r'^[\u3041-\u30ff]+$')


def is_kanji_against_kanji(a, b):
    """Whether two spellings of one reading both have kanji (not kana alone, ASCII or both numerals)."""
    return not (KANA.match(a) or KANA.match(b) or a.isascii() or b.isascii()
                or (NUMERALS.match(a) and NUMERALS.match(b)))


def count(sentences):
    """(same, other, kanji against kanji, Counter of the other pairs) over token lists."""
    same = other = kanji = 0
    pairs = collections.Counter()
    for tokens in sentences:
        first = {}
        for token in tokens:
            parts = token.split('/')
            if len(parts) < 3 or not parts[2].startswith('名詞') or len(parts[1]) < 2:
                continue
            surface, reading = parts[0], parts[1]
            if reading not in first:
                first[reading] = surface
            elif first[reading] == surface:
                same += 1
            else:
                other += 1
                pairs[(first[reading], surface)] += 1
                if is_kanji_against_kanji(first[reading], surface):
                    kanji += 1
    return same, other, kanji, pairs


def read(path):
    opener = lzma.open if path.endswith('.xz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        for line in f:
            yield line.split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('files', nargs='+')
    a = ap.parse_args()
    same, other, kanji, pairs = count(s for path in a.files for s in read(path))
    total = max(1, same + other)
    print(f'a noun reading again in its sentence: {same} written the same, {other} otherwise '
          f'({100 * other / total:.1f}%), {kanji} of them kanji against kanji ({100 * kanji / total:.1f}%)')
    print('most frequent:', ', '.join(f'{x}/{y} {n}' for (x, y), n in pairs.most_common(12)))


if __name__ == '__main__':
    main()
