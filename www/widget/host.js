// Where the candidate window and the suggestion list are drawn: in the outermost document of the
// field's frame that the page's script can reach. A field in a same-origin iframe (TinyMCE,
// CKEditor 4, a `designMode` frame) would have them clipped at the frame's edge, and a list
// longer than the frame is high would make the frame scroll; a native IME's windows are drawn
// above the whole page. A cross-origin parent is out of reach (`frameElement` is null there): the
// windows stay in the last frame that can be reached.

import { px, scaleOf } from './scale.js';

/**
 * @typedef {object} WindowHost
 * @property {Document} doc the document the windows go into (the field's own when it is in no frame)
 * @property {HTMLIFrameElement[]} frames the frame elements between them, the field's frame first
 */

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
    const view = frame.ownerDocument.defaultView;
    if (!view) break;
    const r = frame.getBoundingClientRect();
    const cs = view.getComputedStyle(frame);
    const s = scaleOf(frame, cs, r);
    const x = r.left + s.x * (px(cs.borderLeftWidth) + px(cs.paddingLeft));
    const y = r.top + s.y * (px(cs.borderTopWidth) + px(cs.paddingTop));
    [left, right] = [x + s.x * left, x + s.x * right];
    [top, bottom] = [y + s.y * top, y + s.y * bottom];
  }
  return { left, top, right, bottom };
}
