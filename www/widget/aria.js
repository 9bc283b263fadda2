// ARIA of the field: while a candidate or suggestion is focused, the field is an expanded
// combobox pointing at it (`role=combobox`, `aria-expanded`, `aria-controls` the listbox,
// `aria-activedescendant` the option), so a screen reader reads the candidate while the focus
// stays in the field. The page's own values of these attributes are saved at attach time and
// put back when no list is focused, and on detach.

/** The attributes the widget sets on the field. */
export const LINKED = /** @type {const} */ (['aria-activedescendant', 'aria-controls', 'aria-expanded', 'role']);

export class AriaLink {
  /** @param {HTMLElement} el the field */
  constructor(el) {
    this.el = el;
    /** @type {Map<string, string | null>} the page's values (null: absent) */
    this.saved = new Map();
    for (const a of LINKED) this.saved.set(a, el.getAttribute(a));
  }

  /**
   * Points the field at an option of a listbox. Not a listbox of another document (the windows of
   * a field in a frame are drawn in the page around it, `windowHost`), where the ids would point
   * at nothing: the live region says the focused option there.
   * @param {HTMLElement} list
   * @param {string} optionId
   */
  point(list, optionId) {
    if (list.ownerDocument !== this.el.ownerDocument) return;
    this.el.setAttribute('role', 'combobox');
    this.el.setAttribute('aria-expanded', 'true');
    this.el.setAttribute('aria-controls', list.id);
    this.el.setAttribute('aria-activedescendant', optionId);
  }

  /** Puts the page's values back. */
  restore() {
    for (const [a, v] of this.saved) {
      if (v === null) this.el.removeAttribute(a);
      else this.el.setAttribute(a, v);
    }
  }

  /**
   * Puts the page's values back if the field points at this listbox (and not at another).
   * @param {string} listId
   */
  release(listId) {
    if (this.el.getAttribute('aria-controls') === listId) this.restore();
  }
}
