#!/usr/bin/env bash
# Hybrid conversion accuracy with word-bias files (`henkan train-bias` output) on both dev sets,
# side by side with no bias. Usage: scripts/bias-eval.sh TAG BIAS.tsv... ("none" = bias weight 0)
# Writes build/eval/TAG.jsonl (one JSON object per line with "run" and "bias" fields).
set -euo pipefail
TAG=$1; shift
HK=${HK:-target/release/henkan}
MODEL=${MODEL:-models/henkan.henkan}
DEV=../shared/data/dev
OUT=build/eval/$TAG.jsonl
mkdir -p build/eval
: > "$OUT"
run() { # bias set digits
  local b=$1 name=$2 digits=$3 args=()
  if [ "$b" = none ]; then args=(--bias-weight 0); else args=(--bias-file "$b"); fi
  local j
  j=$($HK --model "$MODEL" eval conversion --engine "${ENGINE:-hybrid}" --digits "$digits" --input "$DEV/$name.tsv" \
      ${LIMIT:+--limit $LIMIT} "${args[@]}" ${EXTRA:-} --json | tail -1)
  python3 -c 'import json,sys; d=json.loads(sys.argv[3]); d["run"]=sys.argv[2]; d["bias"]=sys.argv[1]; print(json.dumps(d))' "$b" "$name" "$j" >> "$OUT"
}
for b in "$@"; do
  run "$b" kwdlc.test full &
  run "$b" wac.dev half
  wait
done
python3 - "$OUT" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l); print(f'{d["bias"]:40s} {d["run"]:11s} top1 {100*d["exact_top1"]:.2f} top10 {100*d["exact_top10"]:.2f} f1 {100*d["char_f1"]:.2f} ({d["sentences"]})')
PY
