# LMs trained on an accelerator in one call (docs/training.md, "On an accelerator"): what travels, what runs
# there, and what comes back made into models and measured here.
#
#   make device-bundle                     # build/device/: the corpora encoded once each, the dev streams,
#                                          # the shipped LM decoded, the runs file (≈ 20 MB, xz)
#   (device tool) run  command: OUT=$OUT bash training/device_run.sh build/device   carry: ["build/device"]
#   make device-import FROM=<files_at>     # each LM that came back into build/device/models/NAME.henkan
#   make device-eval                       # each of them against the shipped model, hybrid, three dev sets
DEVICE_DIR := build/device
DEVICE_CORPORA := kwdlc=1,wac=1,chat=1,docs=1,jglue=1,aozora=1
# The vocabulary the LMs train over (vocab.tsv and dev_*.bin in its ids) and their runs file. A larger
# vocabulary, for a larger model: `make lm-large` (training/extend_vocab.py: the shipped LM's words, then
# the next 50,000), DEVICE_LM=build/lm-large DEVICE_RUNS=training/device_runs_large.txt; the bundle then
# carries the word vectors, and device_run.sh extends the shipped LM to it before training. A vocabulary
# with `<unk>` classes (training/unk_classes.py, classes.tsv beside vocab.tsv): the same, the class rows
# appended by `unk_classes.py init`.
DEVICE_LM ?= build/lm
DEVICE_RUNS ?= training/device_runs.txt
COHERENCE_VECTORS := build/coherence/vectors
# More `eval conversion` flags for device-eval (`--limit 100` for a quick look).
DEVICE_EVAL_FLAGS ?=

.PHONY: device-bundle device-import device-eval

device-bundle: $(DEVICE_DIR)/runs.txt

$(DEVICE_DIR)/runs.txt: $(DEVICE_LM)/vocab.tsv build/lm/vocab.tsv $(SHIPPED) training/vocab.py $(DEVICE_RUNS) | $(HENKAN)
	$(PIP_DEPS)
	rm -rf $(DEVICE_DIR) && mkdir -p $(DEVICE_DIR)/dev $(DEVICE_DIR)/init
	python3 training/vocab.py --corpus build/corpus --vocab-tsv $(DEVICE_LM)/vocab.tsv --weights $(DEVICE_CORPORA) \
	  --save-encoded $(DEVICE_DIR)/corpora.npz
	xz -T2 -6 $(DEVICE_DIR)/corpora.npz
	cp $(DEVICE_LM)/vocab.tsv $(DEVICE_LM)/dev_chat.bin $(DEVICE_LM)/dev_kwdlc.bin $(DEVICE_LM)/dev_wac.bin $(DEVICE_DIR)/dev/
	@# an LM with `<unk>` classes (training/unk_classes.py): the streams write rare words as their class
	if [ -f $(DEVICE_LM)/classes.tsv ]; then cp $(DEVICE_LM)/classes.tsv $(DEVICE_DIR)/dev/; fi
	$(HENKAN) --model $(SHIPPED) model export-lstm --out $(DEVICE_DIR)/init
	@# The streams' ids must be the shipped LM's: its perplexity on the kwdlc dev stream is about 69 with
	@# them and about 180 with a vocabulary in another order (the training would start from nonsense). A
	@# larger vocabulary must start with the shipped one, and its dev streams go past the shipped LM's ids.
	set -e; if cmp -s $(DEVICE_LM)/vocab.tsv build/lm/vocab.tsv; then \
	  $(HENKAN) --model $(SHIPPED) eval perplexity --input $(DEVICE_DIR)/dev/dev_kwdlc.bin --limit 2000 --json \
	  | python3 -c 'import json,sys; p = json.load(sys.stdin)["perplexity"]; print(f"shipped LM on the bundle: kwdlc perplexity {p:.1f}"); \
	  sys.exit(0 if p < 100 else "build/lm/vocab.tsv is not the shipped LM vocabulary")'; \
	else \
	  n=$$(wc -l < build/lm/vocab.tsv); head -n $$n $(DEVICE_LM)/vocab.tsv | cut -f1,2 | cmp -s - <(cut -f1,2 build/lm/vocab.tsv) \
	    || { echo "$(DEVICE_LM)/vocab.tsv does not start with the shipped LM vocabulary"; exit 1; }; \
	  mkdir -p $(DEVICE_DIR)/vectors && cp $(COHERENCE_VECTORS)/words.tsv $(COHERENCE_VECTORS)/vectors.f32 $(DEVICE_DIR)/vectors/; \
	  xz -T2 -6 $(DEVICE_DIR)/vectors/vectors.f32 $(DEVICE_DIR)/vectors/words.tsv; \
	  echo "a vocabulary of $$(wc -l < $(DEVICE_LM)/vocab.tsv) words: the shipped LM is extended to it on the device"; \
	fi
	xz -T2 -6 $(DEVICE_DIR)/init/lstm.safetensors
	cp $(DEVICE_RUNS) $@
	du -sh $(DEVICE_DIR)

# FROM: the folder the device tool put the files of $OUT in (out.tar.partNN, log.txt).
device-import: $(DEVICE_DIR)/runs.txt | $(HENKAN)
	@test -n "$(FROM)" || { echo "FROM=<folder with out.tar.part*> is required"; exit 1; }
	$(PIP_DEPS)
	rm -rf $(DEVICE_DIR)/lms $(DEVICE_DIR)/models && mkdir -p $(DEVICE_DIR)/models
	xz -dc $(DEVICE_DIR)/init/lstm.safetensors.xz > $(DEVICE_DIR)/init/lstm.safetensors
	@# the LM the runs started from: over a larger vocabulary, the shipped one extended as device_run.sh did
	set -e; if [ -f $(DEVICE_DIR)/dev/classes.tsv ]; then \
	  python3 training/unk_classes.py init --lstm $(DEVICE_DIR)/init/lstm.safetensors --vocab-dir $(DEVICE_DIR)/dev \
	    --out $(DEVICE_DIR)/init/start.safetensors; \
	elif [ -d $(DEVICE_DIR)/vectors ]; then \
	  for f in words.tsv vectors.f32; do xz -dc $(DEVICE_DIR)/vectors/$$f.xz > $(DEVICE_DIR)/init/$$f; done; \
	  python3 training/extend_vocab.py init --lstm $(DEVICE_DIR)/init/lstm.safetensors --vocab $(DEVICE_DIR)/dev/vocab.tsv \
	    --vectors $(DEVICE_DIR)/init --out $(DEVICE_DIR)/init/start.safetensors; \
	else cp $(DEVICE_DIR)/init/lstm.safetensors $(DEVICE_DIR)/init/start.safetensors; fi
	python3 training/device_pack.py unpack --init $(DEVICE_DIR)/init/start.safetensors \
	  --vocab $(DEVICE_DIR)/dev/vocab.tsv --parts $(FROM) --out $(DEVICE_DIR)/lms
	rm -f $(DEVICE_DIR)/init/lstm.safetensors $(DEVICE_DIR)/init/start.safetensors $(DEVICE_DIR)/init/words.tsv $(DEVICE_DIR)/init/vectors.f32
	@# an LM over a larger vocabulary goes in with its embedding, kept or not (the shipped one has fewer rows)
	set -e; for d in $(DEVICE_DIR)/lms/*/; do n=$$(basename $$d); m=$(DEVICE_DIR)/models/$$n.henkan; \
	  k=$$(cat $$d/embedding.txt); [ -d $(DEVICE_DIR)/vectors ] && k=trained; \
	  case "$$n:$$k" in \
	  back*) $(HENKAN) model attach backward --in $(SHIPPED) --lstm $$d --bits $(BACK_BITS) \
	      --bias-bits $(BACK_BIAS_BITS) --compress 19 --out $$m ;; \
	  *:kept) $(HENKAN) model attach lstm --in $(SHIPPED) --lstm $$d --lstm-bits $(LM_BITS) --keep-embedding \
	      --compress 19 --out $$m ;; \
	  *) $(HENKAN) model attach lstm --in $(SHIPPED) --lstm $$d --lstm-bits $(LM_BITS) --compress 19 --out $$m; \
	     $(MAKE) --no-print-directory word-bias MODEL=$$m ;; \
	  esac; ls -l $$m; done

# One line of device-eval: model $$m with engine $$e against the shipped one on set $(1) (eval flags $(2)).
device_versus = printf '%s %s %s: ' $$n $$e $(1); $(HENKAN) --model $$m eval conversion --engine $$e $(2) \
  --versus-model $(SHIPPED) $(DEVICE_EVAL_FLAGS) | grep -E '^(versus|[0-9]+ sentences)' | tr '\n' ' '; echo;

# Hybrid exact top-1 of every imported model against the shipped one, sentence by sentence (the back-* models
# with the LM alone, the engine that reads the backward LM).
device-eval: build/corpus/dev/chat.tsv | $(HENKAN)
	@set -e; for m in $(DEVICE_DIR)/models/*.henkan; do n=$$(basename $$m .henkan); \
	  case $$n in back*) e=neural ;; *) e=hybrid ;; esac; \
	  $(call device_versus,kwdlc,--digits full --input $(SHARED)/data/dev/kwdlc.test.tsv) \
	  $(call device_versus,wac,--digits half --input $(SHARED)/data/dev/wac.dev.tsv) \
	  $(call device_versus,chat,--input build/corpus/dev/chat.tsv) \
	done
