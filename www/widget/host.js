// Where the candidate window and the suggestion list are drawn: in the outermost document of the
// field's frame that the page's script can reach. A field in a same-origin iframe (TinyMCE,
// CKEditor 4, a `designMode` frame) would have them clipped at the frame's edge, and a list
// longer than the frame is high would make the frame scroll; a native IME's windows are drawn
// above the whole page. A cross-origin parent is out of reach (`frameElement` is null there): the
// windows stay in the last frame that can be reached, unless the attachment is given a way to draw
// them outside it (`OuterWindows`: the browser extension's, extension/content/outer.js).

import { px, scaleOf } from './scale.js';

/**
 * @typedef {object} WindowHost
 * @property {Document} doc the document the windows go into (the field's own when it is in no frame)
 * @property {HTMLIFrameElement[]} frames the frame elements between them, the field's frame first
 */

/** @typedef {import('./listbox.js').ListView} ListView */

/**
 * @typedef {object} OuterWindows draws a field's lists outside the frames its page's script can
 *   reach: in the page around them, of another origin
 * @property {boolean} ready whether it draws them now; until then, and whenever it stops, they
 *   are drawn in the frame
 * @property {(view: ListView) => void} show draws a list as the view says
 * @property {(kind: ListView['kind']) => void} hide
 * @property {() => void} close the field is detached
 */

/**
 * @typedef {object} OuterLink what the widget gives an `OuterWindows` of a field
 * @property {Window} view the window of the host's document (`windowHost`): its parent is of
 *   another origin, and the lists' rects are in its viewport
 * @property {(index: number) => void} pick a click on an option of the list shown
 * @property {() => void} changed `ready` changed: the lists are drawn again where they now go
 */

/**
 * Whether the page around a host's document is of another origin: the document is in a frame and
 * no frame above it can be reached.
 * @param {WindowHost} host
 */
export function crossOriginAbove(host) {
  const view = host.doc.defaultView;
  return !!view && view !== view.top;
}

/**
 * The document the windows of a field in `doc` go into, and the frames between.
 * @param {Document} doc the field's document
 * @returns {WindowHost}
 */
export function windowHost(doc) {
  /** @type {HTMLIFrameElement[]} */
  const frames = [];
  let view = doc.defaultView;
  while (view) {
    /** @type {Element | null} */
    let frame = null;
    try {
      frame = view.frameElement;
    } catch {
      // a parent of another origin
    }
    const parent = frame?.ownerDocument;
    if (!frame || !parent?.body) break;
    frames.push(/** @type {HTMLIFrameElement} */ (frame));
    view = parent.defaultView;
  }
  return { doc: frames.length ? frames[frames.length - 1].ownerDocument : doc, frames };
}

/**
 * A rectangle of the field's viewport in the host's viewport: through each frame, the frame's
 * content box (inside its border and padding) and its scale on screen (a CSS zoom or a scaling
 * transform around the frame). One layout read per frame.
 * @param {WindowHost} host
 * @param {{left: number, top: number, right: number, bottom: number}} rect
 * @returns {{left: number, top: number, right: number, bottom: number}}
 */
export function toHost(host, rect) {
  let { left, top, right, bottom } = rect;
  for (const frame of host.frames) {
    const o = frameOrigin(frame);
    if (!o) break;
    [left, right] = [o.x + o.sx * left, o.x + o.sx * right];
    [top, bottom] = [o.y + o.sy * top, o.y + o.sy * bottom];
  }
  return { left, top, right, bottom };
}

/**
 * Where a frame's viewport is drawn in the viewport around it: the frame's content box (inside
 * its border and padding), and its scale on screen (a CSS zoom or a scaling transform around the
 * frame). A point `(x, y)` of the frame's viewport is at `(o.x + o.sx · x, o.y + o.sy · y)`. One
 * layout read; null once the frame's document is gone.
 * @param {HTMLIFrameElement} frame
 * @returns {{x: number, y: number, sx: number, sy: number} | null}
 */
export function frameOrigin(frame) {
  const view = frame.ownerDocument.defaultView;
  if (!view) return null;
  const r = frame.getBoundingClientRect();
  const cs = view.getComputedStyle(frame);
  const s = scaleOf(frame, cs, r);
  return { x: r.left + s.x * (px(cs.borderLeftWidth) + px(cs.paddingLeft)), y: r.top + s.y * (px(cs.borderTopWidth) + px(cs.paddingTop)), sx: s.x, sy: s.y };
}

/**
 * The element in the browser's top layer that holds `el` (an open modal <dialog>, an open popover,
 * the fullscreen element), across shadow roots; null when none does.
 * @param {HTMLElement} el
 * @returns {Element | null}
 */
export function topLayerOf(el) {
  /** @type {Element | null} */
  let node = el.parentElement ?? /** @type {ShadowRoot} */ (el.getRootNode()).host ?? null;
  while (node) {
    for (const pseudo of TOP_LAYER) {
      try {
        if (node.matches(pseudo)) return node;
      } catch {
        // a pseudo-class this browser lacks
      }
    }
    node = node.parentElement ?? /** @type {ShadowRoot} */ (node.getRootNode()).host ?? null;
  }
  return null;
}

/** What puts an element in the top layer. */
const TOP_LAYER = [':modal', ':popover-open', ':fullscreen'];
