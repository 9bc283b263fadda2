#!/usr/bin/env python3
"""A training stream mixed from corpora encoded once each (`vocab.py --save-encoded`), as `vocab.py --weights`
mixes it from the analyzed text: the same blocks, draws and shuffle, so the same weights and seed give the same
train.bin. It lets an accelerator without the corpora's text train on other mixes than the shipped one
(docs/training.md, "On an accelerator").

  python3 training/mix_stream.py --encoded corpora.npz --weights kwdlc=10,wac=10,chat=2,docs=2,jglue=3,aozora=0.5 \\
      --dev-from DIR --out OUT

writes OUT/train.bin, and copies vocab.tsv and dev_*.bin from --dev-from, with a meta.json, so OUT can be
train_lstm.py's --vocab-from.
"""
import argparse
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vocab  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--encoded", required=True, help="the .npz of vocab.py --save-encoded")
    ap.add_argument("--weights", required=True, help="name=weight,... as vocab.py --weights")
    ap.add_argument("--dev-from", required=True, help="directory with vocab.tsv and dev_*.bin")
    ap.add_argument("--out", required=True)
    ap.add_argument("--block", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    weights = vocab.parse_weights(args.weights)
    enc, (unk_id, bos_id) = vocab.load_encoded(args.encoded, list(weights))
    os.makedirs(args.out, exist_ok=True)
    train, report = vocab.mix_stream(enc, weights, args.block, args.seed, args.out)
    for fn in ["vocab.tsv"] + [f"dev_{d}.bin" for d in ["chat", "kwdlc", "wac"]]:
        shutil.copyfile(os.path.join(args.dev_from, fn), os.path.join(args.out, fn))
    # an LM with `<unk>` classes (training/unk_classes.py): its table goes with the vocabulary
    if os.path.exists(os.path.join(args.dev_from, "classes.tsv")):
        shutil.copyfile(os.path.join(args.dev_from, "classes.tsv"), os.path.join(args.out, "classes.tsv"))
    with open(os.path.join(args.out, "meta.json"), "w") as f:
        json.dump({"vocab_size": vocab.vocab_size(os.path.join(args.out, "vocab.tsv")), "unk_id": unk_id,
                   "bos_id": bos_id, "train_tokens": int(len(train)), "weights": weights,
                   "vocab_from": args.encoded}, f)
    print("\n".join(report), file=sys.stderr)


if __name__ == "__main__":
    main()
