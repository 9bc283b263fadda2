"""Word vectors for the `Coherence` section (src/lm/coherence.rs), from chiVe.

chiVe (Works Applications, Apache-2.0) is a skip-gram model trained on NINJAL's web corpus
(NWJC, ~100M sentences); the PyPI package `ja-ginza` (MIT) ships it pruned to 20,000 distinct
vectors of 300 dimensions for 480,443 words (spaCy's `vocab/`: `strings.json`, `key2row` as
msgpack of MurmurHash64A(utf-8, seed 1) → row, `vectors` as .npy). Only these files are read.

Output in OUT: `vectors.f32` (rows × DIMS f32 little endian: the vectors centred on their mean,
projected on their DIMS principal axes and scaled to unit length) and `words.tsv`
(`surface<TAB>row` for every word that contains a kanji or a katakana letter: the content words
whose topics the coherence compares). `henkan model attach coherence` keeps the lexicon entries whose
surface is listed.

Usage: python3 training/coherence_vectors.py WHEEL_DIR OUT [--dims 64]
(WHEEL_DIR: where `pip download --no-deps ja-ginza==5.3.0` put the wheel.)
"""
import argparse, glob, json, os, re, struct, sys, zipfile

import numpy as np

M = 0xC6A4A7935BD1E995
MASK = (1 << 64) - 1


def murmur64a(data: bytes, seed: int = 1) -> int:
    """MurmurHash64A, as spaCy's `hash_string` (murmurhash's hash64, seed 1)."""
    n = len(data)
    h = (seed ^ (n * M)) & MASK
    nb = n // 8
    for i in range(nb):
        k = struct.unpack_from('<Q', data, i * 8)[0]
        k = (k * M) & MASK
        k ^= k >> 47
        k = (k * M) & MASK
        h ^= k
        h = (h * M) & MASK
    tail = data[nb * 8:]
    if tail:
        for i in range(len(tail) - 1, -1, -1):
            h ^= tail[i] << (8 * i)
        h = (h * M) & MASK
    h ^= h >> 47
    h = (h * M) & MASK
    h ^= h >> 47
    return h


CONTENT = re.compile(r'[\u4e00-\u9fff\u3005\u30a1-\u30fa\u30fc]')


def kmeans(x, k, iters=20):
    """Spherical k-means (cosine): unit centroids and each row's centroid."""
    rng = np.random.default_rng(0)
    cent = x[rng.choice(len(x), k, replace=False)].copy()
    for _ in range(iters):
        assign = np.argmax(x @ cent.T, axis=1)
        sums = np.zeros_like(cent)
        np.add.at(sums, assign, x)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        cent = np.where(norms > 0, sums / np.maximum(norms, 1e-12), cent)
    return cent, np.argmax(x @ cent.T, axis=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('wheel_dir')
    ap.add_argument('out')
    ap.add_argument('--dims', type=int, default=64)
    ap.add_argument('--kmeans', type=int, default=0,
                    help='replace the rows by this many centroids (spherical k-means, seed 0)')
    a = ap.parse_args()
    import msgpack  # the wheel's key2row; `read_words` needs numpy only
    wheels = sorted(glob.glob(os.path.join(a.wheel_dir, 'ja_ginza-*.whl')))
    if not wheels:
        sys.exit(f'no ja_ginza wheel in {a.wheel_dir}')
    with zipfile.ZipFile(wheels[-1]) as z:
        vocab = [n for n in z.namelist() if n.endswith('/vocab/vectors')][0].rsplit('/', 1)[0]
        key2row = msgpack.unpackb(z.read(vocab + '/key2row'), strict_map_key=False)
        strings = json.loads(z.read(vocab + '/strings.json'))
        with z.open(vocab + '/vectors') as f:
            vectors = np.load(f)
    print(f'{len(key2row)} keys, {len(strings)} strings, vectors {vectors.shape}', file=sys.stderr)
    x = vectors.astype(np.float64)
    x -= x.mean(axis=0)
    _, _, vt = np.linalg.svd(x, full_matrices=False)
    x = x @ vt[: a.dims].T
    x /= np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
    words = {}
    for s in strings:
        if not CONTENT.search(s) or '\t' in s or '\n' in s:
            continue
        r = key2row.get(murmur64a(s.encode('utf-8')))
        if r is not None:
            words[s] = r
    used = sorted(set(words.values()))
    new = {r: i for i, r in enumerate(used)}
    table = x[used]
    if a.kmeans and a.kmeans < len(used):
        table, assign = kmeans(table, a.kmeans)
        new = {r: int(assign[i]) for r, i in new.items()}
    os.makedirs(a.out, exist_ok=True)
    table.astype('<f4').tofile(os.path.join(a.out, 'vectors.f32'))
    with open(os.path.join(a.out, 'words.tsv'), 'w', encoding='utf-8') as f:
        for s in sorted(words):
            f.write(f'{s}\t{new[words[s]]}\n')
    print(f'{len(words)} content words, {len(table)} rows of {a.dims}', file=sys.stderr)


def read_words(d):
    """(surface → row, rows) of this script's output directory `d`: `words.tsv` and
    `vectors.f32` (one row per number in `words.tsv`, all of them used)."""
    rows = {}
    with open(os.path.join(d, 'words.tsv'), encoding='utf-8') as f:
        for line in f:
            w, r = line.rstrip('\n').split('\t')
            rows[w] = int(r)
    vecs = np.fromfile(os.path.join(d, 'vectors.f32'), dtype='<f4')
    dims = vecs.size // (max(rows.values()) + 1) if rows else 1
    return rows, vecs.reshape(-1, dims)


if __name__ == '__main__':
    main()
