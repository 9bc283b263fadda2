"""Fits the homophone metric (crates/henkan/src/lm/homophone_metric.rs): a symmetric matrix `A`
over the word vectors' components, so that `v·A·Σ context` tells a word from the other spellings
of its reading better than the cosine `v·Σ context` does.

Examples come from the analyzed written training text (`surface/reading/left/right` tokens, one
sentence a line): every word whose reading the lexicon spells with other kanji too (entries of
cost ≤ --max-cost, no person names, each spelling with a chiVe row in `words.tsv`), against those
spellings, with the other content words of its sentence (kanji or katakana, with a row; at most
30) as its context. A spelling scores

    τ · v·A·c + β · log P(spelling | reading),    c = Σ context / √|context|

(the prior counted over the examples themselves, +0.5), and `A`, `τ`, `β` are fitted by
cross-entropy over the reading's spellings, `A` drawn towards the identity by λ‖A − I‖²
(Adam, lr 0.01, --steps batches of 4,096). The same fit with `A` fixed to the identity gives
the cosines' `τ₀`; the matrix written is `A · τ / τ₀`, so that the hybrid's homophone weight
stays the cosines' one.

Output: --out, the matrix as dims × dims little-endian f32 (`henkan model attach
homophone-metric --matrix`). Needs numpy and torch (`make train-deps`); about 2 minutes on 2
cores.

Usage: python3 training/homophone_metric.py --vectors build/coherence/vectors \
  --lexicon build/mozc/lex.tsv --id-def ../shared/data/mozc/id.def --out build/hmetric/a.f32 \
  build/corpus/train/{jglue,kwdlc,wac}.txt
"""
import argparse
import collections
import math
import re
import sys

from coherence_vectors import read_words

CONTENT = re.compile(r'[\u4e00-\u9fff\u30a0-\u30ff]')
NAME_POS = '名詞,固有名詞,人名'
MAX_SPELLINGS = 12
MAX_CONTEXT = 30


def homophones(lex_lines, rows, names, max_cost):
    """reading → its spellings with a row (sorted), for readings with two rows or more."""
    h = collections.defaultdict(set)
    for line in lex_lines:
        p = line.rstrip('\n').split('\t')
        if len(p) < 5:
            continue
        reading, left, cost, surface = p[0], p[1], int(p[3]), p[4]
        if cost > max_cost or left in names or not CONTENT.search(surface) or surface not in rows:
            continue
        h[reading].add(surface)
    return {r: sorted(v) for r, v in h.items() if len({rows[s] for s in v}) >= 2}


def examples(lines, rows, spellings):
    """(gold index, spelling rows, context rows, reading) of each word with homophones."""
    out = []
    for line in lines:
        toks = [p[:2] for p in (t.split('/') for t in line.split()) if len(p) == 4]
        ctx = [(i, rows[s]) for i, (s, _) in enumerate(toks) if CONTENT.search(s) and s in rows]
        if len(ctx) < 2:
            continue
        for i, (s, r) in enumerate(toks):
            if r not in spellings or s not in spellings[r]:
                continue
            cands = list(dict.fromkeys(rows[x] for x in spellings[r]))
            g = cands.index(rows[s])
            context = [row for j, row in ctx if j != i][:MAX_CONTEXT]
            if context and g < MAX_SPELLINGS:
                out.append((g, cands[:MAX_SPELLINGS], context, r))
    return out


def fit(batches, learn, steps, lam, seed):
    """(A, τ, β) fitted on `batches` (see the module docs); `learn`: whether A moves."""
    import torch
    torch.manual_seed(seed)
    cand, mask, ctx, gold, prior, vectors = batches
    dims = vectors.shape[1]
    eye = torch.eye(dims)
    b = eye.clone().requires_grad_(learn)
    tau = torch.tensor(3.0, requires_grad=True)
    beta = torch.tensor(1.0, requires_grad=True)
    opt = torch.optim.Adam([tau, beta] + ([b] if learn else []), lr=0.01)
    n = len(gold)
    for _ in range(steps):
        idx = torch.randint(0, n, (4096,))
        a = (b + b.T) / 2
        s = torch.einsum('nkd,de,ne->nk', vectors[cand[idx]], a, ctx[idx])
        logits = (tau * s + beta * prior[idx]).masked_fill(~mask[idx], -1e9)
        loss = torch.nn.functional.cross_entropy(logits, gold[idx])
        if learn:
            loss = loss + lam * ((a - eye) ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return ((b + b.T) / 2).detach(), tau.item(), beta.item()


def tensors(ex, vectors):
    """The examples as padded tensors."""
    import torch
    counts = collections.Counter((e[3], e[1][e[0]]) for e in ex)
    n = len(ex)
    cand = torch.zeros(n, MAX_SPELLINGS, dtype=torch.long)
    mask = torch.zeros(n, MAX_SPELLINGS, dtype=torch.bool)
    ctx = torch.zeros(n, vectors.shape[1])
    gold = torch.zeros(n, dtype=torch.long)
    prior = torch.zeros(n, MAX_SPELLINGS)
    for i, (g, cands, context, reading) in enumerate(ex):
        cand[i, :len(cands)] = torch.tensor(cands)
        mask[i, :len(cands)] = True
        gold[i] = g
        ctx[i] = vectors[context].sum(0) / math.sqrt(len(context))
        total = sum(counts[(reading, c)] + 0.5 for c in cands)
        for k, c in enumerate(cands):
            prior[i, k] = math.log((counts[(reading, c)] + 0.5) / total)
    return cand, mask, ctx, gold, prior, vectors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--vectors', required=True, help='training/coherence_vectors.py output')
    ap.add_argument('--lexicon', required=True, help='build/mozc/lex.tsv')
    ap.add_argument('--id-def', required=True)
    ap.add_argument('--max-cost', type=int, default=7100)
    ap.add_argument('--steps', type=int, default=3000)
    ap.add_argument('--lam', type=float, default=1e-3)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--out', required=True)
    ap.add_argument('text', nargs='+', help='analyzed text (`surface/reading/left/right` tokens)')
    a = ap.parse_args()
    import torch
    rows, table = read_words(a.vectors)
    vectors = torch.tensor(table)
    with open(a.id_def, encoding='utf-8') as f:
        names = {p[0] for p in (l.split(' ', 1) for l in f) if len(p) == 2 and p[1].startswith(NAME_POS)}
    with open(a.lexicon, encoding='utf-8') as f:
        spellings = homophones(f, rows, names, a.max_cost)
    ex = []
    for path in a.text:
        with open(path, encoding='utf-8') as f:
            ex += examples(f, rows, spellings)
    print(f'{len(spellings)} readings with homophones, {len(ex)} examples', file=sys.stderr)
    batches = tensors(ex, vectors)
    _, tau0, _ = fit(batches, False, a.steps, a.lam, a.seed)
    m, tau, beta = fit(batches, True, a.steps, a.lam, a.seed)
    print(f'τ₀ {tau0:.3f}, τ {tau:.3f}, β {beta:.3f}', file=sys.stderr)
    (m * tau / tau0).numpy().astype('<f4').tofile(a.out)


if __name__ == '__main__':
    main()
