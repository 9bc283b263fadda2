"""Counts the wrong conversions that the shipped dictionary's pruning could explain.

The shipped model keeps the Mozc entries seen in the analyzed training text (the keep-list) and,
of the others, those of cost at most 8,000 (person names 7,000) whose reading has at most 10
characters (Makefile `MODEL_FLAGS`, `henkan_builder::dictionary`). A wrong sentence *touches a
pruned word* when a gold token at one of its differences is, as `surface/reading`, a Mozc entry
that the pruning left out and no kept entry spells it so: an unpruned dictionary (a larger tier)
could at most mend those.

Usage: python3 training/pruned_words.py ERRORS GOLD.tok LEX.tsv KEEP.tsv ID.def
(ERRORS: `henkan eval conversion --errors`; GOLD.tok: the set's hand-annotated tokens; LEX.tsv:
`build/mozc/lex.tsv`; KEEP.tsv: `build/corpus/entry_counts.tsv`; ID.def: Mozc's `id.def`.)
"""
import argparse

import error_kinds

MAX_COST = 8000
NAME_MAX_COST = 7000
NAME_POS = '名詞,固有名詞,人名'
MAX_READING_CHARS = 10


def is_kept(reading, cost, is_name, in_keep):
    """Whether the shipped pruning keeps an entry."""
    cheap = cost <= (NAME_MAX_COST if is_name else MAX_COST)
    return (cheap and len(reading) <= MAX_READING_CHARS) or in_keep


def hiragana(reading):
    """A gold reading in hiragana (katakana letters shifted down)."""
    return ''.join(chr(ord(c) - 0x60) if 'ァ' <= c <= 'ヶ' else c for c in reading)


def pruned_spellings(lex_lines, keep, names):
    """{(surface, reading)} of the entries the pruning leaves out, less those a kept entry spells."""
    pruned, kept = set(), set()
    for line in lex_lines:
        p = line.rstrip('\n').split('\t')
        if len(p) < 5:
            continue
        reading, left, right, cost, surface = p[0], p[1], p[2], int(p[3]), p[4]
        key = (surface, reading)
        if is_kept(reading, cost, left in names, (reading, surface, left, right) in keep):
            kept.add(key)
        else:
            pruned.add(key)
    return pruned - kept


def main():
    ap = argparse.ArgumentParser()
    for name in ('errors', 'tokens', 'lex', 'keep', 'id_def'):
        ap.add_argument(name)
    a = ap.parse_args()
    with open(a.keep, encoding='utf-8') as f:
        # entry_counts.tsv: surface, reading, left id, right id, count
        keep = {(p[1], p[0], p[2], p[3]) for p in (l.rstrip('\n').split('\t') for l in f) if len(p) >= 4}
    with open(a.id_def, encoding='utf-8') as f:
        names = {p[0] for p in (l.split(' ', 1) for l in f) if len(p) == 2 and p[1].startswith(NAME_POS)}
    with open(a.lex, encoding='utf-8') as f:
        pruned = pruned_spellings(f, keep, names)
    with open(a.tokens, encoding='utf-8') as f:
        tokens = error_kinds.gold_tokens(f)
    with open(a.errors, encoding='utf-8') as f:
        wrong = error_kinds.wrong_sentences(f.read())
    touched = []
    for want, got in wrong:
        hits = {
            (surface, reading)
            for a0, b0, _c, _d in error_kinds.difference_spans(want, got)
            for s, e, surface, reading, _ in tokens.get(want, ())
            if error_kinds.touches(s, e, a0, b0) and (surface, hiragana(reading)) in pruned
        }
        if hits:
            touched.append((want, sorted(hits)))
    print(f'{len(touched)} of {len(wrong)} wrong sentences touch a pruned word '
          f'({len(pruned)} spellings pruned)')
    for want, hits in touched:
        print('  ' + ' '.join('/'.join(h) for h in hits) + '\t' + want)


if __name__ == '__main__':
    main()
