# The playground as a static site. Included by the top Makefile (`-include mk/*.mk`); see
# docs/browser.md, *The playground as a static site*.
#
#   make site        dist/site/: index.html, www/, pkg/, the model; relative URLs, no headers needed
#   make serve-site  serves dist/ with a plain static server (python3 -m http.server: no COOP/COEP,
#                    no cache headers) at http://127.0.0.1:$(SITE_PORT)/site/, a sub-path as on a host
#   make test-site   the static-site test alone (it also runs in test-web-e2e, hence in `make test`)

SITE_DIR := dist/site
SITE_PORT ?= 8001

.PHONY: site serve-site test-site

site: wasm $(WEB_MODEL)
	node scripts/build-site.mjs --out $(SITE_DIR) --model $(WEB_MODEL)

serve-site: site
	@echo "open http://127.0.0.1:$(SITE_PORT)/site/"
	python3 -m http.server $(SITE_PORT) --bind 127.0.0.1 --directory $(dir $(SITE_DIR))

test-site: site
	HENKAN_E2E_MODEL=$(WEB_MODEL) node --test tests/e2e/site.test.mjs
