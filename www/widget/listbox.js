// What the candidate window and the suggestion list share: a listbox <ul> whose options are
// numbered (the digit picks one), and the option under a click.

/** @typedef {import('./layout.js').OptionRow} OptionRow */

/**
 * @typedef {object} ListView what a list shows and where it opens: what its window is drawn from,
 *   in the field's frame or outside it (`OuterWindows`, widget/host.js)
 * @property {'candidates' | 'suggestions'} kind
 * @property {Array<OptionRow & {note?: string}>} rows the options; `note` a candidate's annotation
 * @property {string | null} label the candidate window's page label (`2/3`), the suggestion list's heading
 * @property {boolean} passive clicks go through it to the text under it (next-word predictions nobody entered)
 * @property {{left: number, top: number, right: number, bottom: number}} at the text it opens at
 *   (the preedit's focused segment, the caret's line), in the host's viewport
 * @property {'down' | 'left' | 'right'} flow where the field's lines follow one another
 * @property {boolean} dark drawn dark: the field is light text on a dark ground (`isDarkField`)
 */

/**
 * An empty listbox.
 * @param {Document} doc
 * @param {string} className
 * @param {string} id
 * @param {string} label its accessible name
 */
export function listbox(doc, className, id, label) {
  const list = doc.createElement('ul');
  list.className = className;
  list.id = id;
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', label);
  return list;
}

/**
 * One option: its number (hidden from screen readers: the option's name is the text), the text.
 * @param {Document} doc
 * @param {string} id
 * @param {OptionRow} row
 */
export function optionElement(doc, id, row) {
  const li = doc.createElement('li');
  li.id = id;
  li.setAttribute('role', 'option');
  li.setAttribute('aria-selected', String(row.selected));
  li.dataset.index = String(row.index);
  const num = doc.createElement('span');
  num.className = 'henkan-num';
  num.textContent = row.number;
  num.setAttribute('aria-hidden', 'true');
  li.append(num, doc.createTextNode(row.text));
  return li;
}

/**
 * A row that is not an option (the page label, the heading).
 * @param {Document} doc
 * @param {string} className
 * @param {string} text
 */
export function presentationRow(doc, className, text) {
  const li = doc.createElement('li');
  li.className = className;
  li.setAttribute('role', 'presentation');
  li.textContent = text;
  return li;
}

/**
 * Fills a list with a view's rows: the candidates, each with its annotation beside it as Mozc
 * shows it (`[全]カタカナ`, `[環境依存]`), then the page label; or the suggestions' heading, then
 * the suggestions.
 * @param {HTMLUListElement} list
 * @param {ListView} view
 * @param {(index: number) => string} optionId
 */
export function fillList(list, view, optionId) {
  const doc = list.ownerDocument;
  /** @type {HTMLLIElement[]} */
  const items = view.rows.map((row) => {
    const li = optionElement(doc, optionId(row.index), row);
    if (row.note) {
      const span = doc.createElement('span');
      span.className = 'henkan-annotation';
      span.textContent = row.note;
      li.append(span);
    }
    return li;
  });
  if (view.kind === 'suggestions') items.unshift(presentationRow(doc, 'henkan-heading', view.label ?? ''));
  else if (view.label !== null) items.push(presentationRow(doc, 'henkan-page', view.label));
  list.replaceChildren(...items);
  list.classList.toggle('henkan-passive', view.passive);
  list.classList.toggle('henkan-dark', !!view.dark);
}

/**
 * The index of the option a click landed on (on its number or its text), or null.
 * @param {EventTarget | null} target
 * @returns {number | null}
 */
export function optionIndex(target) {
  const li = /** @type {HTMLElement | null} */ (target && /** @type {Node} */ (target).nodeType === 1 ? /** @type {Element} */ (target).closest('li[data-index]') : null);
  return li ? Number(li.dataset.index) : null;
}
