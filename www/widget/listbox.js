// What the candidate window and the suggestion list share: a listbox <ul> whose options are
// numbered (the digit picks one), and the option under a click.

/** @typedef {import('./layout.js').OptionRow} OptionRow */

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
 * The index of the option a click landed on (on its number or its text), or null.
 * @param {EventTarget | null} target
 * @returns {number | null}
 */
export function optionIndex(target) {
  const li = /** @type {HTMLElement | null} */ (target && /** @type {Node} */ (target).nodeType === 1 ? /** @type {Element} */ (target).closest('li[data-index]') : null);
  return li ? Number(li.dataset.index) : null;
}
