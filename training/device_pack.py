#!/usr/bin/env python3
"""Packs an exported LM (training/export.py's lstm.safetensors) small enough to come back from an accelerator,
and unpacks it here (docs/training.md, "On an accelerator").

  pack:   an embedding equal to the starting LM's (--init: the LM the run started from) is left out and
          restored from that LM on unpacking, bit for bit, so `henkan model attach lstm --keep-embedding`
          accepts the LM; a trained embedding travels as its difference from the starting LM's, int8 with one
          float32 scale per row (a weight is off by at most half its row's largest change / 127; a row that
          did not move comes back exact), so that a 100,000-word LM (25.6 MB) comes back and re-packing finds
          the shipped rows as they were. The other tensors stay f32.
  unpack: (--init: the same starting LM) every NAME.safetensors of the tar that device_run.sh split into out.tar.partNN becomes
          OUT/NAME/lstm.safetensors (f32, export.py's tensors and metadata) with vocab.tsv beside it, and
          OUT/NAME/embedding.txt saying `kept` or `trained`.

  python3 training/device_pack.py pack --init INIT.safetensors --lstm RUN/lstm.safetensors --out NAME.safetensors
  python3 training/device_pack.py unpack --init INIT.safetensors --vocab vocab.tsv --parts DIR --out DIR
"""
import argparse
import glob
import io
import os
import shutil
import sys
import tarfile

import numpy as np
from safetensors import safe_open
from safetensors.numpy import save_file


def load(path):
    with safe_open(path, framework="np") as f:
        return {k: f.get_tensor(k) for k in f.keys()}, dict(f.metadata() or {})


def pack(a):
    init, _ = load(a.init)
    run, meta = load(a.lstm)
    if run["embedding"].shape != init["embedding"].shape:
        sys.exit(f"{a.lstm}: embedding {run['embedding'].shape}, the starting LM's {init['embedding'].shape}")
    if np.array_equal(run["embedding"], init["embedding"]):
        del run["embedding"]
        meta["henkan_embedding"] = "kept"
    else:
        delta = run.pop("embedding").astype(np.float32) - init["embedding"].astype(np.float32)
        scale = np.abs(delta).max(axis=1) / 127
        scale[scale == 0] = 1
        run["embedding_q"] = np.clip(np.rint(delta / scale[:, None]), -127, 127).astype(np.int8)
        run["embedding_scale"] = scale.astype(np.float32)
        meta["henkan_embedding"] = "trained"
    save_file(run, a.out, metadata=meta)
    print(f"{a.out}: {os.path.getsize(a.out)} bytes, embedding {meta['henkan_embedding']}")


def unpack(a):
    parts = sorted(glob.glob(os.path.join(a.parts, "out.tar.part*")))
    if not parts:
        sys.exit(f"no out.tar.part* in {a.parts}")
    blob = b"".join(open(p, "rb").read() for p in parts)
    init, _ = load(a.init)
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        for m in tar.getmembers():
            if not (m.isfile() and m.name.endswith(".safetensors")):
                continue
            name = os.path.basename(m.name)[: -len(".safetensors")]
            tmp = os.path.join(a.out, name + ".packed")
            os.makedirs(a.out, exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(tar.extractfile(m).read())
            run, meta = load(tmp)
            os.remove(tmp)
            kind = meta.pop("henkan_embedding", "trained")
            if kind == "kept":
                run["embedding"] = init["embedding"]
            else:
                q, scale = run.pop("embedding_q"), run.pop("embedding_scale")
                if q.shape != init["embedding"].shape:
                    sys.exit(f"{name}: embedding {q.shape}, the starting LM's {init['embedding'].shape}")
                run["embedding"] = init["embedding"].astype(np.float32) + q.astype(np.float32) * scale[:, None]
            d = os.path.join(a.out, name)
            os.makedirs(d, exist_ok=True)
            save_file({k: np.ascontiguousarray(v) for k, v in run.items()},
                      os.path.join(d, "lstm.safetensors"), metadata=meta)
            shutil.copyfile(a.vocab, os.path.join(d, "vocab.tsv"))
            classes = os.path.join(os.path.dirname(os.path.abspath(a.vocab)), "classes.tsv")
            if os.path.exists(classes):  # an LM with `<unk>` classes: `attach lstm` reads them beside vocab.tsv
                shutil.copyfile(classes, os.path.join(d, "classes.tsv"))
            with open(os.path.join(d, "embedding.txt"), "w") as f:
                f.write(kind + "\n")
            print(f"{d}: embedding {kind}, steps {meta.get('steps')}, tokens {meta.get('tokens')}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pack")
    p.add_argument("--init", required=True)
    p.add_argument("--lstm", required=True)
    p.add_argument("--out", required=True)
    u = sub.add_parser("unpack")
    u.add_argument("--init", required=True)
    u.add_argument("--vocab", required=True)
    u.add_argument("--parts", required=True)
    u.add_argument("--out", required=True)
    a = ap.parse_args()
    pack(a) if a.cmd == "pack" else unpack(a)


if __name__ == "__main__":
    main()
