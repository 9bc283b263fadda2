// Fields drawn at another scale than their CSS says: a CSS `zoom` on an ancestor or a
// `transform: scale()` around the field draws its text larger or smaller than its computed font
// size, while `getBoundingClientRect` and client rects give where it is on screen. The widget's
// mirror and overlay copy the computed styles, so they are drawn at the field's scale with a
// transform; and a `position: fixed` element is placed by CSS lengths that its own zoom (or a
// transformed ancestor, its containing block then) multiplies. Page zoom (Ctrl +/−) is neither:
// it scales everything alike and CSS pixels stay CSS pixels.

/**
 * A computed length in CSS pixels (0 for `auto`, `normal` and the like).
 * @param {string} v
 */
export function px(v) {
  return parseFloat(v) || 0;
}

/**
 * The room an element's scroll bars take from its padding box, on the side each is drawn (a
 * vertical one on the right, on the left in a right-to-left field; a horizontal one at the
 * bottom), in its own CSS pixels; 0 where less than 2 px (the rounding of its offset and client
 * sizes), and for an element without those sizes.
 * @param {Element} el
 * @param {CSSStyleDeclaration} cs its computed style
 * @returns {{left: number, right: number, bottom: number}}
 */
export function scrollBars(el, cs) {
  const box = /** @type {HTMLElement} */ (el);
  const room = (/** @type {number} */ r) => (r >= 2 ? r : 0);
  const left = room(box.clientLeft - px(cs.borderLeftWidth));
  return {
    left,
    right: room(box.offsetWidth - box.clientWidth - box.clientLeft - px(cs.borderRightWidth)),
    bottom: room(box.offsetHeight - box.clientHeight - box.clientTop - px(cs.borderBottomWidth)),
  };
}

/**
 * An element's border box in CSS pixels as laid out (before any zoom or transform of its
 * ancestors), from its computed style: exact where `offsetWidth` is rounded. A content-box
 * element's computed width and height leave out its scroll bars (a textarea with more lines than
 * it shows): their room is added back (`scrollBars`).
 * @param {CSSStyleDeclaration} cs
 * @param {Element} [el] the element, for its scroll bars
 * @returns {{width: number, height: number}}
 */
export function layoutBox(cs, el) {
  const width = px(cs.width);
  const height = px(cs.height);
  if (cs.boxSizing === 'border-box') return { width, height };
  const bars = el ? scrollBars(el, cs) : { left: 0, right: 0, bottom: 0 };
  return {
    width: width + px(cs.paddingLeft) + px(cs.paddingRight) + px(cs.borderLeftWidth) + px(cs.borderRightWidth) + bars.left + bars.right,
    height: height + px(cs.paddingTop) + px(cs.paddingBottom) + px(cs.borderTopWidth) + px(cs.borderBottomWidth) + bars.bottom,
  };
}

/**
 * How much larger an element is drawn than it is laid out: screen pixels per CSS pixel of its
 * own, across and down (1 and 1 but under a zoom or a scaling transform). Within 0.1% of 1 counts
 * as 1, so that rounding never moves an unscaled field's mirror.
 * @param {Element} el
 * @param {CSSStyleDeclaration} cs its computed style
 * @param {DOMRect} [rect] its `getBoundingClientRect()`, when the caller has it
 * @returns {{x: number, y: number}}
 */
export function scaleOf(el, cs, rect = el.getBoundingClientRect()) {
  const box = layoutBox(cs, el);
  const ratio = (/** @type {number} */ seen, /** @type {number} */ laid) => {
    if (!(laid > 0) || !(seen > 0)) return 1;
    const r = seen / laid;
    return Math.abs(r - 1) < 1e-3 ? 1 : r;
  };
  return { x: ratio(rect.width, box.width), y: ratio(rect.height, box.height) };
}

/**
 * The zoom that multiplies the `left`/`top` of a `position: fixed` element in `el` (or of `el`):
 * its `currentCSSZoom`, the product of the `zoom` of it and its ancestors; 1 where the browser
 * lacks the property, and for an element not rendered (`display: none`): the widget asks its
 * layer, which always is.
 * @param {Element} el
 * @returns {number}
 */
export function zoomOf(el) {
  const z = /** @type {Element & {currentCSSZoom?: number}} */ (el).currentCSSZoom;
  return typeof z === 'number' && z > 0 ? z : 1;
}

/**
 * The frame of the widget's layer (`position: fixed; left: 0; top: 0; right: 0`, no height): where
 * `left: 0; top: 0` puts a fixed element in it, the right edge that `right: 0` goes to, and its zoom.
 * The viewport's corner and width but under an ancestor with a transform, a filter or
 * `will-change: transform` (a <body> with `translateZ(0)`, a common way to a compositing layer; a
 * dialog that the layer went into, scaled as it opens): that element is then the containing block
 * of fixed elements, whose lengths count from its box, which may scroll with the page. One layout
 * read. For a box of the layer (its parent); the viewport's corner alone for a box in none yet.
 * @param {HTMLElement} box
 * @returns {{x: number, y: number, right: number, z: number}}
 */
export function layerFrame(box) {
  const layer = box.parentElement;
  if (!layer) return { x: 0, y: 0, right: 0, z: 1 };
  const r = layer.getBoundingClientRect();
  return { x: r.left, y: r.top, right: r.right, z: zoomOf(layer) };
}

/**
 * Puts a shown `position: fixed` element's top-left corner at a point of the viewport, wherever it
 * sits: its `left`/`top` are measured from a transformed ancestor (its containing block then)
 * and multiplied by its zoom and that ancestor's scale. Measured from where `0, 0` puts it (one
 * layout); for an element of the widget's layer, which no transform reaches, `zoomOf` suffices.
 * @param {HTMLElement} el
 * @param {number} x viewport x of its left edge (of its right edge with `fromRight`)
 * @param {number} top viewport y
 * @param {boolean} [fromRight] `x` is where its right edge goes
 */
export function placeFixed(el, x, top, fromRight = false) {
  el.style.left = '0px';
  el.style.top = '0px';
  const at = el.getBoundingClientRect();
  const cs = getComputedStyle(el);
  const box = layoutBox(cs);
  // Screen pixels per CSS pixel of `left`/`top`: the element's own scale (zoom and transforms
  // alike), measured on its box; the zoom alone when it has no box.
  const z = zoomOf(el);
  const k = box.width > 0 && at.width > 0 ? { x: at.width / box.width, y: at.height / box.height } : { x: z, y: z };
  const left = fromRight ? x - at.width : x;
  el.style.left = `${(left - at.left) / k.x}px`;
  el.style.top = `${(top - at.top) / k.y}px`;
}
