// The candidate window and the suggestion list of a field in a frame of another origin than the
// page around it (a chat or comment box in an iframe): drawn in that page, where the frame's edge
// does not clip them, as a native IME's windows are drawn above the whole page.
//
// The page around the frame must not see what is typed in it, so the lists are drawn in a frame of
// the extension's own (windows.html, windows.js), which the content script of the page around
// places over the page; that page's scripts can read neither its document nor the messages it
// gets. What goes where:
//
//   the field's frame  → its parent (postMessage)         `henkan-outer`: a random id, nothing typed
//   the parent         → windows.html#id (a frame it adds) its place: the field's frame's box
//   windows.html       → the field's frame               ready, once it is placed; a click's option
//   the field's frame  → windows.html                    the lists: rows, where they open
//   windows.html       → its parent (postMessage)         the box it needs on the page, nothing typed
//
// The third and the fourth are runtime messages, which the page's scripts cannot read: the lists
// straight to windows.html where they arrive (Chromium), else through the background (Firefox
// gives an extension frame in a page no runtime message of a content script); ready and clicks
// through the background (an extension frame in a page has no `tabs` in Firefox).
//
// Until windows.html answers (a page around where the extension runs no script, a frame still
// loading) and whenever a list does not reach it, the lists are drawn in the field's frame.

import { frameOrigin, topLayerOf } from '../../www/widget/host.js';

/** @typedef {import('../../www/widget/host.js').OuterLink} OuterLink */
/** @typedef {import('../../www/widget/host.js').OuterWindows} OuterWindows */
/** @typedef {import('../../www/widget/listbox.js').ListView} ListView */

/** The page's theme of the windows (widget/style.js): passed on to windows.html. */
const THEME = ['--henkan-font', '--henkan-bg', '--henkan-fg', '--henkan-border', '--henkan-selected-bg', '--henkan-selected-fg'];

/** @typedef {OuterWindows & {ready: boolean, to: number}} FieldWindows `to`: the lists' frame, once ready */
/** @type {Map<string, {windows: FieldWindows, link: OuterLink, reset: () => void}>} this frame's fields' windows by id; `reset` forgets what was sent */
const fields = new Map();

/**
 * The `outerWindows` of a field attached in this frame (`attach` option): announces the field to
 * the page around its host, and draws its lists in the extension's frame there once it answers.
 * @param {OuterLink} link
 * @returns {OuterWindows}
 */
export function outerWindows(link) {
  const id = crypto.randomUUID();
  /** @type {Record<string, string>} what was sent last per list, so that a repeated render sends nothing */
  const sent = {};
  /** @type {Record<string, string> | null} */
  let theme = null;
  /** Nothing more is sent once the field is detached. */
  let closed = false;
  /** Whether the extension's frame takes runtime messages straight from this content script
   * (Chromium; null: not tried yet); else they go through the background (Firefox). */
  let direct = /** @type {boolean | null} */ (null);
  /** @param {object} msg */
  const send = async (msg) => {
    const ask = (/** @type {object} */ m) =>
      chrome.runtime.sendMessage({ ...m, id }).then(
        (ok) => ok === true,
        () => false,
      );
    if (direct !== false) {
      const ok = await ask({ ...msg, direct: true });
      if (ok || direct) return ok;
      direct = false;
    }
    return ask({ ...msg, to: windows.to });
  };
  /** Forgets what was sent: the lists go again, wherever they are drawn next. */
  const reset = () => {
    for (const k of Object.keys(sent)) delete sent[k];
  };
  /** The extension's frame did not take a list: draw them in the field's frame again. */
  const lost = () => {
    if (closed || !windows.ready) return;
    windows.ready = false;
    reset();
    link.changed();
  };
  /** @type {FieldWindows} */
  const windows = {
    ready: false,
    to: -1,
    show(view) {
      const json = JSON.stringify(view);
      if (closed || sent[view.kind] === json) return;
      sent[view.kind] = json;
      theme ??= themeOf(link.view.document);
      send({ type: 'henkan-outer-show', view, theme }).then((ok) => ok || lost());
    },
    hide(kind) {
      if (closed || !sent[kind]) return;
      delete sent[kind];
      send({ type: 'henkan-outer-hide', kind }).then((ok) => ok || lost());
    },
    close() {
      if (closed) return;
      if (Object.keys(sent).length) send({ type: 'henkan-outer-hide', kind: 'all' });
      closed = true;
      fields.delete(id);
      try {
        link.view.parent.postMessage({ type: 'henkan-outer-close', id }, '*');
      } catch {
        // the frame is gone already
      }
    },
  };
  fields.set(id, { windows, link, reset });
  // From the host's window: the parent finds the frame it is in by it.
  try {
    link.view.parent.postMessage({ type: 'henkan-outer', id }, '*');
  } catch {
    // no parent to reach
  }
  return windows;
}

/**
 * The page's values of the windows' custom properties, as its :root sets them.
 * @param {Document} doc
 */
function themeOf(doc) {
  const cs = doc.defaultView?.getComputedStyle(doc.documentElement);
  /** @type {Record<string, string>} */
  const out = {};
  for (const name of THEME) {
    const v = cs?.getPropertyValue(name).trim();
    if (v) out[name] = v;
  }
  return out;
}

// windows.html answers a field of this frame: it is placed (draw the lists there), or a click
// landed on an option.
chrome.runtime.onMessage.addListener((msg, sender) => {
  if (sender.id !== chrome.runtime.id || typeof msg?.id !== 'string') return false;
  const field = fields.get(msg.id);
  if (!field) return false;
  if (msg.type === 'henkan-outer-ready' && Number.isInteger(msg.frameId)) {
    // Placed, first or again (the frame loaded anew, empty): the lists are sent to it afresh.
    field.windows.ready = true;
    field.windows.to = msg.frameId;
    field.reset();
    field.link.changed();
  } else if (msg.type === 'henkan-outer-pick' && Number.isInteger(msg.index)) {
    field.link.pick(msg.index);
  }
  return false;
});

/** The extension's frames this page draws for fields in its child frames, by id. */
const outers = /** @type {Map<string, {frame: HTMLIFrameElement, child: HTMLIFrameElement, loaded: boolean}>} */ (new Map());
/** The most extension frames one page keeps (the oldest goes). */
const MAX_OUTERS = 16;
const WINDOWS_ORIGIN = new URL(chrome.runtime.getURL('')).origin;

/**
 * The iframe element of this document whose window is `source` or holds it.
 * @param {MessageEventSource | null} source
 */
function childFrameOf(source) {
  /** @type {any} */
  let w = source;
  try {
    while (w && w.parent !== w && w.parent !== window) w = w.parent;
  } catch {
    return null;
  }
  if (!w || w.parent !== window) return null;
  for (const f of document.querySelectorAll('iframe, frame')) {
    if (/** @type {HTMLIFrameElement} */ (f).contentWindow === w) return /** @type {HTMLIFrameElement} */ (f);
  }
  return null;
}

/**
 * Sets a style property past the page's own rules.
 * @param {HTMLElement} el
 * @param {Record<string, string>} props
 */
function force(el, props) {
  for (const [k, v] of Object.entries(props)) el.style.setProperty(k, v, 'important');
}

/**
 * Tells an extension frame where its field's frame is now: its viewport's origin and scale in this
 * page's viewport, and this viewport's size. Removes it once the field's frame is gone.
 * @param {string} id
 */
function place(id) {
  const o = outers.get(id);
  if (!o?.loaded) return;
  const origin = o.child.isConnected ? frameOrigin(o.child) : null;
  if (!origin) {
    drop(id);
    return;
  }
  // Into the modal dialog, popover or fullscreen element that now holds the field's frame (the
  // rest of the page is under it, and inert): moved, the frame loads again and says ready again.
  const home = homeOf(o.child);
  if (o.frame.parentNode !== home) {
    o.loaded = false;
    home.append(o.frame);
    return;
  }
  const view = { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight };
  o.frame.contentWindow?.postMessage({ type: 'henkan-outer-frame', origin, view }, WINDOWS_ORIGIN);
}

/**
 * Where an extension frame goes: in the element of the top layer that holds the field's frame, else
 * at the end of <html> (no part of the page's <body>).
 * @param {HTMLIFrameElement} child
 */
function homeOf(child) {
  return topLayerOf(child) ?? document.documentElement;
}

/** @param {string} id */
function drop(id) {
  const o = outers.get(id);
  if (!o) return;
  outers.delete(id);
  o.frame.remove();
  resizes.unobserve(o.child);
}

/** The page scrolled or resized, or a field's frame did: place every extension frame again. */
const placeAll = () => {
  for (const id of outers.keys()) place(id);
};
const resizes = new ResizeObserver(placeAll);

/**
 * Serves the fields of child frames of another origin: adds an extension frame for each field
 * that announces itself, and sizes and places it as it asks. Called once per frame.
 */
export function serveOuterWindows() {
  window.addEventListener('message', (e) => {
    const data = e.data;
    if (typeof data?.type !== 'string' || !data.type.startsWith('henkan-outer') || typeof data.id !== 'string') return;
    const o = outers.get(data.id);
    if (o && e.source === o.frame.contentWindow) {
      // The extension frame's box: its lists' union, or none.
      if (data.type === 'henkan-outer-box') setBox(o.frame, data.box, !!data.passive);
      return;
    }
    if (data.type === 'henkan-outer-close') {
      if (o && childFrameOf(e.source) === o.child) drop(data.id);
      return;
    }
    if (data.type !== 'henkan-outer' || o || !/^[\w-]{1,64}$/.test(data.id)) return;
    const child = childFrameOf(e.source);
    if (!child) return;
    // A frame that announces fields without end costs the page at most this many hidden frames.
    if (outers.size >= MAX_OUTERS) drop(/** @type {string} */ (outers.keys().next().value));
    const frame = document.createElement('iframe');
    frame.src = chrome.runtime.getURL(`windows.html#${data.id}`);
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    force(frame, {
      position: 'fixed',
      border: '0',
      margin: '0',
      padding: '0',
      background: 'transparent',
      'color-scheme': 'light',
      'z-index': '2147483000',
      'max-width': 'none',
      'max-height': 'none',
    });
    setBox(frame, null, true);
    const entry = { frame, child, loaded: false };
    outers.set(data.id, entry);
    frame.addEventListener('load', () => {
      entry.loaded = true;
      place(data.id);
    });
    homeOf(child).append(frame);
    resizes.observe(child);
    if (outers.size === 1) {
      window.addEventListener('scroll', placeAll, true);
      window.addEventListener('resize', placeAll);
    }
  });
}

/**
 * @param {HTMLIFrameElement} frame
 * @param {{left: number, top: number, width: number, height: number} | null} box
 * @param {boolean} passive clicks go through to the page
 */
function setBox(frame, box, passive) {
  const ok = box && [box.left, box.top, box.width, box.height].every(Number.isFinite);
  // Hidden, not undisplayed: the lists in it are measured, which needs its document laid out.
  if (!ok) {
    force(frame, { visibility: 'hidden', left: '0', top: '0', width: '1px', height: '1px', 'pointer-events': 'none' });
    return;
  }
  force(frame, {
    visibility: 'visible',
    left: `${box.left}px`,
    top: `${box.top}px`,
    width: `${Math.max(0, box.width)}px`,
    height: `${Math.max(0, box.height)}px`,
    'pointer-events': passive ? 'none' : 'auto',
  });
}
