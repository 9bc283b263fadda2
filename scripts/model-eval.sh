#!/usr/bin/env bash
# Conversion accuracy and perplexity of one model file, for side-by-side comparisons of models
# (BENCHMARKS.md). Usage: scripts/model-eval.sh MODEL TAG
# Writes build/eval/TAG.jsonl (one JSON object per line, each with a "run" field):
#   kwdlc.test (full-width digits) and wac.dev (half-width digits, as Wikipedia writes them) with the
#   classic, neural and hybrid engines (hybrid at each λ of LAMBDAS, default 1), and the LM's perplexity
#   (first PPL_TOKENS targets, default 5000) on the dev sets as the analyzer cut them (build/lm/dev_*.bin)
#   and along their gold paths (build/lm-gold/dev_*_gold.bin, `make corpus-gold`), when present.
set -euo pipefail
MODEL=$1; TAG=$2
HK=${HK:-target/release/henkan}
DEV=../shared/data/dev
OUT=build/eval/$TAG.jsonl
mkdir -p build/eval
: > "$OUT"
emit() { python3 -c 'import json,sys; d=json.loads(sys.argv[2]); d["run"]=sys.argv[1]; print(json.dumps(d))' "$1" "$2" | tee -a "$OUT"; }
for f in build/lm/dev_kwdlc.bin build/lm/dev_wac.bin build/lm-gold/dev_kwdlc_gold.bin build/lm-gold/dev_wac_gold.bin; do
  [ -f "$f" ] && emit "ppl $(basename "$f" .bin)" "$($HK --model "$MODEL" eval perplexity --input "$f" --limit "${PPL_TOKENS:-5000}" --json | tail -1)"
done
for set in kwdlc.test:full wac.dev:half; do
  name=${set%%:*}; digits=${set##*:}
  for e in classic neural; do
    emit "$name $e" "$($HK --model "$MODEL" eval conversion --engine $e --digits "$digits" --input $DEV/$name.tsv ${LIMIT:+--limit $LIMIT} --json | tail -1)"
  done
  for l in ${LAMBDAS:-1}; do
    emit "$name hybrid lambda=$l" "$($HK --model "$MODEL" eval conversion --engine hybrid --lambda "$l" --digits "$digits" --input $DEV/$name.tsv ${LIMIT:+--limit $LIMIT} --json | tail -1)"
  done
done
