// The script of the strict-CSP test page (tests/e2e/editing.test.mjs): no inline script is
// allowed there, so the page loads this file. Attaches the widget to #ta with the model named
// by ?model=.
import * as henkan from '/pkg/henkan.js';
import { HenkanIme } from '/www/ime.js';
import { attach } from '/www/widget.js';

const ime = new HenkanIme({ persistLearning: false });
/** @type {any} */ (window).ime = ime;
attach(/** @type {HTMLElement} */ (document.getElementById('ta')), { ime });
ime.load({ module: /** @type {any} */ (henkan), modelUrl: new URLSearchParams(location.search).get('model') ?? '/models/henkan.henkan' });
