// The widget's stylesheet: one per document, shared by every attached field, and one per shadow
// root that holds a field. A constructed stylesheet (`adoptedStyleSheets`), which a
// Content-Security-Policy without 'unsafe-inline' in `style-src` allows; a <style> element only
// where constructed stylesheets are missing. Colours and the font of the windows are CSS custom
// properties with these defaults, so a page themes them on :root (the windows live in a layer at
// the end of <body>, or in the modal dialog or popover that holds the field): --henkan-font, --henkan-bg, --henkan-fg, --henkan-border,
// --henkan-selected-bg, --henkan-selected-fg, --henkan-focused-segment-bg,
// --henkan-indicator-on-bg. A dark field (light text on a dark ground, `widget/theme.js`) has its
// lists and its focused segment drawn with dark defaults (`henkan-dark`); the page's properties
// apply to both. In forced colours (Windows' contrast themes) the selected option and the focused
// segment are drawn in the system's Highlight colours, which the browser would otherwise reset.

export const STYLE_ID = 'henkan-ime-style';

export const CSS = `
.henkan-composing::placeholder { color: transparent !important; }
.henkan-layer { position: fixed; left: 0; top: 0; right: 0; height: 0; z-index: 2147483000; }
.henkan-composing { caret-color: transparent !important; }
.henkan-hidden-text { color: transparent !important; -webkit-text-fill-color: transparent !important; }
.henkan-hidden-text::selection { background: transparent !important; color: transparent !important; }
.henkan-preedit { position: fixed; display: none; pointer-events: none; margin: 0; background: transparent; }
.henkan-preedit-overlay { white-space: pre-wrap; overflow-wrap: anywhere; }
.henkan-warm { position: fixed; left: 0; top: 0; width: 1px; height: 1px; overflow: hidden; visibility: hidden; white-space: pre; }
.henkan-preedit-cover { position: absolute; z-index: -1; background: var(--henkan-overlay-bg, #fff); }
.henkan-preedit-below { left: 0; right: 0; bottom: 0; }
.henkan-preedit-head > span:not([style*="background-color"]),
.henkan-preedit-tail > span:not([style*="background-color"]),
.henkan-preedit-overlay .henkan-preedit-runs span:not(.henkan-focused),
.henkan-preedit-covering .henkan-preedit-runs span:not(.henkan-focused) { background: var(--henkan-overlay-bg, #fff); }
.henkan-preedit-runs span { text-decoration: underline dotted 1px; text-underline-offset: 0.18em; }
.henkan-preedit-runs span.henkan-converted { text-decoration: underline solid 1px; }
.henkan-preedit-runs.henkan-refused span { text-decoration: underline wavy 2px #c00; }
.henkan-preedit-runs span.henkan-focused { text-decoration: underline solid 3px; background: var(--henkan-focused-segment-bg, #cfe0ff); color: var(--henkan-fg, #111); }
.henkan-preedit-runs span.henkan-caret { display: inline-block; width: 0; height: 1.15em; margin-right: -1px; vertical-align: text-bottom;
  border-left: 1px solid currentColor; text-decoration: none; animation: henkan-blink 1.06s steps(1) infinite; }
@keyframes henkan-blink { 50% { border-left-color: transparent; } }
.henkan-candidates, .henkan-suggestions { position: fixed; display: none; margin: 0; padding: 2px 0; list-style: none; background: var(--henkan-bg, #fff); color: var(--henkan-fg, #111);
  border: 1px solid var(--henkan-border, #8a8a8a); border-radius: 3px; box-shadow: 0 3px 10px rgba(0,0,0,.25); min-width: 7em; max-width: 32em;
  font: var(--henkan-font, 16px/1.5 system-ui, "IPAGothic", "IPAPGothic", "Noto Sans CJK JP", sans-serif); }
.henkan-candidates li, .henkan-suggestions li { padding: 1px 10px 1px 6px; cursor: pointer; white-space: nowrap; }
.henkan-candidates li[aria-selected="true"], .henkan-suggestions li[aria-selected="true"] { background: var(--henkan-selected-bg, #1f5fd6); color: var(--henkan-selected-fg, #fff); }
.henkan-candidates .henkan-num, .henkan-suggestions .henkan-num { display: inline-block; width: 1.5em; color: #666; font-size: 0.85em; }
.henkan-candidates li[aria-selected="true"] .henkan-num, .henkan-suggestions li[aria-selected="true"] .henkan-num { color: #dbe6ff; }
.henkan-candidates .henkan-annotation { margin-left: 1em; color: #666; font-size: 0.85em; }
.henkan-candidates li[aria-selected="true"] .henkan-annotation { color: #dbe6ff; }
.henkan-candidates li.henkan-page, .henkan-suggestions li.henkan-page { cursor: default; color: #666; font-size: 12px; text-align: right; padding: 0 8px; }
.henkan-suggestions { border-style: dashed; border-color: #6d8fc9; background: #fbfcff; }
.henkan-suggestions.henkan-passive { pointer-events: none; }
.henkan-suggestions li.henkan-heading { cursor: default; color: #4a6aa5; font-size: 11px; padding: 0 8px 1px; border-bottom: 1px solid #e2e8f3; }
.henkan-candidates.henkan-dark, .henkan-suggestions.henkan-dark { background: var(--henkan-bg, #2b2c30); color: var(--henkan-fg, #ececec);
  border-color: var(--henkan-border, #6b6b73); box-shadow: 0 3px 12px rgba(0,0,0,.6); color-scheme: dark; }
.henkan-dark .henkan-num, .henkan-dark .henkan-annotation, .henkan-dark li.henkan-page { color: #a3a3ab; }
.henkan-suggestions.henkan-dark { border-color: #6d8fc9; background: #26282d; }
.henkan-suggestions.henkan-dark li.henkan-heading { color: #9db8ea; border-bottom-color: #3a404c; }
.henkan-preedit-runs.henkan-dark span.henkan-focused { background: var(--henkan-focused-segment-bg, #2f4d80); color: var(--henkan-fg, #f4f4f4); }
.henkan-indicator { position: fixed; display: none; font: bold 12px/1 system-ui, "IPAGothic", sans-serif; padding: 3px 5px;
  border-radius: 3px; background: #666; color: #fff; cursor: pointer; opacity: .9; user-select: none; }
.henkan-indicator[data-mode="hiragana"], .henkan-indicator[data-mode="katakana"] { background: var(--henkan-indicator-on-bg, #c62828); }
.henkan-indicator[data-status="error"] { background: #666; }
.henkan-indicator:focus-visible { outline: 2px solid #1f5fd6; outline-offset: 1px; }
@media (forced-colors: active) {
  .henkan-candidates li[aria-selected="true"], .henkan-suggestions li[aria-selected="true"], .henkan-preedit-runs span.henkan-focused {
    forced-color-adjust: none; background: Highlight; color: HighlightText; }
  .henkan-candidates li[aria-selected="true"] .henkan-num, .henkan-suggestions li[aria-selected="true"] .henkan-num,
  .henkan-candidates li[aria-selected="true"] .henkan-annotation { color: HighlightText; }
  .henkan-indicator { border: 1px solid; }
}
.henkan-sr-only { position: fixed; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0; }
`;

/** @type {WeakMap<Document | ShadowRoot, CSSStyleSheet | HTMLStyleElement>} */
const added = new WeakMap();

/**
 * Adds the stylesheet to a document, or to a shadow root (whose fields carry the widget's classes
 * and whose indicator sits beside them, out of reach of the document's sheets), once. The sheet
 * is constructed in the root's own window (an iframe's document adopts only sheets of its realm).
 * @param {Document | ShadowRoot} root
 */
export function ensureStyle(root) {
  if (added.has(root) || root.getElementById(STYLE_ID)) return;
  const doc = root.nodeType === Node.DOCUMENT_NODE ? /** @type {Document} */ (root) : /** @type {Document} */ (root.ownerDocument);
  const win = /** @type {(Window & typeof globalThis) | null} */ (doc.defaultView);
  if (win && 'adoptedStyleSheets' in root && typeof win.CSSStyleSheet?.prototype.replaceSync === 'function') {
    const sheet = new win.CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    added.set(root, sheet);
    return;
  }
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  style.textContent = CSS;
  if (root === doc) doc.head.appendChild(style);
  else root.prepend(style);
  added.set(root, style);
}
