#!/usr/bin/env python3
"""Word-level LSTM LM for henkan: 1 layer, embedding 256, hidden 256, tied input/output embeddings
plus an output bias, trained with a shared-negative sampled softmax (log-uniform over frequency-sorted ids,
logQ correction, accidental hits removed), batch 128 x bptt 35 over one stream of sentences separated by <s>,
Adam. Runs on the CPU (2 threads) or on a CUDA device (`--device`, chosen at run time; the same script), on one
process or on several under `torchrun` (torch.distributed: each process takes its own --batch streams of the
training text and gradients are averaged across processes every step; NCCL on GPUs, gloo on CPUs).
On an accelerator the full softmax over the whole vocabulary is cheap: `--softmax full`.

Resumable: --dir/ckpt.pt (model + optimizer + data position + LSTM state) is written every --ckpt-minutes,
on SIGTERM/SIGINT and at the end of the --minutes budget; a new run with the same --dir continues from it.
Budgets: --minutes (wall time; what the run reaches depends on the machine's speed) or --steps (optimizer
steps counted from the run's first step, with --decay-steps / --stop-steps: the lr schedule is a function of
the step, so a run interrupted and resumed, or run on another machine, follows the same schedule and stops
at the same step; --minutes then only ends one invocation, and the next continues).
Full-softmax perplexity on the dev streams (build/lm/dev_*.bin) is logged every --eval-minutes and at the end.

Run it with tcmalloc preloaded (LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4): 1.4-2x faster.
"""
import argparse
import json
import math
import os
import signal
import sys
import time

import numpy as np

# Idle OpenMP threads must sleep, not spin: on this 2-core machine shared with Rust builds, spinning threads
# steal the core the working thread needs (measured 4-6x slower steps with the default ACTIVE policy).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402
import torch.nn as nn
import torch.nn.functional as F

DEVS = ["chat", "kwdlc", "wac"]


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="build/lm", help="checkpoint, log and export directory")
    ap.add_argument("--vocab-from", default=None, help="data directory (train.bin, dev_*.bin, meta.json); "
                    "default: --dir")
    ap.add_argument("--minutes", type=float, default=60, help="training time budget of this invocation")
    ap.add_argument("--stop-minutes", type=float, default=0,
                    help="stop after this many minutes, the lr schedule still that of --minutes (0: at --minutes)")
    ap.add_argument("--vocab-size", type=int, default=0, help="use only the first N ids (others -> <unk>)")
    ap.add_argument("--emb", type=int, default=256)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--cell", type=int, default=0,
                    help="LSTM with a projection (LSTMP): N memory cells projected to --hidden (= --emb) outputs; "
                         "0 = no projection (cells = hidden)")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--bptt", type=int, default=35)
    ap.add_argument("--neg", type=int, default=8192, help="log-uniform negative draws per batch (shared)")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--decay-minutes", type=float, default=0,
                    help="decay lr linearly to lr/10 over the last N minutes of this invocation's budget")
    ap.add_argument("--steps", type=int, default=0,
                    help="step budget of the whole run (0: the --minutes budget); lr schedule by step")
    ap.add_argument("--decay-steps", type=int, default=0,
                    help="with --steps: decay lr linearly to lr/10 over the last N steps of --steps")
    ap.add_argument("--stop-steps", type=int, default=0,
                    help="with --steps: stop at this step, the lr schedule still that of --steps (0: at --steps)")
    ap.add_argument("--max-train-tokens", type=int, default=0, help="use only a prefix of train.bin")
    ap.add_argument("--ckpt-minutes", type=float, default=5)
    ap.add_argument("--eval-minutes", type=float, default=20)
    ap.add_argument("--eval-tokens", type=int, default=0, help="cap per dev stream (0 = all)")
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--threads", default="auto", help="1, 2 or auto: 2 threads lose badly when another process "
                    "holds a core (OpenMP barriers), so 'auto' times 1 vs 2 threads every 300 steps and keeps the faster")
    ap.add_argument("--no-bf16", action="store_true", help="train in fp32 (default: bf16 autocast, ~1.3-1.7x faster)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--freeze-embedding", action="store_true",
                    help="keep the (tied) embedding of --init-from fixed: a second LM that shares it (a backward LM)")
    ap.add_argument("--train-rows-from", type=int, default=0, metavar="N",
                    help="an extended vocabulary: train only the embedding rows and output biases of ids >= N "
                         "(and <unk>'s output bias), the LSTM and the other rows kept as --init-from has them "
                         "(0: off)")
    ap.add_argument("--init-from", default=None, metavar="PATH.safetensors",
                    help="fine-tuning: a new run starts from these weights (an export of training/export.py or "
                         "training/from_model.py; b goes entirely into b_ih, b_hh = 0) instead of a random init; "
                         "ignored when --dir has a checkpoint to resume")
    ap.add_argument("--homophone-weight", type=float, default=0.0,
                    help="weight of an auxiliary loss: the target word against the LM words of the same reading "
                         "and another surface (its homophones), softmax over that set: what conversion has to tell "
                         "apart (0: off)")
    ap.add_argument("--homophone-max", type=int, default=16,
                    help="homophones per word in that loss (the most frequent ones)")
    ap.add_argument("--dropout", type=float, default=0.0,
                    help="dropout on the LSTM's input (the embedding) and output, in training only (Zaremba et al.'s "
                         "non-recurrent dropout; 0: off, as every shipped LM was trained)")
    ap.add_argument("--device", default="cpu",
                    help="cpu, cuda, cuda:N or auto (cuda when one is available); under torchrun each process "
                         "takes the GPU of its LOCAL_RANK")
    ap.add_argument("--softmax", choices=["sampled", "full"], default="sampled",
                    help="training loss: the sampled softmax (--neg shared negatives; what the CPU affords) or the "
                         "full softmax over the vocabulary")
    ap.add_argument("--optimizer", choices=["adam", "adamw"], default="adam")
    ap.add_argument("--weight-decay", type=float, default=0.01, help="with --optimizer adamw")
    ap.add_argument("--eval-steps", type=int, default=0,
                    help="evaluate every N steps (0: every --eval-minutes)")
    ap.add_argument("--keep-best", action="store_true",
                    help="early stopping: after each evaluation, write best.pt (the checkpoint's format) when the "
                         "mean log perplexity over the dev streams is the lowest so far")
    ap.add_argument("--patience", type=int, default=0,
                    help="with --keep-best: stop after N evaluations in a row without a new best (0: never)")
    ap.add_argument("--tiny", action="store_true",
                    help="CI model: 2K vocabulary, 32 dims, 512 negatives, first 3M tokens")
    a = ap.parse_args()
    if a.tiny:
        a.vocab_size = a.vocab_size or 2000
        a.emb = a.hidden = 32
        a.neg = min(a.neg, 512)
        a.max_train_tokens = a.max_train_tokens or 3_000_000
        a.eval_tokens = a.eval_tokens or 5000
        a.ckpt_minutes = min(a.ckpt_minutes, 1)
        a.eval_minutes = min(a.eval_minutes, 1)
        a.log_every = min(a.log_every, 50)
    if (a.decay_steps or a.stop_steps) and not a.steps:
        ap.error("--decay-steps and --stop-steps need --steps")
    if a.train_rows_from and (a.freeze_embedding or a.optimizer == "adamw"):
        ap.error("--train-rows-from keeps the other rows by masking their gradients: not with --freeze-embedding, "
                 "nor with --optimizer adamw, whose weight decay would move them")
    if a.steps and (a.decay_minutes or a.stop_minutes):
        ap.error("--steps takes --decay-steps / --stop-steps, not the minute forms")
    a.vocab_from = a.vocab_from or a.dir
    return a


def decayed_lr(lr, left, window):
    """The lr with `left` (steps or seconds) of the budget to go: `lr` until the last `window` of it, then
    linear to lr/10 at its end (--decay-steps, --decay-minutes)."""
    if window <= 0:
        return lr
    frac = min(1.0, max(0.0, left / window))
    return lr * (0.1 + 0.9 * frac)


class LM(nn.Module):
    def __init__(self, vocab, emb, hidden, cell=0):
        super().__init__()
        assert emb == hidden, "tied embeddings need emb == hidden"
        self.embedding = nn.Embedding(vocab, emb)
        if cell:
            # cells c [cell], output h = w_hr (o * tanh(c)) [hidden]: more memory at the same embedding size
            self.lstm = nn.LSTM(emb, cell, num_layers=1, proj_size=hidden)
        else:
            self.lstm = nn.LSTM(emb, hidden, num_layers=1)
        self.out_bias = nn.Parameter(torch.zeros(vocab))
        nn.init.uniform_(self.embedding.weight, -0.05, 0.05)

    def forward(self, x, state):
        return self.lstm(self.embedding(x), state)  # x [T, B] -> h [T, B, H]


def log_uniform_q(vocab, n_draws, ids):
    """Probability that id appears at least once in n_draws log-uniform draws over [0, vocab)."""
    p = (torch.log(ids.double() + 2) - torch.log(ids.double() + 1)) / math.log(vocab + 1)
    return (-torch.expm1(n_draws * torch.log1p(-p))).float()


def sample_negatives(vocab, n_draws, gen):
    u = torch.rand(n_draws, generator=gen, dtype=torch.float64)
    s = (torch.exp(u * math.log(vocab + 1)).long() - 1).clamp_(0, vocab - 1)
    return torch.unique(s)


def homophone_table(vocab_tsv, V, k):
    """[V, k] LM ids: row w = w, then up to k-1 words of w's reading with another surface (most frequent
    first), -1 padded; words without a reading (<s>, <unk>) or without homophones have -1 from column 1."""
    words = {}
    with open(vocab_tsv, encoding="utf-8") as f:
        for line in f:
            i, w, c = line.rstrip("\n").split("\t")
            i = int(i)
            parts = w.rsplit("/", 3)
            if i < V and len(parts) == 4:
                words[i] = (parts[0], parts[1], float(c))
    by_reading = {}
    for i, (surf, reading, c) in words.items():
        by_reading.setdefault(reading, []).append((c, i, surf))
    table = np.full((V, k), -1, dtype=np.int64)
    table[:, 0] = np.arange(V)
    for group in by_reading.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda t: -t[0])
        for _, i, surf in group:
            others = [j for _, j, s2 in group if s2 != surf][: k - 1]
            table[i, 1:1 + len(others)] = others
    return torch.from_numpy(table)


def homophone_loss(model, h, y, table):
    """Cross-entropy of the target among its homophones (rows of `table`), over the targets that have any."""
    rows = F.embedding(y, table)  # [N, k]
    has = rows[:, 1] >= 0
    if not bool(has.any()):
        return h.sum() * 0.0
    rows, hs = rows[has], h[has]
    valid = rows >= 0
    ids = rows.clamp(min=0)
    W, b = model.embedding.weight, model.out_bias
    logits = torch.einsum("nh,nkh->nk", hs, F.embedding(ids, W)) + F.embedding(ids, b.unsqueeze(1)).squeeze(2)
    logits = logits.masked_fill(~valid, float("-inf"))
    return F.cross_entropy(logits.float(), torch.zeros(len(rows), dtype=torch.long, device=hs.device))


def sampled_loss(model, h, y, neg, log_q_neg, vocab, n_draws):
    """h [N, H], y [N]. Shared negatives, logQ correction, accidental hits removed."""
    W, b = model.embedding.weight, model.out_bias
    # F.embedding rather than W[idx]: its backward (embedding_dense_backward) is much faster on CPU than
    # index_put with accumulate
    wy = F.embedding(y, W)
    by = F.embedding(y, b.unsqueeze(1)).squeeze(1)
    true_logit = (h * wy).sum(-1) + by - torch.log(log_uniform_q(vocab, n_draws, y))
    wn = F.embedding(neg, W)
    bn = F.embedding(neg, b.unsqueeze(1)).squeeze(1)
    neg_logit = torch.addmm((bn - log_q_neg).unsqueeze(0), h, wn.t())
    neg_logit = neg_logit.masked_fill(neg.unsqueeze(0) == y.unsqueeze(1), float("-inf"))
    logits = torch.cat([true_logit.unsqueeze(1), neg_logit], 1)
    return F.cross_entropy(logits, torch.zeros_like(y))


def full_loss(model, h, y):
    """h [N, H], y [N]: cross-entropy of the full softmax over the vocabulary (tied output embedding)."""
    logits = torch.addmm(model.out_bias, h, model.embedding.weight.t().to(h.dtype))
    return F.cross_entropy(logits.float(), y)


@torch.no_grad()
def evaluate(model, stream, vocab, unk_id, streams=32, chunk=64):
    """Full-softmax perplexity of a dev stream (starts and ends with <s>; the first token is only context).
    The stream is cut into `streams` contiguous pieces evaluated as one batch. Returns (ppl, ppl excluding
    <unk> targets, n targets)."""
    model.eval()
    dev = model.out_bias.device
    x = stream
    n = (len(x) - 1) // streams
    if n < 2:
        streams, n = 1, len(x) - 1
    inp = torch.from_numpy(np.stack([x[i * n: i * n + n] for i in range(streams)], 1).astype(np.int64)).to(dev)
    tgt = torch.from_numpy(np.stack([x[i * n + 1: i * n + n + 1] for i in range(streams)], 1).astype(np.int64)).to(dev)
    state = None
    nll_sum, cnt, nll_known, cnt_known = 0.0, 0, 0.0, 0
    W, b = model.embedding.weight, model.out_bias
    for t in range(0, n, chunk):
        h, state = model(inp[t: t + chunk], state)
        logits = h.reshape(-1, h.shape[-1]) @ W.t() + b
        y = tgt[t: t + chunk].reshape(-1)
        nll = F.cross_entropy(logits, y, reduction="none")
        nll_sum += nll.sum().item()
        cnt += y.numel()
        known = y != unk_id
        nll_known += nll[known].sum().item()
        cnt_known += int(known.sum())
    model.train()
    return math.exp(nll_sum / cnt), math.exp(nll_known / max(cnt_known, 1)), cnt


def main():
    a = parse_args()
    # torch.distributed under torchrun: WORLD_SIZE processes, this one is RANK; rank 0 logs, evaluates and
    # writes the checkpoint (each rank also keeps its own LSTM state and generators in ckpt-rankN.pt)
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    if a.device == "auto":
        a.device = "cuda" if torch.cuda.is_available() else "cpu"
    if world > 1 and a.device.startswith("cuda"):
        a.device = f"cuda:{int(os.environ.get('LOCAL_RANK', '0'))}"
    device = torch.device(a.device)
    cuda = device.type == "cuda"
    if cuda and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    if cuda:
        torch.cuda.set_device(device)
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
        a.threads = "1" if a.threads == "auto" else a.threads
    if world > 1:
        import torch.distributed as dist
        dist.init_process_group("nccl" if cuda else "gloo")
    threads = 1 if a.threads == "auto" else int(a.threads)
    torch.set_num_threads(threads)
    torch.manual_seed(a.seed)
    os.makedirs(a.dir, exist_ok=True)
    main_rank = rank == 0
    import fcntl
    lock_f = open(os.path.join(a.dir, f".train.lock{rank if rank else ''}"), "w")
    try:
        fcntl.flock(lock_f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        sys.exit(f"another train_lstm.py is running on {a.dir}")
    log_f = open(os.path.join(a.dir, "train.log"), "a") if main_rank else None

    def log(msg):
        if not main_rank:
            return
        line = time.strftime("%Y-%m-%d %H:%M:%S ", time.gmtime()) + msg
        print(line, flush=True)
        log_f.write(line + "\n")
        log_f.flush()

    meta = json.load(open(os.path.join(a.vocab_from, "meta.json")))
    V = a.vocab_size or meta["vocab_size"]
    unk_id, bos_id = meta["unk_id"], meta["bos_id"]
    assert unk_id < V and bos_id < V

    def remap(arr):
        arr = np.asarray(arr, dtype=np.int64)
        if V < meta["vocab_size"]:
            arr = np.where(arr >= V, unk_id, arr)
        return arr

    data = np.memmap(os.path.join(a.vocab_from, "train.bin"), dtype=np.int32, mode="r")
    if a.max_train_tokens:
        data = data[: a.max_train_tokens]
    L = len(data) // (a.batch * world)  # tokens per stream
    devs = {}
    for d in DEVS:
        p = os.path.join(a.vocab_from, f"dev_{d}.bin")
        if os.path.exists(p):
            s = remap(np.fromfile(p, dtype=np.int32))
            if a.eval_tokens:
                s = s[: a.eval_tokens + 1]
            devs[d] = s

    model = LM(V, a.emb, a.hidden, a.cell)
    # initialise the output bias to the log unigram distribution: faster start with sampled softmax
    counts = np.zeros(V)
    with open(os.path.join(a.vocab_from, "vocab.tsv"), encoding="utf-8") as f:
        for line in f:
            i, _, c = line.rstrip("\n").split("\t")
            i = int(i)
            counts[min(i, unk_id) if i >= V else i] += float(c)
    with torch.no_grad():
        model.out_bias.copy_(torch.from_numpy(np.log(counts / counts.sum() + 1e-12)).float())
    if a.init_from:
        from safetensors.torch import load_file
        t = load_file(a.init_from)
        C = a.cell or a.hidden
        C0 = t["w_hh"].shape[0] // 4  # cells of the source model (widened to C when C > C0)
        shapes = {"embedding": (V, a.emb), "w_ih": (4 * C0, a.emb), "w_hh": (4 * C0, a.hidden),
                  "b": (4 * C0,), "out_bias": (V,)}
        if "w_hr" in t:
            shapes["w_hr"] = (a.hidden, C0)
        for k, shape in shapes.items():
            if tuple(t[k].shape) != shape:
                sys.exit(f"{a.init_from}: {k} is {tuple(t[k].shape)}, the model needs {shape}")
        if C0 > C or (C0 < C and not a.cell):
            sys.exit(f"{a.init_from} has {C0} cells; widening to {C} needs --cell {C}")
        with torch.no_grad():
            model.embedding.weight.copy_(t["embedding"].float())
            model.out_bias.copy_(t["out_bias"].float())
            lstm = model.lstm
            # the source's cells go into the first C0 cells of every gate block; the new cells keep their
            # random init, and their columns of w_hr start at 0, so the widened model computes what the
            # source did until training moves them
            for g in range(4):
                lstm.weight_ih_l0[g * C:g * C + C0].copy_(t["w_ih"][g * C0:(g + 1) * C0].float())
                lstm.weight_hh_l0[g * C:g * C + C0].copy_(t["w_hh"][g * C0:(g + 1) * C0].float())
                lstm.bias_ih_l0[g * C:g * C + C0].copy_(t["b"][g * C0:(g + 1) * C0].float())
                lstm.bias_ih_l0[g * C + C0:(g + 1) * C].zero_()
            lstm.bias_hh_l0.zero_()
            if a.cell:
                lstm.weight_hr_l0.zero_()
                if "w_hr" in t:
                    lstm.weight_hr_l0[:, :C0].copy_(t["w_hr"].float())
                else:
                    lstm.weight_hr_l0[:, :C0].copy_(torch.eye(a.hidden, C0))
    if a.freeze_embedding:
        model.embedding.weight.requires_grad_(False)
    if a.train_rows_from:
        if not 0 < a.train_rows_from < V:
            sys.exit(f"--train-rows-from {a.train_rows_from}: the vocabulary has {V} ids")
        for p in model.lstm.parameters():
            p.requires_grad_(False)
        # Adam moves a parameter only where its gradient has ever been nonzero, so masked rows stay put
        rows = torch.zeros(V, dtype=torch.bool)
        rows[a.train_rows_from:] = True
        bias_rows = rows.clone()
        bias_rows[unk_id] = True
        model.embedding.weight.register_hook(lambda g, m=rows[:, None].to(device): g * m)
        model.out_bias.register_hook(lambda g, m=bias_rows.to(device): g * m)
    model.to(device)
    homophones = None
    if a.homophone_weight > 0:
        homophones = homophone_table(os.path.join(a.vocab_from, "vocab.tsv"), V, a.homophone_max)
        n_with = int((homophones[:, 1] >= 0).sum())
        log(f"homophone loss: weight {a.homophone_weight}, {n_with} of {V} words have homophones")
        homophones = homophones.to(device)
    params = [p for p in model.parameters() if p.requires_grad]
    if a.optimizer == "adamw":
        opt = torch.optim.AdamW(params, lr=a.lr, weight_decay=a.weight_decay)
    else:
        opt = torch.optim.Adam(params, lr=a.lr)
    config = {k: getattr(a, k) for k in ["emb", "hidden", "batch", "bptt", "neg", "max_train_tokens", "seed"]}
    config.update(vocab_size=V, unk_id=unk_id, bos_id=bos_id, vocab_from=a.vocab_from,
                  train_tokens=int(len(data)))
    if world > 1:
        config["world"] = world
    if a.softmax != "sampled":
        config["softmax"] = a.softmax
    if a.cell:
        config["cell"] = a.cell

    ckpt_path = os.path.join(a.dir, "ckpt.pt")
    rank_path = os.path.join(a.dir, f"ckpt-rank{rank}.pt")
    best_path = os.path.join(a.dir, "best.pt")
    st = {"pos": 0, "epoch": 0, "step": 0, "tokens": 0, "train_seconds": 0.0, "best": None, "since_best": 0}
    state = None
    gen = torch.Generator().manual_seed(a.seed + 7919 * rank)
    # dropout masks from their own generator (on the training device), saved in the checkpoint: a resumed
    # run draws the same masks
    dgen = torch.Generator(device=device).manual_seed(a.seed + 1000 + 7919 * rank)

    def dropout(t):
        keep = torch.empty(t.shape, dtype=torch.float32, device=t.device).bernoulli_(1 - a.dropout, generator=dgen)
        return t * (keep / (1 - a.dropout)).to(t.dtype)

    if os.path.exists(ckpt_path):
        ck = torch.load(ckpt_path, map_location=device, weights_only=False)
        if ck["config"] != config:
            sys.exit(f"{ckpt_path} was trained with another configuration:\n{ck['config']}\nvs\n{config}\n"
                     f"move it away or use another --dir")
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        st = {"best": None, "since_best": 0, **ck["st"]}
        if world > 1:
            ck = torch.load(rank_path, map_location=device, weights_only=False)
        state = ck["state"]
        gen.set_state(ck["gen"].cpu())
        if "dgen" in ck:
            dgen.set_state(ck["dgen"].cpu())
        for g in opt.param_groups:
            g["lr"] = a.lr
        log(f"resumed from {ckpt_path}: epoch {st['epoch']} pos {st['pos']}/{L} step {st['step']} "
            f"tokens {st['tokens']}")
    else:
        log(f"new run: {json.dumps(config)} params {sum(p.numel() for p in model.parameters())}"
            + (f" init from {a.init_from}" if a.init_from else ""))

    def save(path=None):
        own = {"state": state, "gen": gen.get_state(), "dgen": dgen.get_state()}
        if world > 1:
            torch.save(own, rank_path + ".tmp")
            os.replace(rank_path + ".tmp", rank_path)
        if not main_rank:
            return
        path = path or ckpt_path
        tmp = path + ".tmp"
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "st": st, **own, "config": config,
                    "args": vars(a)}, tmp)
        os.replace(tmp, path)

    def run_eval(tag):
        if not main_rank:
            return
        t = time.time()
        parts = []
        logs = []
        for d, s in devs.items():
            ppl, ppl_known, n = evaluate(model, s, V, unk_id)
            parts.append(f"{d} {ppl:.1f} (excl. <unk> {ppl_known:.1f}, {n} tok)")
            logs.append(math.log(ppl))
        score = sum(logs) / max(len(logs), 1)
        best = ""
        if a.keep_best and logs:
            if st["best"] is None or score < st["best"]:
                st["best"], st["since_best"] = score, 0
                save(best_path)
                best = " best"
            else:
                st["since_best"] += 1
        log(f"eval[{tag}] step {st['step']} tokens {st['tokens']} full-softmax ppl: " + "; ".join(parts)
            + f"; mean log ppl {score:.4f}{best} [{time.time() - t:.0f}s]")

    def sync_stop(flag):
        """Every process stops at the same step: under torch.distributed the ranks agree on any stop."""
        if world == 1:
            return flag
        t = torch.tensor([1.0 if flag else 0.0], device=device)
        torch.distributed.all_reduce(t)
        return bool(t.item() > 0)

    stop = {"flag": False}

    def on_signal(signum, frame):
        stop["flag"] = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    t_start = time.time()
    deadline = t_start + a.minutes * 60
    next_ckpt = t_start + a.ckpt_minutes * 60
    next_eval = t_start + a.eval_minutes * 60
    win_t, win_tok, win_n = time.time(), 0, 0
    win_loss = torch.zeros((), device=device)
    win_aux = torch.zeros((), device=device)
    streams = (np.arange(a.batch) + rank * a.batch) * L
    if V < meta["vocab_size"] or cuda:
        # the whole stream in memory (on the GPU when training there), ids remapped once
        data = torch.from_numpy(remap(data)).to(device)
    idx_t = None
    times = {1: [], 2: []}
    stop_at = t_start + a.stop_minutes * 60 if a.stop_minutes > 0 else deadline
    last_step = (a.stop_steps or a.steps) if a.steps else None
    if last_step is not None and st["step"] >= last_step:
        log(f"step budget already reached (step {st['step']} of {last_step})")
    if a.keep_best and st["step"] == 0:
        run_eval("start")  # the starting point is a candidate too: a run that never improves keeps it
    while not sync_stop(stop["flag"] or time.time() >= min(deadline, stop_at)
                        or (last_step is not None and st["step"] >= last_step)
                        or (a.patience > 0 and st["since_best"] >= a.patience)):
        if st["pos"] + a.bptt + 1 > L:
            st["epoch"] += 1
            st["pos"] = 0
            state = None
            idx_t = None
            log(f"epoch {st['epoch']} begins")
        idx = streams[:, None] + st["pos"] + np.arange(a.bptt + 1)[None, :]
        if torch.is_tensor(data):
            if idx_t is None:
                idx_t = torch.from_numpy(idx.reshape(-1)).to(device)
            else:
                idx_t += a.bptt
            chunk = data[idx_t].reshape(a.batch, a.bptt + 1).T
        else:
            chunk = torch.from_numpy(remap(data[idx.reshape(-1)]).reshape(a.batch, a.bptt + 1).T.copy())
        x, y = chunk[:-1], chunk[1:]
        if state is not None:
            state = tuple(s.detach() for s in state)
        t_step = time.time()
        if a.steps:
            for g in opt.param_groups:
                g["lr"] = decayed_lr(a.lr, a.steps - st["step"], a.decay_steps)
        elif a.decay_minutes > 0 and st["step"] % 10 == 0:
            for g in opt.param_groups:
                g["lr"] = decayed_lr(a.lr, deadline - t_step, a.decay_minutes * 60)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=not a.no_bf16):
            if a.dropout > 0:
                h, state = model.lstm(dropout(model.embedding(x)), state)
                h = dropout(h)
            else:
                h, state = model(x, state)
            if a.softmax == "full":
                neg = None
                loss = full_loss(model, h.reshape(-1, a.hidden), y.reshape(-1))
            else:
                neg = sample_negatives(V, a.neg, gen).to(device)
                log_q_neg = torch.log(log_uniform_q(V, a.neg, neg))
                loss = sampled_loss(model, h.reshape(-1, a.hidden), y.reshape(-1), neg, log_q_neg, V, a.neg)
            if homophones is not None:
                aux = homophone_loss(model, h.reshape(-1, a.hidden), y.reshape(-1), homophones)
                win_aux += aux.detach()
                loss = loss + a.homophone_weight * aux
        state = tuple(s.float() for s in state)
        opt.zero_grad(set_to_none=True)
        loss.float().backward()
        if world > 1:
            # gradients averaged across processes (the same update on every rank)
            for p in params:
                torch.distributed.all_reduce(p.grad)
                p.grad /= world
        nn.utils.clip_grad_norm_(params, a.clip)
        opt.step()
        if a.threads == "auto" and not cuda:
            # every 300 steps: 20 steps with the other thread count (after 3 warm-up steps), keep the faster
            k = st["step"] % 300
            dt_step = time.time() - t_step
            if k == 0:
                times = {1: [], 2: []}
                trial = 3 - threads
                torch.set_num_threads(trial)
            elif k < 47 and k >= 3:
                times[torch.get_num_threads()].append(dt_step)
                if k == 22:
                    torch.set_num_threads(threads)
                if k == 46:
                    m1, m2 = (sorted(times[t])[len(times[t]) // 2] if times[t] else 1e9 for t in (1, 2))
                    best = 1 if m1 < m2 else 2
                    if best != threads:
                        log(f"threads {threads} -> {best} (median step {m1:.3f}s with 1, {m2:.3f}s with 2)")
                    threads = best
                    torch.set_num_threads(threads)
        st["pos"] += a.bptt
        st["step"] += 1
        st["tokens"] += a.bptt * a.batch * world
        win_tok += a.bptt * a.batch * world
        win_loss += loss.detach().float()
        win_n += 1
        now = time.time()
        if st["step"] % a.log_every == 0:
            dt = now - win_t
            st["train_seconds"] += dt
            log(f"step {st['step']} epoch {st['epoch']} pos {st['pos']}/{L} tokens {st['tokens']} "
                f"{a.softmax}-loss {win_loss.item() / win_n:.3f} "
                + (f"homophone-loss {win_aux.item() / win_n:.3f} " if homophones is not None else "")
                + f"{win_tok / dt:.0f} tok/s lr {opt.param_groups[0]['lr']:.2e} "
                + (f"negs {len(neg)} " if neg is not None else "")
                + (f"{device}" if cuda else f"threads {torch.get_num_threads()}")
                + (f" x{world}" if world > 1 else ""))
            win_t, win_tok, win_n = time.time(), 0, 0
            win_loss.zero_()
            win_aux.zero_()
        if now >= next_ckpt:
            save()
            next_ckpt = time.time() + a.ckpt_minutes * 60
        if (st["step"] % a.eval_steps == 0) if a.eval_steps else now >= next_eval:
            t_eval = time.time()
            run_eval("periodic")
            next_eval = time.time() + a.eval_minutes * 60
            win_t += time.time() - t_eval  # keep eval time out of the tokens/s figure
    save()
    why = "signal" if stop["flag"] else "step budget" if last_step is not None and st["step"] >= last_step \
        else "no better dev perplexity" if a.patience > 0 and st["since_best"] >= a.patience else "time budget"
    log(f"stopped ({why}) at step {st['step']}, checkpoint saved")
    if not stop["flag"]:
        run_eval("end")
    save()
    early = a.patience > 0 and st["since_best"] >= a.patience
    if last_step is not None and st["step"] < last_step and not early:
        # a pipeline must not export a run that has not reached its step budget
        log(f"step budget not reached ({st['step']} of {last_step}): run again to continue")
        sys.exit(3)


if __name__ == "__main__":
    main()
