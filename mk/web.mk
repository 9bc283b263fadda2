# henkan in the browser: the wasm package, the demo server and the web tests.
# Included by the top Makefile (`-include mk/*.mk`). See docs/browser.md.
#
#   make setup-web   install the wasm target, wasm-bindgen CLI, chromium, npm tools (idempotent)
#   make wasm        build pkg/ (henkan.js + henkan_bg.wasm, SIMD, wasm-opt -O3)
#   make demo        wasm + model, then serve http://127.0.0.1:8000 with COOP/COEP headers
#   make test-web    node unit tests, tsc, wasm-bindgen-test (node + headless chromium), Playwright e2e
#   make measure-web per-key latency, sizes, load time -> tests/e2e/output/measurements.json

WASM_TARGET := wasm32-unknown-unknown
WASM_RAW := target/$(WASM_TARGET)/release/henkan_wasm.wasm
WASM_PKG := pkg/henkan_bg.wasm
# The model of the demo and of all web tests (e.g. `make test-web WEB_MODEL=build/web/pruned.henkan`).
WEB_MODEL ?= models/henkan.henkan
WEB_PORT ?= 8000
# Features of the wasm module that wasm-opt may keep (rustc's wasm32 defaults plus simd128).
WASM_OPT_FEATURES := --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
	--enable-sign-ext --enable-reference-types --enable-multivalue --enable-mutable-globals

.PHONY: setup-web wasm demo serve-web test-web test-web-unit test-web-tsc test-web-wasm test-web-e2e measure-web

setup-web:
	bash scripts/setup-web.sh

node_modules/.bin/wasm-opt node_modules/.bin/tsc: package.json
	bash scripts/setup-web.sh

# cargo decides whether the crate changed (a no-op when it did not); pkg/ is regenerated when the raw
# module is newer. (Never trust file dates against crates/ alone: a fresh clone dates everything alike.)
# WASM_FEATURES=heap-stats counts the heap for `heapStats()` (measure-web builds it; +48 KB).
# setup-web.sh first (idempotent, 0.2 s when all is there): the build needs the wasm32 target and
# clang-14 (libzstd is C).
WASM_FEATURES ?=
wasm:
	@bash scripts/setup-web.sh
	cargo build -p henkan-wasm --target $(WASM_TARGET) --release --lib $(if $(WASM_FEATURES),--features $(WASM_FEATURES))
	$(MAKE) --no-print-directory $(WASM_PKG)

$(WASM_PKG): $(WASM_RAW) node_modules/.bin/wasm-opt
	wasm-bindgen --target web --out-dir pkg --out-name henkan $(WASM_RAW)
	node_modules/.bin/wasm-opt -O3 $(WASM_OPT_FEATURES) $(WASM_PKG) -o $(WASM_PKG).tmp
	mv $(WASM_PKG).tmp $(WASM_PKG)
	@ls -l $(WASM_PKG) | awk '{print "pkg/henkan_bg.wasm:", $$5, "bytes"}'

# The model is built by the engine's Makefile rules (target `model`) when it is missing.
$(WEB_MODEL):
	$(MAKE) model

demo: wasm $(WEB_MODEL)
	@echo "open http://127.0.0.1:$(WEB_PORT)/index.html?model=$(WEB_MODEL)"
	node scripts/serve-web.mjs --port $(WEB_PORT)

serve-web:
	node scripts/serve-web.mjs --port $(WEB_PORT)

test-web: test-web-unit test-web-tsc test-web-wasm test-web-e2e

test-web-unit:
	node --test www/test/

# demo.js imports pkg/henkan.js, so its .d.ts must exist.
test-web-tsc: node_modules/.bin/tsc wasm
	node_modules/.bin/tsc --noEmit -p www/jsconfig.json

# crates/henkan-wasm/tests: web_node.rs runs in node, web_browser.rs in headless chromium
# (chromedriver on PATH; webdriver.json adds the flags), neural_kernels_wasm.rs checks the simd128
# kernels against their scalar twins. The first two include_bytes! the shipped model.
# web_scenarios (native) runs first: it rewrites the golden trace when the model changed.
# The ci profile (optimized): the neural and hybrid conversions of the golden's `## engines` section are
# too slow in an unoptimized wasm build for the webdriver's 20 s script timeout.
test-web-wasm: $(WEB_MODEL)
	HENKAN_WEB_MODEL=$(abspath $(WEB_MODEL)) cargo test --profile ci -p henkan-wasm --test web_scenarios
	HENKAN_WEB_MODEL=$(abspath $(WEB_MODEL)) cargo test --profile ci -p henkan-wasm --target $(WASM_TARGET) --features heap-stats --test web_node --test web_browser --test neural_kernels_wasm

test-web-e2e: wasm $(WEB_MODEL)
	HENKAN_E2E_MODEL=$(WEB_MODEL) node --test --test-concurrency=1 tests/e2e/

# Measured with the heap counted (WASM_FEATURES=heap-stats); `make wasm` afterwards for the lean module.
measure-web: $(WEB_MODEL)
	$(MAKE) --no-print-directory wasm WASM_FEATURES=heap-stats
	HENKAN_E2E_MODEL=$(WEB_MODEL) node tests/e2e/measure.mjs
