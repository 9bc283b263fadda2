// The candidate window: the page of candidates of the focused segment under it, the selected
// one aria-selected (and the field's aria-activedescendant), the page label when there are more.

import { candidatePage, popupAt } from './layout.js';
import { layerFrame } from './scale.js';
import { toHost } from './host.js';
import { listbox, fillList } from './listbox.js';

/** @typedef {import('../types.js').CandidateList} CandidateList */
/** @typedef {import('./preedit.js').PreeditBox} PreeditBox */
/** @typedef {import('./aria.js').AriaLink} AriaLink */
/** @typedef {import('./host.js').WindowHost} WindowHost */
/** @typedef {import('./host.js').OuterWindows} OuterWindows */
/** @typedef {import('./listbox.js').ListView} ListView */

export class CandidateWindow {
  /**
   * @param {WindowHost} host the document it is drawn in (`windowHost`)
   * @param {string} id the field's widget id (the list's and options' ids start with it)
   * @param {PreeditBox} preedit the box it opens under
   * @param {AriaLink} aria
   */
  constructor(host, id, preedit, aria) {
    this.id = id;
    this.host = host;
    this.preedit = preedit;
    this.aria = aria;
    this.el = listbox(host.doc, 'henkan-candidates', `${id}-candidates`, '変換候補');
    /** @type {OuterWindows | null} draws it outside the frames, when it is ready */
    this.outer = null;
  }

  /**
   * The id of the option of candidate `index`.
   * @param {number} index
   */
  optionId(index) {
    return `${this.id}-cand-${index}`;
  }

  /**
   * Shows the candidates (when the list is open and not empty) or hides the window: in the host's
   * document, or outside the frames where `outer` draws it.
   * @param {CandidateList | null} cands
   */
  render(cands) {
    const list = this.el;
    const doc = list.ownerDocument;
    const outer = this.outer?.ready ? this.outer : null;
    if (cands && cands.open && cands.items.length > 0) {
      const { options, page } = candidatePage(cands);
      // At the focused segment, below the preedit; above it when there is no room below (beside it
      // in vertical text). In the host's viewport, where the field is in a frame.
      const anchor = this.preedit.anchor();
      const a = toHost(this.host, anchor.getClientRects()[0] ?? anchor.getBoundingClientRect());
      /** @type {ListView} */
      const view = {
        kind: 'candidates',
        rows: options.map((row) => ({ ...row, note: cands.annotations?.[row.index] })),
        label: page,
        passive: false,
        at: { left: a.left, top: a.top, right: a.right, bottom: a.bottom },
        flow: this.preedit.flow,
        dark: this.preedit.dark,
      };
      if (outer) {
        this.hideHere();
        outer.show(view);
        return;
      }
      this.outer?.hide('candidates');
      fillList(list, view, (i) => this.optionId(i));
      list.style.display = 'block';
      // On screen, where a zoomed <body> (the layer's zoom) draws it larger; placed in the layer's
      // frame (a transformed <body> moves it).
      const frame = layerFrame(list);
      const z = frame.z;
      const size = { width: z * list.offsetWidth, height: z * list.offsetHeight };
      const vp = { width: doc.documentElement.clientWidth, height: doc.documentElement.clientHeight };
      const { left, top } = popupAt(a, size, vp, this.preedit.flow);
      list.style.left = `${(left - frame.x) / z}px`;
      list.style.top = `${(top - frame.y) / z}px`;
      this.aria.point(list, this.optionId(cands.selected));
    } else {
      this.outer?.hide('candidates');
      this.hideHere();
    }
  }

  /** Hides the window drawn in the host's document. */
  hideHere() {
    const list = this.el;
    if (!list.firstChild) return;
    list.style.display = 'none';
    list.replaceChildren();
    this.aria.restore();
  }
}
