#!/usr/bin/env bash
# Every figure of the shipped model (BENCHMARKS.md): conversion accuracy per engine on
# both dev sets, the keystroke bench with all softmax variants, predictions with the n-gram and the LSTM.
# Usage: scripts/shipped-eval.sh [MODEL] [TAG]  → build/neural/TAG.jsonl, one JSON object per line
# (each with a "run" field); `python3 scripts/shipped-table.py build/neural/TAG.jsonl` prints the tables.
set -euo pipefail
M=${1:-models/henkan.henkan}; TAG=${2:-shipped}
HK=${HK:-target/release/henkan}
DEV=../shared/data/dev
OUT=build/neural/$TAG.jsonl
mkdir -p build/neural
: > "$OUT"
emit() { python3 -c 'import json,sys; d=json.loads(sys.argv[2]); d["run"]=sys.argv[1]; print(json.dumps(d))' "$1" "$2" >> "$OUT"; }
emit "size" "{\"bytes\": $(stat -c %s "$M")}"
for set in kwdlc.test wac.dev; do
  digits=full; [ $set = wac.dev ] && digits=half   # WAC writes numbers in ASCII digits
  for e in classic neural hybrid; do
    emit "conversion $set $e" "$($HK --model "$M" eval conversion --engine $e --digits $digits --input $DEV/$set.tsv --json | tail -1)"
  done
done
emit "bench" "$($HK --model "$M" bench keystroke --input $DEV/kwdlc.test.tsv --limit ${BENCH_LIMIT:-100} --compare --json | tail -1)"
TOK=${TOKENS:-build/corpus/dev/chat.txt}
if [ -f "$TOK" ]; then
  emit "prediction ngram" "$($HK --model "$M" eval prediction --lm ngram --tokens "$TOK" ${PRED_LIMIT:+--limit $PRED_LIMIT} --json | tail -1)"
  emit "prediction lstm" "$($HK --model "$M" eval prediction --lm lstm --lstm-weight ${LSTM_WEIGHT:-0.5} --tokens "$TOK" ${PRED_LIMIT:+--limit $PRED_LIMIT} --json | tail -1)"
fi
echo "wrote $OUT"
