#!/usr/bin/env python3
"""Discriminative fine-tuning of the LSTM LM for the hybrid engine on its own final beams.

For each training sentence the hybrid's final beam (`examples/dump_finals.rs` JSON lines: `want`,
`cands` with the engine's `score`, `text` and LM `ids`) is re-scored as

    s(c) = rest(c) + log p_θ(ids(c))

where `log p_θ` is the LM's log-probability of the candidate's words and the closing `<s>`, each
softmax normalised over the sentence's vocabulary (the beam's words, the 400 most frequent
words, `<s>`, `<unk>`: the engine normalises over its lattice vocabulary, a superset), and
`rest(c) = score(c) − log p_θ0(ids(c))` is everything else the engine adds (dictionary costs,
the `<unk>` class term), fixed at the starting LM θ0; at θ = θ0 the ranking is the engine's.
The loss is the negative log of the candidates' softmax mass on the candidates that spell the
annotated text (sentences whose beam misses it are skipped), plus `--lm-weight` times the
per-word negative log-likelihood of the annotated candidate (keeps it a language model). The
embedding (tied input/output, shared with the backward LM) stays frozen; the recurrent
matrices, their bias and the output bias are trained.

    python3 training/disc_finetune.py --train a.jsonl b.jsonl --dev kwdlc.jsonl wac.jsonl \
        --init build/s13/fwd/lstm.safetensors --out build/lm-disc
"""
import argparse
import json
import os
import random
import time

import torch
from safetensors.torch import load_file, save_file, safe_open

FREQUENT = 400


def load_rows(paths):
    rows = []
    for p in paths:
        for line in open(p, encoding="utf-8"):
            d = json.loads(line)
            if d["cands"]:
                rows.append(d)
    return rows


class Lm(torch.nn.Module):
    def __init__(self, t):
        super().__init__()
        _, h = t["embedding"].shape
        self.register_buffer("emb", t["embedding"].float())
        self.lstm = torch.nn.LSTM(h, h)
        with torch.no_grad():
            self.lstm.weight_ih_l0.copy_(t["w_ih"])
            self.lstm.weight_hh_l0.copy_(t["w_hh"])
            self.lstm.bias_ih_l0.copy_(t["b"])
            self.lstm.bias_hh_l0.zero_()
        self.lstm.bias_hh_l0.requires_grad_(False)
        self.out_bias = torch.nn.Parameter(t["out_bias"].float().clone())

    def seq_log_probs(self, seqs, vocab, bos):
        """log p of each id sequence and the closing <s>, normalised over `vocab` (a sorted
        list of ids containing every id of `seqs`, `bos` and `<unk>`)."""
        vid = torch.tensor(vocab)
        index = {w: i for i, w in enumerate(vocab)}
        n, steps = len(seqs), max(len(s) for s in seqs) + 1
        x = torch.full((steps, n), bos, dtype=torch.long)
        y = torch.full((steps, n), index[bos], dtype=torch.long)
        mask = torch.zeros(steps, n)
        for j, s in enumerate(seqs):
            for t, w in enumerate(s):
                x[t + 1, j] = w
                y[t, j] = index[w]
            mask[: len(s) + 1, j] = 1
        h, _ = self.lstm(self.emb[x])
        logits = h @ self.emb[vid].T + self.out_bias[vid]
        lp = torch.log_softmax(logits, -1).gather(-1, y.unsqueeze(-1)).squeeze(-1)
        return (lp * mask).sum(0), mask.sum(0)


def sentence_vocab(d, unk, bos):
    v = set(range(FREQUENT))
    v.add(unk)
    v.add(bos)
    for c in d["cands"]:
        v.update(c["ids"])
    return sorted(v)


def prepare(model, rows, unk, bos):
    """Adds each row's vocabulary and the candidates' `rest` (score − log p_θ0)."""
    with torch.no_grad():
        for d in rows:
            d["vocab"] = sentence_vocab(d, unk, bos)
            lp, _ = model.seq_log_probs([c["ids"] for c in d["cands"]], d["vocab"], bos)
            d["rest"] = [c["score"] - float(l) for c, l in zip(d["cands"], lp)]
            d["gold"] = [i for i, c in enumerate(d["cands"]) if c["text"] == d["want"]]


def accuracy(model, rows, bos):
    ok = 0
    with torch.no_grad():
        for d in rows:
            lp, _ = model.seq_log_probs([c["ids"] for c in d["cands"]], d["vocab"], bos)
            s = torch.tensor(d["rest"]) + lp
            best = int(torch.argmax(s))
            ok += d["cands"][best]["text"] == d["want"]
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--train", nargs="+", required=True)
    ap.add_argument("--dev", nargs="+", required=True)
    ap.add_argument("--init", required=True, help="lstm.safetensors to start from (henkan export-lstm)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--lm-weight", type=float, default=0.1)
    ap.add_argument("--batch", type=int, default=16, help="sentences per update")
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--freeze-out-bias", action="store_true",
                    help="train the recurrent matrices and their bias only")
    a = ap.parse_args()
    torch.set_num_threads(2)
    random.seed(a.seed)
    torch.manual_seed(a.seed)
    with safe_open(a.init, "pt") as f:
        meta = f.metadata()
    bos, unk = int(meta["bos_id"]), int(meta["unk_id"])
    init = load_file(a.init)
    model = Lm(init)
    train = load_rows(a.train)
    devs = [(p, load_rows([p])) for p in a.dev]
    t0 = time.time()
    prepare(model, train, unk, bos)
    for _, rows in devs:
        prepare(model, rows, unk, bos)
    train = [d for d in train if d["gold"]]
    print(f"{len(train)} training sentences with the annotated text in the beam "
          f"({time.time() - t0:.0f} s to prepare)", flush=True)

    def report(tag):
        parts = []
        for p, rows in devs:
            ok = accuracy(model, rows, bos)
            parts.append(f"{os.path.basename(p)} {100 * ok / len(rows):.2f} ({ok})")
        tr = train[:2000]
        ok = accuracy(model, tr, bos)
        parts.append(f"train[:2000] {100 * ok / len(tr):.2f}")
        print(f"{tag}: " + "  ".join(parts), flush=True)

    if a.freeze_out_bias:
        model.out_bias.requires_grad_(False)
    report("start")
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=a.lr)
    os.makedirs(a.out, exist_ok=True)
    deadline = t0 + 60 * a.minutes

    def save(tag):
        t = dict(init)
        t["w_ih"] = model.lstm.weight_ih_l0.detach().clone()
        t["w_hh"] = model.lstm.weight_hh_l0.detach().clone()
        t["b"] = (model.lstm.bias_ih_l0 + model.lstm.bias_hh_l0).detach().clone()
        t["out_bias"] = model.out_bias.detach().clone()
        m = dict(meta)
        m["source"] = f"disc_finetune.py from {a.init} ({tag})"
        save_file({k: v.contiguous() for k, v in t.items()}, os.path.join(a.out, "lstm.safetensors"), m)

    for epoch in range(a.epochs):
        random.shuffle(train)
        total, steps = 0.0, 0
        for i in range(0, len(train), a.batch):
            opt.zero_grad()
            loss = 0.0
            for d in train[i : i + a.batch]:
                lp, lens = model.seq_log_probs([c["ids"] for c in d["cands"]], d["vocab"], bos)
                s = torch.tensor(d["rest"]) + lp
                g = torch.tensor(d["gold"])
                disc = torch.logsumexp(s, 0) - torch.logsumexp(s[g], 0)
                lm = -(lp[g[0]] / lens[g[0]])
                loss = loss + disc + a.lm_weight * lm
            loss = loss / a.batch
            loss.backward()
            opt.step()
            total += float(loss.detach())
            steps += 1
            if steps % 200 == 0:
                print(f"epoch {epoch} step {steps} loss {total / steps:.4f} "
                      f"({time.time() - t0:.0f} s)", flush=True)
            if time.time() > deadline:
                break
        save(f"epoch {epoch}")
        report(f"epoch {epoch}")
        if time.time() > deadline:
            break


if __name__ == "__main__":
    main()
