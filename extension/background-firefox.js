// Firefox's background page: it has a DOM and may compile wasm, so the engine runs here (no
// offscreen documents in Firefox).

import { serveBackground } from './background-core.js';
import { startEngine } from './engine.js';
import { chromeLocal } from './learning-sync.js';

startEngine(chromeLocal);
serveBackground(async () => {});
