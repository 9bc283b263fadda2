#!/usr/bin/env bash
# Trains the LMs of a runs file side by side on one accelerator, from the bundle `make device-bundle` wrote
# (docs/training.md, "On an accelerator"), and leaves their weights and logs in $OUT for
# `make device-import`. Runs in the repository root of a copy of the working tree, without network:
#
#   OUT=… bash training/device_run.sh build/device          # on the accelerator (the device tool's `run`,
#                                                            # carry ["build/device"])
#   DEVICE=cpu MINUTES=0.5 OUT=/tmp/o bash training/device_run.sh build/device   # the same plumbing on a CPU
#
# The runs file (RUNS, default the bundle's runs.txt, a copy of training/device_runs.txt) has one run per line:
# `name weights train_lstm.py-arguments…`; each run trains MINUTES (default 7: one device call is at most
# 10 minutes) with the full softmax, its lr decaying to a tenth over the budget, and keeps its checkpoint of
# the lowest mean dev perplexity (`--keep-best`; PICK=last takes the last instead). What comes back: out.tar.partNN (at most 15 MiB each)
# and log.txt. One call returns at most 64 MiB, four parts: the rest stays on the machine, and a second call
# while it is still warm fetches it without training again:
#
#   PARTS_FROM=4 OUT=… bash training/device_run.sh build/device   # out.tar.part04 on, the same archive
set -euo pipefail
BUNDLE=${1:?usage: device_run.sh BUNDLE_DIR}
: "${OUT:?OUT must name the folder the results go to}"
DEVICE=${DEVICE:-cuda}
MINUTES=${MINUTES:-7}
RUNS=${RUNS:-$BUNDLE/runs.txt}
PYTHON=${PYTHON:-python3}
WORK=${WORK:-/tmp/henkan-device}
PICK=${PICK:-best}
EVAL_MINUTES=${EVAL_MINUTES:-$("$PYTHON" -c "print(max(0.1, $MINUTES / 10))")}

# The packed LMs as one archive in parts of 15 MiB; made twice from the same files it is the same bytes.
split_pack() { tar -C "$WORK/pack" -cf - . | split -b 15M -d - "$OUT/out.tar.part"; }

# the same archive as the call before, only its later parts
if [ -n "${PARTS_FROM:-}" ]; then
  mkdir -p "$OUT"
  split_pack
  for p in "$OUT"/out.tar.part*; do [ $((10#${p##*part})) -ge "$PARTS_FROM" ] || rm "$p"; done
  ls -l "$OUT"
  exit 0
fi

rm -rf "$WORK" && mkdir -p "$WORK/init" "$WORK/runs" "$WORK/pack" "$OUT"
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$OUT/log.txt"; }
log "device $DEVICE, $MINUTES minutes a run, runs from $RUNS"
[ "$DEVICE" = cpu ] || nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee -a "$OUT/log.txt" || true
xz -dc "$BUNDLE/corpora.npz.xz" > "$WORK/corpora.npz"
xz -dc "$BUNDLE/init/lstm.safetensors.xz" > "$WORK/init/lstm.safetensors"
# the runs start from the shipped LM; over a vocabulary larger than its (training/extend_vocab.py), from the
# LM extended to it, new rows started from the word vectors; over one with `<unk>` classes
# (training/unk_classes.py), from the LM with the class rows appended (`make device-import` extends it the
# same way)
TRAIN_INIT="$WORK/init/lstm.safetensors"
if [ -f "$BUNDLE/dev/classes.tsv" ]; then
  TRAIN_INIT="$WORK/init/extended.safetensors"
  "$PYTHON" training/unk_classes.py init --lstm "$WORK/init/lstm.safetensors" --vocab-dir "$BUNDLE/dev" \
    --out "$TRAIN_INIT" 2>> "$OUT/log.txt"
  log "the shipped LM with $(wc -l < "$BUNDLE/dev/classes.tsv") POS ids in <unk> classes"
elif [ -d "$BUNDLE/vectors" ]; then
  mkdir -p "$WORK/vectors"
  for f in words.tsv vectors.f32; do xz -dc "$BUNDLE/vectors/$f.xz" > "$WORK/vectors/$f"; done
  TRAIN_INIT="$WORK/init/extended.safetensors"
  "$PYTHON" training/extend_vocab.py init --lstm "$WORK/init/lstm.safetensors" --vocab "$BUNDLE/dev/vocab.tsv" \
    --vectors "$WORK/vectors" --out "$TRAIN_INIT" 2>> "$OUT/log.txt"
  log "the shipped LM extended to $(wc -l < "$BUNDLE/dev/vocab.tsv") words"
fi

pids=()
names=()
while read -r name weights args; do
  case "$name" in ''|'#'*) continue ;; esac
  data="$WORK/data-$(echo "$weights" | md5sum | cut -c1-8)"
  if [ ! -f "$data/train.bin" ]; then
    "$PYTHON" training/mix_stream.py --encoded "$WORK/corpora.npz" --weights "$weights" \
      --dev-from "$BUNDLE/dev" --out "$data" 2>> "$OUT/log.txt"
  fi
  if [[ " $args " == *" --backward "* ]]; then
    args=${args//--backward/}
    if [ ! -f "$data-back/train.bin" ]; then
      "$PYTHON" training/reverse_stream.py --src "$data" --out "$data-back" 2>> "$OUT/log.txt"
    fi
    data="$data-back"
  fi
  mkdir -p "$WORK/runs/$name"
  # shellcheck disable=SC2086 # the runs file's arguments are words
  "$PYTHON" training/train_lstm.py --dir "$WORK/runs/$name" --vocab-from "$data" \
    --init-from "$TRAIN_INIT" --device "$DEVICE" --softmax full --keep-best \
    --minutes "$MINUTES" --decay-minutes "$MINUTES" --eval-minutes "$EVAL_MINUTES" --ckpt-minutes 1000 \
    $args > "$WORK/runs/$name/stdout.txt" 2>&1 &
  pids+=($!)
  names+=("$name")
  log "started $name: $weights $args"
done < "$RUNS"

status=0
failed=()
for i in "${!pids[@]}"; do
  if wait "${pids[$i]}"; then log "${names[$i]} finished"; else log "${names[$i]} failed"; status=1; failed+=("${names[$i]}"); fi
done
for name in "${names[@]}"; do
  d="$WORK/runs/$name"
  { echo "== $name"; cat "$d/train.log" 2>/dev/null || true; } >> "$OUT/log.txt"
  [[ " ${failed[*]} " == *" $name "* ]] && tail -n 20 "$d/stdout.txt" >> "$OUT/log.txt"
  ckpt="$d/best.pt"
  [ "$PICK" = best ] && [ -f "$ckpt" ] || ckpt="$d/ckpt.pt"
  [ -f "$ckpt" ] || continue
  "$PYTHON" training/export.py --dir "$d" --ckpt "$ckpt" >> "$OUT/log.txt" 2>&1 || { status=1; continue; }
  "$PYTHON" training/device_pack.py pack --init "$TRAIN_INIT" --lstm "$d/lstm.safetensors" \
    --out "$WORK/pack/$name.safetensors" >> "$OUT/log.txt" 2>&1 || status=1
done
split_pack
log "done: $(ls "$OUT" | tr '\n' ' ')"
parts=$(ls "$OUT"/out.tar.part* | wc -l)
if [ "$parts" -gt 4 ]; then
  log "$parts parts: only out.tar.part00-03 come back from one call; fetch the rest at once with PARTS_FROM=4"
fi
exit $status
