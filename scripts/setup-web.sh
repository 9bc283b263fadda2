#!/usr/bin/env bash
# Set up everything the web build and the browser tests need on a fresh Debian machine (as root).
# Idempotent: each step is skipped when what it installs is already there.
#
#   wasm32 target          rustup target add wasm32-unknown-unknown
#   wasm-bindgen CLI       wasm-bindgen-cli $WBG by `cargo install --locked`, with the lockfile
#                          scripts/wasm-bindgen-cli.lock (only if `wasm-bindgen --version` differs; see below)
#   chromium + driver      Debian chromium, chromium-driver, fonts-ipafont-gothic (Japanese glyphs in screenshots)
#   clang-14               Debian clang-14: compiles libzstd (the model's section decoder, crate zstd-sys) for wasm32
#   firefox-esr            Debian Firefox ESR: the extension's Firefox variant (tests/extension/firefox.test.mjs)
#   npm tools              playwright-core (driven against /usr/bin/chromium; never `npx playwright install`),
#                          binaryen (wasm-opt; Debian's v108 breaks wasm-bindgen's externref table), typescript,
#                          axe-core (accessibility checks in the Playwright tests), esbuild (the npm
#                          package's consumer test, the editor test and the extension's build bundle with
#                          it), web-ext (`make lint-extension`: the Firefox variant of the extension), the
#                          editors of tests/e2e/editors.test.mjs (ProseMirror, CodeMirror 6, Lexical, Quill,
#                          Slate with React, CKEditor 5, Draft.js, Trix) and Vue (a v-model form),
#                          puppeteer-core (drives Firefox over WebDriver BiDi; never downloads a browser):
#                          `npm ci` whenever a devDependency of package.json is missing
set -euo pipefail
cd "$(dirname "$0")/.."

# The wasm-bindgen crate version pinned in the wasm crate (`wasm-bindgen = "=X"`); the CLI must match it exactly.
WBG="$(sed -n 's/^wasm-bindgen *= *"=\([0-9.]*\)".*/\1/p' crates/henkan-wasm/Cargo.toml | head -n1)"
WBG="${WBG:-0.2.130}"

say() { printf '[setup-web] %s\n' "$*"; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen-cli from its crate's source with every dependency at the version in
# scripts/wasm-bindgen-cli.lock: the crate's own Cargo.lock, except webpki-roots 1.0.11, which the
# registry does not serve, moved to 1.0.10 (`cargo install --locked wasm-bindgen-cli` stops there).
# A throwaway package that depends on the crate makes cargo unpack its source.
install_wasm_bindgen() {
  local lock=scripts/wasm-bindgen-cli.lock work src
  if ! grep -A1 '^name = "wasm-bindgen-cli"$' "$lock" | grep -qx "version = \"$WBG\""; then
    say "$lock is not for wasm-bindgen-cli $WBG: make it from that version's Cargo.lock (see the comment above)"
    exit 1
  fi
  work="$(mktemp -d)"
  mkdir -p "$work/get/src"
  : > "$work/get/src/lib.rs"
  printf '[package]\nname = "get-wasm-bindgen-cli"\nversion = "0.0.0"\nedition = "2021"\npublish = false\n\n[dependencies]\nwasm-bindgen-cli = "=%s"\n\n[workspace]\n' "$WBG" > "$work/get/Cargo.toml"
  src="$(cargo metadata --format-version 1 --manifest-path "$work/get/Cargo.toml" \
    | node -e 'let t = ""; process.stdin.on("data", (d) => (t += d)).on("end", () => {
        const p = JSON.parse(t).packages.find((p) => p.name === "wasm-bindgen-cli");
        console.log(require("path").dirname(p.manifest_path));
      })')"
  cp -r "$src" "$work/cli"
  cp "$lock" "$work/cli/Cargo.lock"
  cargo install --locked --force --path "$work/cli"
  rm -rf "$work"
}

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WBG" ]; then
  say "installing wasm-bindgen-cli $WBG (a few minutes)"
  install_wasm_bindgen
fi

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
command -v clang-14 >/dev/null || missing+=(clang-14)
command -v firefox-esr >/dev/null || missing+=(firefox-esr)
# The extension's shortcut test: Chromium on a virtual display, keys pressed with xdotool.
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v xdotool >/dev/null || missing+=(xdotool)
[ -e /usr/share/fonts/opentype/ipafont-gothic/ipag.ttf ] || [ -e /usr/share/fonts/truetype/fonts-japanese-gothic.ttf ] \
  || fc-list 2>/dev/null | grep -qi 'ipagothic\|ipa gothic\|noto sans cjk' || missing+=(fonts-ipafont-gothic)
if [ "${#missing[@]}" -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Every devDependency of package.json installed (a new one added to the file triggers `npm ci`).
devdeps_missing() {
  node -e 'const fs = require("fs"); const d = JSON.parse(fs.readFileSync("package.json", "utf8")).devDependencies || {};
    process.exit(Object.keys(d).every((n) => fs.existsSync(`node_modules/${n}/package.json`)) ? 1 : 0)'
}
if ! [ -x node_modules/.bin/wasm-opt ] || ! [ -x node_modules/.bin/tsc ] || ! [ -x node_modules/.bin/esbuild ] || devdeps_missing; then
#                          and web-ext (`make lint-extension`: the Firefox variant of the browser extension)
  if [ -f package-lock.json ]; then
    say "npm ci"
    npm ci --no-audit --no-fund
  else
    say "npm install"
    npm install --no-audit --no-fund
  fi
fi

say "ok: $(rustc --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), $(chromium --version 2>/dev/null | head -n1), node $(node --version)"
