// The widget's stylesheet: one <style> per document, shared by every attached field.

export const STYLE_ID = 'henkan-ime-style';

export const CSS = `
.henkan-composing::placeholder { color: transparent !important; }
.henkan-layer { position: fixed; left: 0; top: 0; width: 0; height: 0; z-index: 2147483000; }
.henkan-preedit { position: fixed; display: none; white-space: pre-wrap; word-break: break-all; pointer-events: none; margin: 0; padding: 0; }
.henkan-preedit span { text-decoration: underline dotted 1px; text-underline-offset: 0.18em; }
.henkan-preedit span.henkan-converted { text-decoration: underline solid 1px; }
.henkan-preedit span.henkan-focused { text-decoration: underline solid 3px; background: #cfe0ff; }
.henkan-candidates, .henkan-suggestions { position: fixed; display: none; margin: 0; padding: 2px 0; list-style: none; background: #fff; color: #111;
  border: 1px solid #8a8a8a; border-radius: 3px; box-shadow: 0 3px 10px rgba(0,0,0,.25); min-width: 7em; max-width: 32em;
  font: 16px/1.5 system-ui, "IPAGothic", "IPAPGothic", "Noto Sans CJK JP", sans-serif; }
.henkan-candidates li, .henkan-suggestions li { padding: 1px 10px 1px 6px; cursor: pointer; white-space: nowrap; }
.henkan-candidates li[aria-selected="true"], .henkan-suggestions li[aria-selected="true"] { background: #1f5fd6; color: #fff; }
.henkan-candidates .henkan-num, .henkan-suggestions .henkan-num { display: inline-block; width: 1.5em; color: #777; font-size: 0.85em; }
.henkan-candidates li[aria-selected="true"] .henkan-num, .henkan-suggestions li[aria-selected="true"] .henkan-num { color: #dbe6ff; }
.henkan-candidates .henkan-annotation { margin-left: 1em; color: #666; font-size: 0.85em; }
.henkan-candidates li[aria-selected="true"] .henkan-annotation { color: #dbe6ff; }
.henkan-candidates li.henkan-page, .henkan-suggestions li.henkan-page { cursor: default; color: #777; font-size: 12px; text-align: right; padding: 0 8px; }
.henkan-suggestions { border-style: dashed; border-color: #6d8fc9; background: #fbfcff; }
.henkan-suggestions li.henkan-heading { cursor: default; color: #4a6aa5; font-size: 11px; padding: 0 8px 1px; border-bottom: 1px solid #e2e8f3; }
.henkan-indicator { position: fixed; display: none; font: bold 12px/1 system-ui, "IPAGothic", sans-serif; padding: 3px 5px;
  border-radius: 3px; background: #666; color: #fff; cursor: pointer; opacity: .9; user-select: none; }
.henkan-indicator[data-mode="hiragana"] { background: #c62828; }
.henkan-indicator[data-status="error"] { background: #888; }
`;

/**
 * Adds the stylesheet to a document once.
 * @param {Document} doc
 */
export function ensureStyle(doc) {
  if (doc.getElementById(STYLE_ID)) return;
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  style.textContent = CSS;
  doc.head.appendChild(style);
}
