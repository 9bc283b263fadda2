# LM training pipeline (training/README.md): tokenize -> vocab -> train -> export.
# Everything is written under build/ ; ../shared/data is only read.
PYTHON ?= python3
DATA ?= $(SHARED)/data
TOK_TARGET := build/tokenize-target
TOK_BIN := $(TOK_TARGET)/release/henkan-tokenize
TCMALLOC := /usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4
TORCH_ENV := $(if $(wildcard $(TCMALLOC)),LD_PRELOAD=$(TCMALLOC)) OMP_NUM_THREADS=2
TRAIN_MINUTES ?= 120
TRAIN_ARGS ?=

TOK_TRAIN := chat docs jglue aozora kwdlc wac
TOK_DEV := chat kwdlc wac
CORPUS_TOK := $(TOK_TRAIN:%=build/corpus/train/%.txt) $(TOK_DEV:%=build/corpus/dev/%.txt)

.PHONY: corpus-tok vocab train lm-export lm-tiny train-deps

$(TOK_BIN): training/tokenize/Cargo.toml training/tokenize/src/main.rs training/tokenize/char.def training/tokenize/unk.def
	CARGO_TARGET_DIR=$(TOK_TARGET) cargo build --release -j 2 --manifest-path training/tokenize/Cargo.toml
	touch $@

# One run (the dictionary is built once, ~12 s); writes build/corpus/stats.tsv and *.unk (top unknown words).
build/corpus/.done: $(TOK_BIN) build/mozc/lex.tsv build/mozc/matrix.bin
	mkdir -p build/corpus/train build/corpus/dev
	rm -f build/corpus/stats.tsv
	$(TOK_BIN) --lex build/mozc/lex.tsv --matrix build/mozc/matrix.bin --stats build/corpus/stats.tsv \
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

build/lm/vocab.tsv: build/corpus/.done training/vocab.py
	mkdir -p build/lm
	$(PYTHON) training/vocab.py --corpus build/corpus --out build/lm

vocab: build/lm/vocab.tsv

train-deps:
	@$(PYTHON) -c 'import torch, numpy, safetensors' 2>/dev/null || $(PYTHON) -m pip install torch numpy safetensors
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

# A fresh checkout has no checkpoint: `make model` trains one (TRAIN_MINUTES; see training/README.md).
build/lm/ckpt.pt: | build/lm/vocab.tsv
	$(MAKE) train
