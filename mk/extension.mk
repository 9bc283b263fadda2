# The browser extension (Manifest V3, Chromium and Firefox): built from extension/, the widget
# (www/), the wasm package (pkg/) and the model. Included by the top Makefile (`-include
# mk/*.mk`); see docs/extension.md.
#
#   make extension          dist/extension/ + dist/henkan-extension.zip (Chromium),
#                           dist/extension-firefox/ + dist/henkan-extension-firefox.zip
#   make lint-extension     web-ext lint of the Firefox variant (errors fail)
#   make test-extension     web-ext lint, tsc, the predictor's unit tests, then Chromium with the extension loaded
#   make measure-extension  content-script size, memory, per-key latency, first conversion

.PHONY: extension lint-extension test-extension measure-extension

node_modules/.bin/web-ext: package.json
	bash scripts/setup-web.sh

extension: wasm node_modules/.bin/esbuild
	sha256sum --check --quiet $(SHIPPED).sha256
	node scripts/extension.mjs --model $(SHIPPED)

lint-extension: extension node_modules/.bin/web-ext
	node_modules/.bin/web-ext lint --source-dir dist/extension-firefox

test-extension: lint-extension
	node_modules/.bin/tsc --noEmit -p extension/jsconfig.json
	node --test extension/test/
	node --test --test-concurrency=1 tests/extension/

measure-extension: extension
	node tests/extension/measure.mjs

# `make test` builds the extension and runs its tests too.
test: test-extension
