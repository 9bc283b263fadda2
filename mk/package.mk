# The npm package `henkan-ime`: built into dist/npm/, packed into dist/henkan-ime-VERSION.tgz, and
# tested as a consumer uses it. Included by the top Makefile (`-include mk/*.mk`); see
# docs/browser.md, *The npm package*.
#
#   make package        wasm + declarations (tsc) + model + notices → dist/npm/, then `npm pack`
#   make model-info     www/model-info.js for the shipped model (after `make model` or a new wasm format)
#   make test-package   the consumer test: install the tarball, bundle with esbuild, type in Chromium
#   make measure-package  first conversion cold / warm (Cache API) / over 8 Mbit/s; sizes

.PHONY: package model-info test-package measure-package

node_modules/.bin/esbuild: package.json
	bash scripts/setup-web.sh

package: wasm node_modules/.bin/tsc
	sha256sum --check --quiet $(SHIPPED).sha256
	node scripts/package.mjs --model $(SHIPPED)

model-info: wasm
	node scripts/model-info.mjs $(SHIPPED) > www/model-info.js.tmp && mv www/model-info.js.tmp www/model-info.js

test-package: package node_modules/.bin/esbuild
	node --test --test-concurrency=1 tests/package/

measure-package: package node_modules/.bin/esbuild
	node tests/package/measure.mjs

# `make test` runs the consumer test too.
test: test-package
