// Bundles tests/e2e/editors/editors.mjs (the editors from npm) with esbuild into
// tests/e2e/output/editors/editors.js, which the test server serves at
// /tests/e2e/output/editors/editors.js. The widget is not in the bundle: the page imports it from
// www/ as it is.
import path from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT, ensureOutput } from '../harness.mjs';

/** The bundle's URL path on the test server. */
export const BUNDLE_URL = '/tests/e2e/output/editors/editors.js';

export async function bundleEditors() {
  ensureOutput();
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'tests/e2e/editors/editors.mjs')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: path.join(ROOT, BUNDLE_URL.slice(1)),
    absWorkingDir: ROOT,
    // Draft.js's fbjs reads Node's `global`.
    define: {
      'process.env.NODE_ENV': '"production"',
      global: 'globalThis',
      // Vue's build flags for a bundler
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    minifySyntax: true,
    logLevel: 'error',
  });
}
