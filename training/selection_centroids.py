"""Centroids for the `Selection` section (crates/henkan/src/lm/selection.rs): which nouns a
predicate takes after a particle, as the centre of their word vectors.

From analyzed text (`surface/reading/left/right` tokens, one sentence per line, as
`henkan-tokenize` writes it), every adjacent triple of a content noun (Mozc's `ContentNoun`:
`名詞,一般|固有名詞|副詞可能|サ変接続`), a particle (`が を に は で へ と も`, POS `助詞`) and a
predicate (`動詞,自立`, `形容詞,自立`, `名詞,サ変接続`, `名詞,形容動詞語幹`) is counted. For each
particle and predicate (its spelling and reading) seen at least --min times after a noun that
has a word vector, and whose reading has another spelling with other kanji and a vector of its
own (`熱い`/`暑い`, `撮る`/`取る`, `故障`/`胡椒`: the predicates a conversion chooses between),
the centroid is the sum of its nouns' unit vectors, each weighted by log(1 + count), scaled to
unit length. Its spread is the standard deviation of a noun's cosine with it over the nouns
seen after that particle (weighted by count): the engine scores a noun by the z-score
`(v·c − m·c) / sd`, where `m` is the particle's mean noun vector (so `m·c` is the mean cosine).

The vectors are those of the coherence (`training/coherence_vectors.py`: chiVe, centred,
64 principal axes, unit rows), so the engine compares the centroids with the coherence's rows.

Output (TSV): `mean<TAB>particle<TAB>v1…v64` per particle, then
`pair<TAB>particle<TAB>spelling<TAB>reading<TAB>sd<TAB>c1…c64` per centroid.

Usage: python3 training/selection_centroids.py --vectors DIR --id-def ID_DEF --lexicon LEX_TSV
       [--min 5] --out OUT CORPUS.txt...
"""
import argparse, collections, math, re, sys

import numpy as np

from coherence_vectors import read_words

PARTICLES = ['が', 'を', 'に', 'は', 'で', 'へ', 'と', 'も']
CONTENT_NOUN = {'一般', '固有名詞', '副詞可能', 'サ変接続'}
KANJI = re.compile(r'[\u4e00-\u9fff]')


def pos_classes(id_def):
    """POS id → 'noun' / 'particle' / 'pred' (or absent)."""
    cls = {}
    for line in open(id_def, encoding='utf-8'):
        i, pos = line.rstrip('\n').split(' ', 1)
        f = pos.split(',')
        if f[0] == '名詞' and f[1] in CONTENT_NOUN:
            # サ変 nouns are content nouns and predicates (故障 + した)
            cls[int(i)] = 'noun+pred' if f[1] == 'サ変接続' else 'noun'
        elif f[0] == '名詞' and f[1] == '形容動詞語幹':
            cls[int(i)] = 'pred'
        elif f[0] in ('動詞', '形容詞') and f[1] == '自立':
            cls[int(i)] = 'pred'
        elif f[0] == '助詞':
            cls[int(i)] = 'particle'
    return cls


def triples(paths, cls):
    """Counter of (noun spelling, particle, predicate spelling, predicate reading)."""
    c = collections.Counter()
    for path in paths:
        for line in open(path, encoding='utf-8'):
            prev = [None, None]
            for tok in line.split():
                parts = tok.rsplit('/', 3)
                cur = None
                if len(parts) == 4 and parts[2].isdigit():
                    cur = (parts[0], parts[1], cls.get(int(parts[2])))
                n, p = prev
                if (cur and n and p and n[2] in ('noun', 'noun+pred') and p[2] == 'particle'
                        and p[0] in PARTICLES and cur[2] in ('pred', 'noun+pred')):
                    c[(n[0], p[0], cur[0], cur[1])] += 1
                prev = [p, cur]
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--vectors', required=True, help='coherence_vectors.py output directory')
    ap.add_argument('--id-def', required=True)
    ap.add_argument('--lexicon', required=True, help='build/mozc/lex.tsv')
    ap.add_argument('--min', type=int, default=5)
    ap.add_argument('--out', required=True)
    ap.add_argument('corpora', nargs='+')
    a = ap.parse_args()

    row, V = read_words(a.vectors)
    V = V.astype('f8')
    spellings = collections.defaultdict(set)  # reading → kanji spellings with a vector
    for line in open(a.lexicon, encoding='utf-8'):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 5 and KANJI.search(f[4]) and f[4] in row:
            spellings[f[0]].add(f[4])

    def other_kanji(s, reading):
        mine = set(KANJI.findall(s))
        for o in spellings.get(reading, ()):
            theirs = set(KANJI.findall(o))
            if o != s and mine and not (mine <= theirs or theirs <= mine):
                return True
        return False

    counts = triples(a.corpora, pos_classes(a.id_def))
    cent = collections.defaultdict(lambda: np.zeros(V.shape[1]))
    total = collections.Counter()
    nouns = {p: collections.Counter() for p in PARTICLES}
    for (n, p, x, r), k in counts.items():
        i = row.get(n)
        if i is None:
            continue
        cent[(p, x, r)] += math.log1p(k) * V[i]
        total[(p, x, r)] += k
        nouns[p][i] += k
    keys = sorted(k for k in cent if total[k] >= a.min and other_kanji(k[1], k[2]))
    with open(a.out, 'w', encoding='utf-8') as out:
        stats = {}
        for p in PARTICLES:
            if not nouns[p]:
                continue
            rows = np.array(list(nouns[p].keys()))
            w = np.array(list(nouns[p].values()), 'f8')
            w /= w.sum()
            M = V[rows]
            stats[p] = (M, w)
            out.write('\t'.join(['mean', p] + [f'{x:.5f}' for x in w @ M]) + '\n')
        for k in keys:
            M, w = stats[k[0]]
            c = cent[k] / max(np.linalg.norm(cent[k]), 1e-12)
            s = M @ c
            sd = math.sqrt(max(float(w @ (s * s) - (w @ s) ** 2), 1e-6))
            out.write('\t'.join(['pair', *k, f'{sd:.5f}'] + [f'{x:.5f}' for x in c]) + '\n')
    print(f'{len(counts)} triples, {len(keys)} centroids (≥ {a.min} nouns with a vector, a '
          f'predicate with a homophone of other kanji)', file=sys.stderr)


if __name__ == '__main__':
    main()
