#!/usr/bin/env python3
"""Prints the markdown tables of scripts/shipped-eval.sh's JSON lines."""
import json
import sys

rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if l.strip()]
for r in rows:
    if r["run"] == "size":
        print(f"model bytes: {r['bytes']:,}\n")
print("| dev set | engine | exact top-1 | exact top-10 | up to spelling | char F1 | mean ms / sentence |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for r in rows:
    if r["run"].startswith("conversion"):
        _, s, e = r["run"].split()
        print(f"| {s} | {e} | {100*r['exact_top1']:.1f}% | {100*r['exact_top10']:.1f}% | {100*r['same_words_top1']:.1f}% | {100*r['char_f1']:.1f}% | {r['mean_ms']:.1f} |")
for r in rows:
    if r["run"] == "bench":
        print()
        print(f"ivs_speedup_softmax {r.get('ivs_speedup_softmax', 0):.1f}×, ivs_speedup_total {r.get('ivs_speedup_total', 0):.1f}×")
        print("| engine | per_key_p50_ms | per_key_p95_ms | softmax_ms_per_key |")
        print("| --- | ---: | ---: | ---: |")
        for name, e in r.get("engines", {}).items():
            print(f"| {name} | {e['per_key_p50_ms']:.3f} | {e['per_key_p95_ms']:.3f} | {e['softmax_ms_per_key']:.3f} |")
preds = [r for r in rows if r["run"].startswith("prediction")]
if preds:
    print()
    print("| model | words | nwp_top1 | nwp_top3 | ksr | mean ms | p95 ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in preds:
        print(f"| {r['model']} | {r['words']} | {r['nwp_top1']:.3f} | {r['nwp_top3']:.3f} | {r['ksr']:.3f} | {r['mean_ms']:.2f} | {r['p95_ms']:.2f} |")
