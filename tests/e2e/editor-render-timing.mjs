// Shared by measure-editor-tail.mjs and measure-editor-layouts.mjs: ProseMirror with the widget on
// the shipped model, each `PreeditBox.render` (the overlay laid out and measured) timed, a
// paragraph of long text to type into, and the summary of the renders per case, paired by round
// against a base case.
import { MODEL } from './harness.mjs';
import { bundleEditors, BUNDLE_URL } from './editors/bundle.mjs';

/** What each case types. */
export const KEYS = 'kyouhaiitenkidesune';
/** One sentence, 28 characters, to fill the paragraph with. */
export const SENTENCE = '長い段落の続きです。この文は折り返して次の行に続きます。';

/** @param {number[]} xs @param {number} p */
function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
/** @param {number} x */
const r3 = (x) => Math.round(x * 1000) / 1000;

/**
 * A page with ProseMirror (520 px wide, 20 px text) and the widget, its renders timed into
 * `window.renders`, `sentences` sentences typed at the end of its paragraph; `head` goes into the
 * page's body before the editor (a style element a case rewrites).
 * @param {{url: string}} server
 * @param {{context: import('playwright-core').BrowserContext}} browser
 * @param {number} sentences
 * @param {string} [head]
 */
export async function timedEditor(server, browser, sentences, head = '') {
  await bundleEditors();
  const page = await browser.context.newPage();
  await page.goto(`${server.url}www/test/blank.html`);
  await page.evaluate(
    async ([model, bundle, head]) => {
      const w = /** @type {any} */ (window);
      const henkan = await import('/pkg/henkan.js');
      const { HenkanIme } = await import('/www/ime.js');
      const { PreeditBox } = await import('/www/widget/preedit.js');
      const render = PreeditBox.prototype.render;
      w.renders = [];
      PreeditBox.prototype.render = function (/** @type {any} */ p) {
        const t = performance.now();
        render.call(this, p);
        w.renders.push(performance.now() - t);
      };
      const { attach } = await import('/www/widget.js');
      const editors = await import(bundle);
      document.body.innerHTML = `<style>.ProseMirror { white-space: pre-wrap; outline: none }</style>${head}
        <div id="host" style='font: 20px/1.5 "IPAGothic", "Noto Sans CJK JP", sans-serif; margin: 20px; width: 520px'></div>`;
      const ime = new HenkanIme();
      await ime.load({ module: /** @type {any} */ (henkan), modelUrl: `/${model}` });
      w.m = await editors.prosemirror(document.getElementById('host'));
      attach(w.m.field, { ime });
    },
    /** @type {[string, string, string]} */ ([MODEL, BUNDLE_URL, head]),
  );
  await page.click('#host');
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText(SENTENCE.repeat(sentences));
  return page;
}

/**
 * Types KEYS where the caret is, and cancels the composition: the renders' times and how much of
 * the block's text the overlay copied before and after the caret.
 * @param {import('playwright-core').Page} page
 */
export async function typeTimed(page) {
  await page.evaluate(() => {
    /** @type {any} */ (window).renders = [];
  });
  for (const k of KEYS) await page.keyboard.press(k);
  const r = await page.evaluate(() => ({
    renders: /** @type {number[]} */ (/** @type {any} */ (window).renders),
    head: document.querySelector('.henkan-preedit-head')?.textContent?.length ?? 0,
    tail: document.querySelector('.henkan-preedit-tail')?.textContent?.length ?? 0,
  }));
  await page.keyboard.press('Escape');
  return r;
}

/**
 * Each case's renders (p50, p95, with what it copied), and each case's round median minus the
 * same round's of `base`: the mean over the rounds and its standard error.
 * @param {Record<string, number[]>} times every render of each case
 * @param {Record<string, number[]>} medians each round's median of each case
 * @param {Record<string, object>} copied what each case copied
 * @param {string} base
 */
export function summary(times, medians, copied, base) {
  return {
    renderMs: Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, { ...copied[k], n: xs.length, p50: r3(pct(xs, 50)), p95: r3(pct(xs, 95)) }])),
    pairedP50Ms: Object.fromEntries(
      Object.keys(times)
        .filter((k) => k !== base)
        .map((k) => {
          const d = medians[k].map((m, i) => m - medians[base][i]);
          const mean = d.reduce((a, b) => a + b, 0) / d.length;
          const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, d.length - 1));
          return [k, { against: base, mean: r3(mean), se: r3(sd / Math.sqrt(d.length)) }];
        }),
    ),
  };
}

/** The median of a round's renders. @param {number[]} xs */
export const median = (xs) => pct(xs, 50);
