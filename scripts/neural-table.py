#!/usr/bin/env python3
"""Prints the markdown tables of docs/NEURAL.md from build/neural/TAG.jsonl (scripts/neural-eval.sh)."""
import json, sys

rows = [json.loads(l) for l in open(sys.argv[1])]
print("| embedding bits | LM bytes (stored) | ppl kwdlc (first tokens) | neural exact top-1 | hybrid exact top-1 |")
print("| ---: | ---: | ---: | ---: | ---: |")
by_bits = {}
for r in rows:
    run = r["run"]
    if run.startswith("ppl "):
        b = run.split()[1].split("=")[1]
        by_bits.setdefault(b, {})["ppl"] = r
    elif run.startswith("acc "):
        b = run.split()[1].split("=")[1]
        by_bits.setdefault(b, {})[r["engine"]] = r
for b, d in by_bits.items():
    p = d.get("ppl", {})
    f = lambda k: f'{100 * d[k]["exact_top1"]:.1f}%' if k in d else ""
    print(f'| {b} | {p.get("lstm_bytes", 0) / 1e6:.2f} MB | {p.get("perplexity", 0):.1f} | {f("neural")} | {f("hybrid")} |')
print()
print("| dev set | engine | sentences | exact top-1 | exact top-10 | char F1 | mean ms |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for r in rows:
    if r["run"].startswith("dev "):
        _, s, *e = r["run"].split()
        print(f'| {s} | {" ".join(e)} | {r["sentences"]} | {100 * r["exact_top1"]:.1f}% | {100 * r["exact_top10"]:.1f}% | {100 * r["char_f1"]:.1f}% | {r["mean_ms"]:.1f} |')
print()
for r in rows:
    if r["run"] == "bench":
        print(f'ivs_speedup_softmax {r.get("ivs_speedup_softmax", 0):.1f}×, ivs_speedup_total {r.get("ivs_speedup_total", 0):.1f}× ({r["keys"]} keys, {r["sentences"]} sentences, kernels {r["kernels"]})')
        print()
        print("| engine | per_key_p50_ms | per_key_p95_ms | per_key_mean_ms | softmax_ms_per_key | lstm_ms_per_key |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for name, e in r.get("engines", {}).items():
            print(f'| {name} | {e["per_key_p50_ms"]:.3f} | {e["per_key_p95_ms"]:.3f} | {e["per_key_mean_ms"]:.3f} | {e["softmax_ms_per_key"]:.3f} | {e["lstm_ms_per_key"]:.3f} |')
