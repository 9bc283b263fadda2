// Where a field lives: its document may be a same-origin iframe's (another realm: its elements
// are not `instanceof` this window's classes), and it may sit inside an open shadow root (where
// `document.activeElement` is the shadow host and `document.getSelection()` does not reach the
// nodes inside). These helpers answer for the field's own root.

/**
 * The document or shadow root a field is in.
 * @param {HTMLElement} el
 * @returns {Document | ShadowRoot}
 */
export function rootOf(el) {
  const root = el.getRootNode();
  return root.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in root ? /** @type {ShadowRoot} */ (root) : el.ownerDocument;
}

/**
 * Whether the field has the focus (in its document or shadow root).
 * @param {HTMLElement} el
 */
export function isFocused(el) {
  return rootOf(el).activeElement === el;
}

/**
 * The element that has the focus in the field's document or shadow root.
 * @param {HTMLElement} el
 * @returns {Element | null}
 */
export function activeIn(el) {
  return rootOf(el).activeElement;
}

/**
 * The selection as the field's root sees it: Chromium's `ShadowRoot.getSelection()` inside a
 * shadow root (the document's selection is retargeted to the host there), else the document's.
 * @param {HTMLElement} el
 * @returns {Selection | null}
 */
export function selectionOf(el) {
  const root = /** @type {ShadowRoot & {getSelection?: () => Selection | null}} */ (rootOf(el));
  if (root.nodeType !== Node.DOCUMENT_NODE && typeof root.getSelection === 'function') return root.getSelection();
  return el.ownerDocument.getSelection();
}

/**
 * Whether an element is a <textarea> or an <input> (by its tag: an iframe's elements are not
 * instances of this window's classes).
 * @param {Element} el
 * @returns {el is HTMLTextAreaElement | HTMLInputElement}
 */
export function isTextField(el) {
  return el.tagName === 'TEXTAREA' || el.tagName === 'INPUT';
}
