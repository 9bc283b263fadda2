// The extension's frame that draws the candidate window and the suggestion list of a field in a
// child frame of another origin, over the page around that frame (content/outer.js says who sends
// what). Its id is its URL's fragment. The lists come from the field's content script as runtime
// messages (straight, or through the background in Firefox), which the page's scripts cannot read,
// and are drawn in this document, which they cannot reach either; the page around learns only the box this frame needs. A click on an option
// goes back to the field's frame through the background (its `mousedown` prevented: the field
// keeps the focus).

import { ensureStyle } from '../www/widget/style.js';
import { listbox, fillList, optionIndex } from '../www/widget/listbox.js';
import { popupAt } from '../www/widget/layout.js';

/** @typedef {import('../www/widget/listbox.js').ListView} ListView */
/** @typedef {{x: number, y: number, sx: number, sy: number}} Origin */

/** Room around the lists for their shadow. */
const MARGIN = 12;

const id = location.hash.slice(1);
ensureStyle(document);
const sheet = new CSSStyleSheet();
sheet.replaceSync(':root { color-scheme: light; } html, body { margin: 0; background: transparent; overflow: hidden; }');
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

/** @type {Record<ListView['kind'], HTMLUListElement>} */
const lists = {
  candidates: listbox(document, 'henkan-candidates', 'candidates', '変換候補'),
  suggestions: listbox(document, 'henkan-suggestions', 'suggestions', '予測候補'),
};
document.body.append(lists.candidates, lists.suggestions);
/** @type {Partial<Record<ListView['kind'], ListView>>} */
const views = {};
/** @type {{origin: Origin, view: {width: number, height: number}} | null} where the field's frame is, from the page around */
let placed = null;
/** @type {number | null} the field's frame in this tab, where clicks go */
let fieldFrame = null;

/** Draws the lists at their places in the page around, and asks that page for their box. */
function draw() {
  if (!placed) return;
  const { origin: o, view: vp } = placed;
  /** @type {{left: number, top: number, right: number, bottom: number} | null} */
  let box = null;
  /** @type {Array<[HTMLUListElement, {left: number, top: number}]>} */
  const at = [];
  let passive = true;
  for (const kind of /** @type {const} */ (['candidates', 'suggestions'])) {
    const list = lists[kind];
    const v = views[kind];
    if (!v) {
      list.style.display = 'none';
      continue;
    }
    fillList(list, v, (i) => `${kind}-${i}`);
    list.style.display = 'block';
    list.style.left = '0px';
    list.style.top = '0px';
    const size = { width: list.offsetWidth, height: list.offsetHeight };
    const line = { left: o.x + o.sx * v.at.left, right: o.x + o.sx * v.at.right, top: o.y + o.sy * v.at.top, bottom: o.y + o.sy * v.at.bottom };
    const p = popupAt(line, size, vp, v.flow);
    at.push([list, p]);
    passive &&= v.passive;
    const r = { left: p.left, top: p.top, right: p.left + size.width, bottom: p.top + size.height };
    box = box ? { left: Math.min(box.left, r.left), top: Math.min(box.top, r.top), right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom) } : r;
  }
  if (!box) {
    parent.postMessage({ type: 'henkan-outer-box', id, box: null }, '*');
    return;
  }
  const left = Math.max(0, box.left - MARGIN);
  const top = Math.max(0, box.top - MARGIN);
  for (const [list, p] of at) {
    list.style.left = `${p.left - left}px`;
    list.style.top = `${p.top - top}px`;
  }
  const width = Math.min(vp.width, box.right + MARGIN) - left;
  const height = Math.min(vp.height, box.bottom + MARGIN) - top;
  parent.postMessage({ type: 'henkan-outer-box', id, box: { left, top, width, height }, passive }, '*');
}

/**
 * The page's theme of the windows: its custom properties, on this document's root.
 * @param {unknown} theme
 */
function setTheme(theme) {
  if (!theme || typeof theme !== 'object') return;
  for (const [k, v] of Object.entries(theme)) {
    if (k.startsWith('--henkan-') && typeof v === 'string') document.documentElement.style.setProperty(k, v);
  }
}

// The page around: where the field's frame is (from its content script; a page script could post
// here too, and would move the lists at most).
window.addEventListener('message', (e) => {
  if (e.source !== parent || e.data?.type !== 'henkan-outer-frame') return;
  const { origin, view } = e.data;
  if (![origin?.x, origin?.y, origin?.sx, origin?.sy, view?.width, view?.height].every(Number.isFinite)) return;
  const first = !placed;
  placed = { origin, view };
  draw();
  // To the field's frame, through the background (an extension frame in a page has no `tabs` in
  // Firefox).
  if (first) chrome.runtime.sendMessage({ type: 'henkan-outer-ready', id }).catch(() => {});
});

// The field's content script: the lists.
chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  // Straight from the field's content script (Chromium), or relayed by the background with the
  // field's frame (content/outer.js, background-core.js).
  const from = msg?.direct ? sender.frameId : msg?.from;
  if (msg?.id !== id || sender.id !== chrome.runtime.id || !Number.isInteger(from)) return false;
  if (msg.type === 'henkan-outer-show' && (msg.view?.kind === 'candidates' || msg.view?.kind === 'suggestions')) {
    setTheme(msg.theme);
    views[/** @type {ListView['kind']} */ (msg.view.kind)] = msg.view;
  } else if (msg.type === 'henkan-outer-hide') {
    if (msg.kind === 'all') {
      delete views.candidates;
      delete views.suggestions;
    } else delete views[/** @type {ListView['kind']} */ (msg.kind)];
  } else return false;
  fieldFrame = /** @type {number} */ (from);
  draw();
  sendResponse(!!placed);
  return false;
});

/** @param {MouseEvent} e */
const onDown = (e) => {
  e.preventDefault(); // the focus stays in the field
  const index = optionIndex(e.target);
  if (index !== null && fieldFrame !== null) chrome.runtime.sendMessage({ type: 'henkan-outer-pick', id, index, frameId: fieldFrame }).catch(() => {});
};
lists.candidates.addEventListener('mousedown', onDown);
lists.suggestions.addEventListener('mousedown', onDown);
