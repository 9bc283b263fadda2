// The colours around a field: the background behind it, and whether it is a dark field, light
// text on a dark ground, whose candidate window and suggestion list are drawn dark too (as the
// desktop IMEs follow a dark system theme, and the browser's own popups a dark page).

/**
 * The channels of a computed colour `rgb(r, g, b)` / `rgba(r, g, b, a)`, or null for any other
 * form.
 * @param {string} c
 * @returns {number[] | null} r, g, b (0–255) and alpha (0–1)
 */
export function rgba(c) {
  const m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(c);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
}

/**
 * Whether a computed colour is fully transparent (`rgba(…, 0)`, `transparent`, `… / 0)`).
 * @param {string} c
 */
export function isTransparent(c) {
  return c === 'transparent' || /^rgba\(.*,\s*0\)$/.test(c) || /\/\s*0\)$/.test(c);
}

/**
 * The colour behind an element: the first background that is not transparent on it or its
 * ancestors (across shadow roots), else the page's canvas (`Canvas`, which a page in a dark
 * colour scheme draws dark; resolved where the colour is used, in the same page).
 * @param {Element} el
 */
export function backgroundOf(el) {
  for (const node of selfAndAncestors(el)) {
    const bg = getComputedStyle(node).backgroundColor;
    if (bg && !isTransparent(bg)) return bg;
  }
  return 'Canvas';
}

/**
 * An element and its ancestors, across shadow roots (a shadow root's host follows it).
 * @param {Element} el
 * @returns {Generator<Element>}
 */
function* selfAndAncestors(el) {
  /** @type {Node | null} */
  let node = el;
  while (node) {
    if (node.nodeType === Node.ELEMENT_NODE) yield /** @type {Element} */ (node);
    node = node.parentNode ?? /** @type {ShadowRoot} */ (node).host ?? null;
  }
}

/**
 * The relative luminance of an sRGB colour (WCAG 2), 0 (black) to 1 (white).
 * @param {number[]} c r, g, b (0–255)
 */
export function luminance(c) {
  const lin = (/** @type {number} */ v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
}

/** Below this luminance a background is dark (about `#777`: a grey between the two themes). */
const DARK_GROUND = 0.18;
/** Above it a text colour is light (about `#aaa`). */
const LIGHT_TEXT = 0.4;

/**
 * Whether a field is dark: its background (its own or the nearest ancestor's that is mostly
 * opaque) darker than a middle grey; where no ancestor has one, or it is not an `rgb()` colour,
 * its text lighter than one (light text is on a dark ground, whatever draws it: the canvas of a
 * dark colour scheme, an image).
 * @param {Element} field
 * @param {CSSStyleDeclaration} cs the field's computed style
 */
export function isDarkField(field, cs) {
  for (const node of selfAndAncestors(field)) {
    const c = rgba(getComputedStyle(node).backgroundColor);
    if (c && c[3] >= 0.5) return luminance(c) < DARK_GROUND;
    if (!c) break;
  }
  const text = rgba(cs.color);
  return !!text && text[3] > 0 && luminance(text) > LIGHT_TEXT;
}
