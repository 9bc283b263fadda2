#!/usr/bin/env bash
# Measures the neural engine (docs/NEURAL.md): quantization table, dev-set accuracy per engine,
# λ sweep, keystroke bench. Usage: scripts/neural-eval.sh LM_DIR TAG [BITS_SHIPPED]
# Writes build/neural/TAG.jsonl (one JSON object per line, each with a "run" field).
set -euo pipefail
LM=${1:-build/lm}; TAG=${2:-final}; SHIP=${3:-8}
HK=${HK:-target/release/henkan}
DEV=../shared/data/dev
OUT=build/neural/$TAG.jsonl
mkdir -p build/neural build/models
: > "$OUT"
base=build/models/$TAG-base.henkan
$HK build-model --name full --out "$base" >/dev/null 2>&1
emit() { python3 -c 'import json,sys; d=json.loads(sys.argv[2]); d["run"]=sys.argv[1]; print(json.dumps(d))' "$1" "$2" >> "$OUT"; }
for b in ${BITS:-32 8 6 5 4 3}; do
  m=build/models/$TAG-lstm$b.henkan
  $HK attach-lstm --in "$base" --lstm "$LM" --lstm-bits "$b" --out "$m" 2>/dev/null
  emit "ppl bits=$b size=$(stat -c %s "$m")" "$($HK --model "$m" eval perplexity --input ${PPL_INPUT:-build/lm/dev_kwdlc.bin} --limit ${PPL_TOKENS:-1000} --json | tail -1)"
  for e in neural hybrid; do
    emit "acc bits=$b $e kwdlc${ACC_LIMIT:+ limit=$ACC_LIMIT}" "$($HK --model "$m" eval conversion --engine $e --input $DEV/kwdlc.test.tsv ${ACC_LIMIT:+--limit $ACC_LIMIT} --json | tail -1)"
  done
done
m=build/models/$TAG-lstm$SHIP.henkan
for set in kwdlc.test wac.dev; do
  emit "dev $set classic" "$($HK --model "$m" eval conversion --engine classic --input $DEV/$set.tsv --json | tail -1)"
  emit "dev $set neural" "$($HK --model "$m" eval conversion --engine neural --input $DEV/$set.tsv --json | tail -1)"
  for l in ${LAMBDAS:-0.5 1 2}; do
    emit "dev $set hybrid lambda=$l" "$($HK --model "$m" eval conversion --engine hybrid --lambda $l --input $DEV/$set.tsv --json | tail -1)"
  done
done
emit "bench" "$($HK --model "$m" bench keystroke --input $DEV/kwdlc.test.tsv --limit ${BENCH_LIMIT:-100} --compare --json | tail -1)"
echo "wrote $OUT"
