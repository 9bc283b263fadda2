// The preedit in the text flow, as a native IME shows it: the text after the caret moves right
// (and wraps) as the composition grows, a selection is replaced, the segments are underlined,
// the focused one highlighted, and a caret blinks inside unconverted kana.
//
// The field's value is not touched until a commit, so that one commit is one undo step
// (`execCommand('insertText')` in commit.js) and the page sees `input` events only for text
// that is really there; every programmatic change of a textarea's value would either reset
// Chromium's undo stack (assigning `value`) or be an undo step of its own.
//
// - <textarea>/<input>: a *mirror* over the field draws its text with the preedit in place of
//   the selection, in the field's box, font, wrapping and scroll; the field's own text, caret
//   and selection are made transparent meanwhile (class `henkan-hidden-text`). The text before
//   and after the selection is copied once per composition (and again if the page changes the
//   value); each key rewrites only the preedit's spans.
// - contenteditable: the preedit is an inline <span> inserted at the caret (a non-collapsed
//   selection is deleted first, as native IMEs do: one undo step); it is removed, and the text
//   nodes it split are joined again, before a commit goes in or when the composition ends, so
//   the editor's DOM and undo history are what they were.
// - an editor that draws its DOM from a model of its own (ProseMirror, CodeMirror, Lexical, …:
//   keymap.js `MODEL_EDITORS`): its DOM is left alone, since the editor reads every change of it
//   back into its document (a span at the caret would be typed into it) or undoes it. The preedit
//   is an *overlay* over the text at the caret: a box in the caret's block, in the font at the
//   caret, whose first line starts at the caret (`text-indent`), so that it wraps like the text;
//   its runs are painted over what follows the caret with the editor's background.
// - a code editor that takes its keys through a hidden textarea or an EditContext (CodeMirror 5,
//   Ace, Monaco: keymap.js `HIDDEN_INPUT_EDITORS`): the same overlay, over the editor's lines, its
//   first line starting at the editor's own cursor, in the font of its lines (`hiddenParts`).

import { preeditRuns } from '../keymap.js';
import { textFieldCaret, editableCaret, mirrorWrap, MIRRORED, toKebab } from '../caret.js';
import { isFocused, selectionOf } from './root.js';
import { layoutBox, scaleOf, layerFrame, scrollBars, px } from './scale.js';
import { flowOf } from './layout.js';
import { rgba, isTransparent, backgroundOf, isDarkField } from './theme.js';

/** @typedef {import('../types.js').Preedit} Preedit */
/** @typedef {{at: number, top: number, end?: number}} Row a row of a textarea's text: its first
 * character and its top below the text's start (CSS pixels); a row after a wrap, not a line break,
 * has `end`, the first character of the row after it */
/** @typedef {import('../caret.js').CaretRect} CaretRect */

/** A textarea with this much text is laid out ahead, while the page is idle (`survey`): below
 * it a composition's first layout costs little. */
export const SURVEY_MIN_CHARS = 20000;

export class PreeditBox {
  /**
   * @param {HTMLElement} field
   * @param {'textarea' | 'input' | 'contenteditable'} kind
   * @param {boolean} [overlay] a contenteditable whose DOM the widget must not touch (an editor):
   *   the preedit is drawn over it
   * @param {import('../keymap.js').HiddenInputEditor | null} [hidden] the code editor whose hidden
   *   input (a textarea or an EditContext's element) the field is: the preedit is drawn over its lines
   */
  constructor(field, kind, overlay = false, hidden = null) {
    this.field = field;
    this.kind = kind;
    this.hidden = hidden;
    this.overlay = (kind === 'contenteditable' && overlay) || !!hidden;
    const doc = field.ownerDocument;
    /** The mirror (text fields) or the overlay (editors); unused and hidden for an inline preedit. */
    this.el = doc.createElement('div');
    this.el.className = 'henkan-preedit';
    this.el.setAttribute('aria-hidden', 'true');
    /** The preedit's runs: inside the mirror, or the inline span of a contenteditable. */
    this.runs = doc.createElement('span');
    this.runs.className = 'henkan-preedit-runs';
    this.before = doc.createTextNode('');
    this.after = doc.createTextNode('');
    /** Blocks standing in for the text above the caret's line and for the room below (a key
     * lays out the visible lines only, not the whole text). */
    this.above = doc.createElement('div');
    this.below = doc.createElement('div');
    /** In the overlay, after the runs: a copy of the text that follows the caret in its block
     * (`tailOf`), which moves aside for the preedit as it does with a native IME. */
    this.tail = doc.createElement('span');
    this.tail.className = 'henkan-preedit-tail';
    /** In the overlay over a block whose lines are not laid out from their start (centred,
     * right-aligned, right to left; `fromStart`), before the runs: a copy of the block's text up
     * to the caret, which moves too as the preedit grows (`placeOverlay`, `placeColumns`). */
    this.head = doc.createElement('span');
    this.head.className = 'henkan-preedit-head';
    /** @type {MutationObserver | null} watches the text under the overlay while composing: the
     * page or another writer may change it (`placeOverlay`) */
    this.watcher = null;
    /** @type {(() => void) | null} called when that text changed: the widget draws again */
    this.onStale = null;
    /** A zero-width mark where the text laid out starts (`layOut`). */
    this.marker = doc.createElement('span');
    this.marker.textContent = '\u200b';
    /** A composition is shown. */
    this.active = false;
    /** The field's text around the preedit (text fields): value and selection when copied. */
    this.copied = { value: '', start: 0, end: 0 };
    /** @type {{text: string, at: number, top: number, layout: string} | null} where the last
     * composition's mirror was cut (a textarea): the text up to that composition's caret, the cut
     * (the first character of a row) and the row's top, and the field's layout then. */
    this.cut = null;
    /** @type {{text: string, layout: string, rows: Row[], upTo: number} | null}
     * rows of a textarea's text that follow a line break, or a wrap in a long paragraph, and
     * their tops, as the mirror laid them out: the field's text then, its layout, the rows by
     * position, and how far the text has rows (laid out from its start, or from a row that
     * holds, up to there). A row after a line break starts where it does whatever follows it, so
     * it holds while the text before it and the layout are the same; a row after a wrap while its
     * own text is the same too (`holds`): a composition elsewhere above or below lays out from
     * the nearest one, not from the start. */
    this.breaks = null;
    /** Where the field was when the mirror was placed ('' = place it again). */
    this.placed = '';
    /** Screen pixels per CSS pixel of the mirror's or the overlay's text (`scaleOf` the field, or
     * the editor's block): not 1 under a CSS zoom or a scaling transform. */
    this.scale = { x: 1, y: 1 };
    /** @type {HTMLSpanElement | null} unseen text laid out ahead of a conversion (`warm`) */
    this.warmer = null;
    /** @type {{left: number, right: number, top: number, bottom: number} | null} the preedit's
     * first line (its first column in vertical text), measured after each render (where the lists
     * open) */
    this.rect = null;
    /** @type {{left: number, right: number, top: number, bottom: number} | null} its last line
     * (where its end and mostly the caret are; the badge keeps clear of both) */
    this.lastRect = null;
    /** Where the field's lines follow one another (`flowOf` its writing mode), as of the last
     * composition: the lists open under a line, or beside a column of vertical text. */
    this.flow = /** @type {'down' | 'left' | 'right'} */ ('down');
    /** Light text on a dark ground (`isDarkField`), as of the last composition: the focused
     * segment and the lists are drawn dark. */
    this.dark = false;
    /** In a code editor (`hidden`): the text just before its cursor that the composition replaces
     * (a reconversion of a commit or of the clause before the caret), which the editor does not
     * draw as selected; the preedit is drawn over it, as over a selection the editor draws. */
    this.replaced = '';
  }

  /** Place the mirror again at the next render (the field moved, scrolled or was resized). */
  invalidate() {
    this.placed = '';
  }

  /** Whether a preedit is shown now. */
  get shown() {
    return this.active;
  }

  /**
   * Draws a preedit in the text, or ends the composition's display (null).
   * @param {Preedit | null} preedit
   */
  render(preedit) {
    if (!preedit) {
      this.end();
      return;
    }
    if (!this.active) this.begin();
    const doc = this.field.ownerDocument;
    const caretAt = preedit.segments.every((s) => !s.converted) ? preedit.cursor : -1;
    /** @type {Node[]} */
    const nodes = [];
    let pos = 0;
    for (const r of preeditRuns(preedit.text, preedit.segments)) {
      const end = pos + r.text.length;
      const cls = [r.converted ? 'henkan-converted' : '', r.focused ? 'henkan-focused' : ''].filter(Boolean).join(' ');
      if (caretAt >= pos && caretAt < end) {
        // The caret inside this run: split it there.
        if (caretAt > pos) nodes.push(runSpan(doc, r.text.slice(0, caretAt - pos), cls));
        nodes.push(caretSpan(doc));
        nodes.push(runSpan(doc, r.text.slice(caretAt - pos), cls));
      } else {
        nodes.push(runSpan(doc, r.text, cls));
      }
      pos = end;
    }
    if (caretAt === pos) nodes.push(caretSpan(doc));
    this.runs.replaceChildren(...nodes);
    if (this.overlay) {
      if (!this.placed) this.placeOverlay();
    } else if (this.kind !== 'contenteditable') {
      this.placeMirror();
      // The page changed the value meanwhile: copy it again.
      const field = /** @type {HTMLTextAreaElement | HTMLInputElement} */ (this.field);
      if (field.value !== this.copied.value) this.copyText();
    }
    this.measure();
  }

  /**
   * Lays out `text` unseen, beside the mirror in its font (a text field's composition): the glyphs of a
   * conversion the engine expects are then ready when Space shows it. The first layout of text
   * with new kanji is most of a conversion's drawing: over 30 kwdlc sentences, 2.67 ms per Space
   * of forced layout, 0.72 ms when the text had been laid out hidden before (a CDP profile of the
   * widget on a plain page, 2026-11-27); Space's whole handler, BENCHMARKS.md *In Chromium*.
   * @param {string} text
   */
  warm(text) {
    if (!this.active || this.overlay || this.kind === 'contenteditable') return;
    if (!this.warmer) {
      this.warmer = this.field.ownerDocument.createElement('span');
      this.warmer.className = 'henkan-warm';
      this.warmer.setAttribute('aria-hidden', 'true');
    }
    if (!this.warmer.isConnected) {
      // Beside the mirror (its text stays the field's), in the font the mirror copied (`begin`).
      for (const p of MIRRORED) {
        if (p.startsWith('font') || p === 'letterSpacing') this.warmer.style.setProperty(toKebab(p), this.el.style.getPropertyValue(toKebab(p)));
      }
      this.el.after(this.warmer);
    }
    if (this.warmer.textContent !== text) this.warmer.textContent = text;
  }

  /** Starts showing a composition. */
  begin() {
    const { field } = this;
    this.active = true;
    // (Read before the composing class hides the caret: its colour may be needed below.)
    const fcs = getComputedStyle(field);
    this.flow = flowOf(fcs.writingMode);
    this.dark = isDarkField(field, fcs);
    this.runs.classList.toggle('henkan-dark', this.dark);
    const caretColor = fcs.caretColor;
    if (this.overlay) {
      // The editor's DOM stays as it is (no class either: an editor may own its root's classes).
      // A selection was deleted as the composition started (`Committer.deleteSelection`).
      this.el.classList.add('henkan-preedit-overlay');
      this.el.replaceChildren(this.runs);
      this.placed = '';
      return;
    }
    field.classList.add('henkan-composing');
    if (this.kind === 'contenteditable') {
      this.insertInline();
    } else {
      const cs = getComputedStyle(field);
      this.dress(cs, caretColor);
      field.classList.add('henkan-hidden-text');
      this.placed = '';
      this.placeMirror();
      this.copyText();
    }
  }

  /**
   * Makes the mirror a copy of the text field's box and text styles, its parts in it.
   * @param {CSSStyleDeclaration} cs the field's computed style
   * @param {string} [caretColor] the field's caret colour (before the composing class hides it)
   */
  dress(cs, caretColor = cs.caretColor) {
    const style = this.el.style;
    for (const p of MIRRORED) style.setProperty(toKebab(p), cs.getPropertyValue(toKebab(p)));
    // A field whose own text is transparent (a code editor's textarea over a highlighted copy
    // of its text, which the page draws): the mirror leaves the text to the page and draws the
    // preedit alone, in a colour that shows.
    const hidden = isTransparent(cs.color) || isTransparent(cs.getPropertyValue('-webkit-text-fill-color'));
    style.color = hidden ? 'transparent' : cs.color;
    this.runs.style.color = hidden ? visibleColor(this.field, cs.color, caretColor) : '';
    // The page's copy does not move aside for the preedit: its runs are painted with the
    // background over the text that follows the caret, as over an editor's.
    this.el.classList.toggle('henkan-preedit-covering', hidden);
    if (hidden) style.setProperty('--henkan-overlay-bg', backgroundOf(this.field));
    style.borderColor = 'transparent';
    style.boxSizing = 'border-box';
    style.overflow = 'hidden';
    const wrap = mirrorWrap(cs, this.kind === 'input');
    style.whiteSpace = wrap.whiteSpace;
    if (wrap.overflowWrap) style.overflowWrap = wrap.overflowWrap;
    this.el.replaceChildren(this.above, this.before, this.runs, this.after, this.below);
  }

  /**
   * Ends the display: removes the mirror or the inline span. For a contenteditable, returns the
   * collapsed range where the preedit was (where a commit goes).
   * @returns {Range | null}
   */
  end() {
    if (!this.active) return null;
    this.active = false;
    this.rect = null;
    this.lastRect = null;
    const { field } = this;
    field.classList.remove('henkan-composing', 'henkan-hidden-text');
    this.runs.replaceChildren();
    if (this.kind === 'contenteditable' && !this.overlay) return this.removeInline();
    this.el.style.display = 'none';
    this.head.replaceChildren();
    this.tail.replaceChildren();
    this.watcher?.disconnect();
    this.el.classList.remove('henkan-preedit-overlay');
    this.el.replaceChildren();
    this.warmer?.remove();
    this.placed = '';
    return null;
  }

  /**
   * Puts the overlay over an editor's text at the caret: the box spans the content box of the
   * caret's block, its first line starts at the caret and sits on the caret's line, in the font
   * and colour of the text at the caret (what the commit will look like: a bold run gives bold).
   */
  placeOverlay() {
    const { field } = this;
    let caret, block, inline;
    /** @type {{left: number, right: number} | null} */
    let bounds = null;
    /** @type {Range | null} */
    let at = null;
    /** @type {HTMLElement | null} the block whose text follows the caret: the caret's, or a code
     * editor's line under its cursor */
    let textBlock = null;
    /** @type {HTMLElement | null} a code editor's outer box */
    let root = null;
    /** @type {DOMRect | null} a code editor's selection in the cursor's line: the commit
     * replaces it, so it is painted over and the text after it moves aside */
    let selected = null;
    if (this.hidden) {
      ({ root, caret, block, inline, bounds, selected } = hiddenParts(field, this.hidden));
      const found = root && cursorInLine(root, this.hidden, selected ? { ...caret, left: selected.right } : caret);
      if (found) ({ line: textBlock, at } = found);
      const replaced = !selected && found && this.replaced ? boxBefore(found.line, found.at, this.replaced) : null;
      if (replaced) {
        selected = replaced;
        caret = { ...caret, left: replaced.left };
      }
    } else {
      caret = editableCaret(field);
      const sel = selectionOf(field);
      at = sel && sel.rangeCount > 0 && field.contains(sel.anchorNode) ? sel.getRangeAt(0) : null;
      const anchor = at ? at.startContainer : field;
      inline = anchor.nodeType === Node.ELEMENT_NODE ? /** @type {HTMLElement} */ (anchor) : anchor.parentElement ?? field;
      block = inline;
      while (block !== field && getComputedStyle(block).display.startsWith('inline') && block.parentElement) block = block.parentElement;
      textBlock = block;
    }
    const bcs = getComputedStyle(block);
    const tcs = textBlock === block ? bcs : textBlock && getComputedStyle(textBlock);
    // A block whose lines are not laid out from their start (centred, right-aligned, right to
    // left: `fromStart`): its text before the caret moves too as the preedit grows (a centred
    // line re-centres), so the overlay copies the whole block, from its first line, and lays it
    // out as the block does. Where a copy would not look like the text, the preedit starts at the
    // caret and covers what follows it. Vertical text has an overlay in its writing mode
    // (`placeColumns`), from the caret's column where its columns start at the top.
    const vertical = !bcs.writingMode.startsWith('horizontal');
    const column = vertical && !this.hidden && at && fromStart(bcs) ? columnAt(at, block) : null;
    const head = !this.hidden && at && !column && (vertical || !fromStart(bcs)) ? headOf(block, at) : null;
    const aligned = !!head;
    const tail = at && textBlock && tcs && (aligned || column || (!vertical && fromStart(tcs))) ? tailOf(textBlock, at) : null;
    this.head.replaceChildren(...(aligned && tail ? head.runs : []));
    this.tail.replaceChildren(...(tail?.runs ?? []));
    if (tcs) this.head.style.whiteSpace = this.tail.style.whiteSpace = tcs.whiteSpace;
    const style = this.el.style;
    if (column || (vertical && head && tail)) {
      this.placeColumns(block, bcs, inline, column ? null : head, tail, column);
      return;
    }
    style.writingMode = style.textOrientation = style.right = style.height = '';
    const b = block.getBoundingClientRect();
    // The block's CSS pixels on screen (a zoom or a scaling transform around the editor), and the
    // zoom of the layer the overlay is in: the overlay is laid out in the block's CSS pixels and
    // scaled to the screen.
    const { x: sx, y: sy } = (this.scale = scaleOf(block, bcs, b));
    // (The layer's frame read while the layout is clean: before the overlay changes.)
    const frame = layerFrame(this.el);
    const z = frame.z;
    style.display = 'block';
    const left = bounds?.left ?? b.left + sx * (px(bcs.borderLeftWidth) + px(bcs.paddingLeft));
    const right = bounds?.right ?? b.right - sx * (px(bcs.borderRightWidth) + px(bcs.paddingRight));
    const ics = getComputedStyle(inline);
    for (const p of OVERLAID) style.setProperty(p, ics.getPropertyValue(p));
    const lineHeight = px(ics.lineHeight) || caret.height / sy;
    const copied = aligned && !!tail;
    // The overlay's top (screen pixels): the caret's line, less its half-leading; the block's
    // first line where the overlay copies the whole block.
    const top = copied
      ? b.top + sy * (px(bcs.borderTopWidth) + px(bcs.paddingTop))
      : caret.top - (sy * Math.max(0, lineHeight - caret.height / sy)) / 2;
    style.left = `${(left - frame.x) / z}px`;
    style.top = `${(top - frame.y) / z}px`;
    style.width = `${Math.max(0, right - left) / sx}px`;
    style.textIndent = copied ? bcs.textIndent : `${Math.max(0, caret.left - left) / sx}px`;
    style.textAlign = copied ? bcs.textAlign : '';
    style.lineHeight = `${lineHeight}px`;
    // A code editor's lines do not wrap: neither does their tail, which ends at the editor's edge.
    style.overflowX = this.hidden ? 'clip' : '';
    scaleStyle(style, sx / z, sy / z);
    // A code editor draws its current line's highlight in a layer under its text, not on an
    // ancestor of it.
    const under = backgroundOf(inline);
    const bg = this.hidden && root ? lineHighlight(root, this.hidden, caret.top + caret.height / 2, under) : null;
    // The overlay paints inside the borders a code editor draws around its current line
    // (Monaco's): its runs' and covers' backgrounds would hide them.
    const band = this.hidden && root ? highlightBand(root, this.hidden, caret.top + caret.height / 2) : null;
    style.clipPath = band ? `inset(${(band.top - top) / sy}px 0 calc(100% - ${(band.bottom - top) / sy}px) 0)` : '';
    style.setProperty('--henkan-overlay-bg', bg ?? under);
    /** @type {Node[]} */
    const parts = copied ? [this.head, this.runs] : [this.runs];
    // The block's content box in the overlay's CSS pixels (from the overlay's top).
    const contentBottom = (b.bottom - sy * (px(bcs.borderBottomWidth) + px(bcs.paddingBottom)) - top) / sy;
    const copies = [...(copied ? head.rects : []), ...(tail?.rects ?? []), ...(selected ? [selected] : [])];
    if (tail?.runs.length) parts.push(this.tail);
    if (copies.length) {
      // The editor's own text that the overlay copies is painted over where it is (under the
      // overlay's text): each of its boxes, and the leading around it (its underlines), inside the
      // block's content box (not its border, nor the editor's). In the overlay's CSS pixels:
      const width = Math.max(0, right - left) / sx;
      const contentTop = (b.top + sy * (px(bcs.borderTopWidth) + px(bcs.paddingTop)) - top) / sy;
      for (const r of copies) {
        const lead = Math.max(0, lineHeight - r.height / sy) / 2;
        const x0 = Math.max(0, (r.left - left) / sx - 1);
        const x1 = Math.min(width, (r.right - left) / sx + 1);
        const y0 = Math.max(contentTop, (r.top - top) / sy - lead);
        const y1 = Math.min(contentBottom, (r.bottom - top) / sy + lead);
        if (x1 <= x0 || y1 <= y0) continue;
        parts.push(coverAt(field.ownerDocument, x0, y0, x1 - x0, y1 - y0));
      }
    }
    if (!this.hidden && textBlock && !tail?.runs.length && blank(textBlock)) {
      // An empty block (its editor's only one, or a new line): the rest of the caret's line is
      // painted over too, where an empty editor shows its placeholder (`::before` content, a
      // widget in the line, or an element over it), which a native IME's composition takes away
      // as it puts its text in.
      const x0 = copied ? 0 : Math.max(0, (caret.left - left) / sx - 1);
      parts.push(coverAt(field.ownerDocument, x0, 0, Math.max(0, Math.max(0, right - left) / sx - x0), lineHeight));
    }
    if (!this.hidden) {
      // Lines of the overlay past the block's end (the preedit and the moved text need more
      // lines than the block has; a native IME's would push what follows down) are drawn on the
      // editor's background, not glyph on glyph over the next block: a cover from the block's
      // content bottom (not above the caret's line: the text before the caret stays) to the
      // overlay's, which follows the overlay as it grows with each key.
      const below = field.ownerDocument.createElement('div');
      below.className = 'henkan-preedit-cover henkan-preedit-below';
      below.style.top = `${Math.max(contentBottom, lineHeight)}px`;
      parts.push(below);
    }
    this.el.replaceChildren(...parts);
    // (The editor, or a code editor's lines: it may replace the caret's block as a whole.)
    this.watch(this.hidden ? block : field);
    this.placed = 'overlay';
  }

  /**
   * The overlay over a block of vertical text (`vertical-rl`, `vertical-lr`), laid out in its
   * writing mode, its columns as high as the block's content box: from the caret's column, its
   * first column indented to the caret (`column`), with the text after the caret copied after
   * the preedit (`tail`; without it the preedit covers that text); or, where the block's columns
   * do not start at the top (centred, right to left) or the caret has no box, the whole block
   * copied (`head` and `tail`) from its first column. The block's own text that is copied is
   * painted over (each box of it and the leading beside it), and columns past the block's last
   * one (the preedit needs more than the block has) are drawn on the background, not glyph on
   * glyph over the next block.
   * @param {HTMLElement} block
   * @param {CSSStyleDeclaration} bcs its computed style
   * @param {HTMLElement} inline the element that holds the caret's text (the overlay's font)
   * @param {{runs: HTMLElement[], rects: DOMRect[]} | null} head the block's text before the caret
   * @param {{runs: HTMLElement[], rects: DOMRect[]} | null} tail its text after the caret
   * @param {DOMRect | null} column the caret's box in its column (`columnAt`)
   */
  placeColumns(block, bcs, inline, head, tail, column) {
    const doc = this.field.ownerDocument;
    const b = block.getBoundingClientRect();
    const { x: sx, y: sy } = (this.scale = scaleOf(block, bcs, b));
    const frame = layerFrame(this.el);
    const z = frame.z;
    const style = this.el.style;
    style.display = 'block';
    const left = b.left + sx * (px(bcs.borderLeftWidth) + px(bcs.paddingLeft));
    const right = b.right - sx * (px(bcs.borderRightWidth) + px(bcs.paddingRight));
    const top = b.top + sy * (px(bcs.borderTopWidth) + px(bcs.paddingTop));
    const bottom = b.bottom - sy * (px(bcs.borderBottomWidth) + px(bcs.paddingBottom));
    const ics = getComputedStyle(inline);
    for (const p of OVERLAID) style.setProperty(p, ics.getPropertyValue(p));
    const lineHeight = px(ics.lineHeight) || 1.5 * px(ics.fontSize);
    // Columns follow one another leftwards (`vertical-rl`) or rightwards (`vertical-lr`): the
    // overlay is anchored at the block's first column and grows the other way, as wide as its
    // columns.
    const rl = !bcs.writingMode.endsWith('lr');
    // Where the overlay is anchored (screen pixels): the caret column's edge on the side of the
    // columns before it, or the block's first column's.
    const mid = column ? column.left + column.width / 2 : 0;
    const anchor = column ? mid + ((rl ? 1 : -1) * sx * lineHeight) / 2 : rl ? right : left;
    style.writingMode = bcs.writingMode;
    style.textOrientation = bcs.textOrientation;
    style.top = `${(top - frame.y) / z}px`;
    style.height = `${Math.max(0, bottom - top) / sy}px`;
    style.width = '';
    style.left = rl ? 'auto' : `${(anchor - frame.x) / z}px`;
    style.right = rl ? `${(frame.right - anchor) / z}px` : '';
    style.textIndent = column ? `${Math.max(0, column.top - top) / sy}px` : bcs.textIndent;
    style.textAlign = column ? '' : bcs.textAlign;
    style.lineHeight = `${lineHeight}px`;
    style.overflowX = style.clipPath = '';
    scaleStyle(style, sx / z, sy / z, rl ? '100% 0' : '0 0');
    style.setProperty('--henkan-overlay-bg', backgroundOf(inline));
    // The block's content box in the overlay's CSS pixels: how far it reaches from the anchored
    // edge, and its height.
    const width = Math.max(0, rl ? anchor - left : right - anchor) / sx;
    const height = Math.max(0, bottom - top) / sy;
    /** @type {Node[]} */
    const parts = head ? [this.head, this.runs, this.tail] : [this.runs, this.tail];
    for (const r of [...(head?.rects ?? []), ...(tail?.rects ?? [])]) {
      const lead = Math.max(0, lineHeight - r.width / sx) / 2;
      const x0 = Math.max(0, (rl ? anchor - r.right : r.left - anchor) / sx - lead);
      const x1 = Math.min(width, (rl ? anchor - r.left : r.right - anchor) / sx + lead);
      const y0 = Math.max(0, (r.top - top) / sy - 1);
      const y1 = Math.min(height, (r.bottom - top) / sy + 1);
      if (x1 > x0 && y1 > y0) parts.push(coverAt(doc, x0, y0, x1 - x0, y1 - y0, rl));
    }
    // An empty block: its first column (an empty editor's placeholder).
    if (!tail?.runs.length && blank(block)) parts.push(coverAt(doc, 0, 0, lineHeight, height, rl));
    // Columns past the block's last one.
    const past = doc.createElement('div');
    past.className = 'henkan-preedit-cover';
    past.style.top = '0';
    past.style.bottom = '0';
    past.style.setProperty(rl ? 'left' : 'right', '0');
    past.style.setProperty(rl ? 'right' : 'left', `${Math.max(width, lineHeight)}px`);
    parts.push(past);
    this.el.replaceChildren(...parts);
    this.watch(this.field);
    this.placed = 'overlay';
  }

  /**
   * Watches the text the overlay stands over (the editor's, a code editor's lines): when it
   * changes while composing (the page's script, a collaborator's edit), the overlay is placed
   * and its copy of the tail made again at the next render, which `onStale` asks for.
   * @param {HTMLElement | null} target
   */
  watch(target) {
    this.watcher?.disconnect();
    const view = target?.ownerDocument.defaultView;
    if (!target || !view) return;
    this.watcher ??= new view.MutationObserver(() => {
      if (!this.active) return;
      this.placed = '';
      this.onStale?.();
    });
    this.watcher.observe(target, { childList: true, characterData: true, subtree: true });
  }

  /** The focused segment's span (or the first run, or the box): where the candidate window goes. */
  anchor() {
    return this.runs.querySelector('.henkan-focused') ?? this.runs.firstElementChild ?? this.runs;
  }

  /**
   * Copies the field's text around its selection into the mirror: the lines the field can show
   * around the caret (from a field's height above the caret's line, to a little more than a
   * field's worth after it). The lines above are replaced by a block of their height, so that a
   * key lays out a few lines, not the whole text (measured: with 10,000 characters in one
   * paragraph, 10 ms per key otherwise). Where to cut is found once per composition, with the
   * text laid out from a row known to hold to the caret (`baseFor`): the last composition's cut,
   * or a row after a line break (`breaks`, carried over the edits since by `shiftBreaks`), else
   * the text's start.
   */
  copyText() {
    const field = /** @type {HTMLTextAreaElement | HTMLInputElement} */ (this.field);
    const value = field.value;
    const start = field.selectionStart ?? value.length;
    const end = field.selectionEnd ?? start;
    this.copied = { value, start, end };
    this.above.style.height = '0px';
    this.below.style.height = '0px';
    let lineStart = 0;
    let top = 0;
    // (Vertical text is laid out whole: its columns are not rows to cut at.)
    if (this.kind === 'textarea' && this.flow === 'down') {
      const cs = getComputedStyle(field);
      const layout = layoutOf(field, cs);
      const sy = this.scale.y;
      const lineHeight = px(cs.lineHeight) || px(cs.fontSize) * 1.2 || 20;
      this.shiftBreaks(value, layout, field, cs);
      // From a row that is sure to be a field's height (and a line) above the caret's.
      const base = this.baseFor(value, start, layout, field.clientHeight + lineHeight);
      this.above.style.height = `${base.top}px`;
      // The text up to the caret from there, a marker at the caret.
      const { origin, endTop: caretTop, rowOf } = this.layOut(value, base.at, start);
      // Keep the lines the field may show above the caret: from the first character whose row
      // is at most a field's height (and a line) above the caret's row.
      const from = caretTop - sy * (field.clientHeight + lineHeight);
      let lo = base.at;
      let hi = start;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (rowOf(mid) >= from - sy) hi = mid;
        else lo = mid + 1;
      }
      lineStart = lo;
      top = base.top + (lo < start ? rowOf(lo) - origin : caretTop - origin) / sy;
      this.cut = { text: value.slice(0, start), at: lineStart, top, layout };
      this.keepBreaks(value, layout, this.rowsAfterBreaks(value, base, start, fieldChars(field, cs), (i) => (rowOf(i) - origin) / sy, wrapsHold(cs)), base, start);
      this.marker.remove();
      this.runs.replaceChildren();
    }
    // What follows: enough to fill the field twice.
    const room = Math.ceil(2 * fieldChars(field, getComputedStyle(field))) + 100;
    this.before.data = value.slice(lineStart, start);
    // A trailing newline gets no line box of its own in a mirror: one space makes it count.
    this.after.data = value.slice(end, end + room) + (this.kind === 'textarea' ? ' ' : '');
    this.above.style.height = `${top}px`;
    this.below.style.height = this.kind === 'textarea' ? `${field.scrollHeight}px` : '0px';
  }

  /**
   * Lays out `value` from `at` up to `upTo` in the mirror, with markers at its start and at its
   * end: their glyph tops are a whole number of lines apart (a line's top is its glyphs' less the
   * half-leading). Returns the start's and the end's tops, and `rowOf(i)`: the top of the row
   * that character `i` (at ≤ i < upTo) is on (a newline: the row it ends). Client rects are
   * screen pixels; the mirror's lengths are the field's CSS pixels. (`marker` stays in the
   * mirror: the caller takes it out.)
   * @param {string} value
   * @param {number} at
   * @param {number} upTo
   */
  layOut(value, at, upTo) {
    this.before.data = value.slice(at, upTo);
    this.after.data = '';
    this.runs.textContent = '\u200b';
    this.el.insertBefore(this.marker, this.before);
    const origin = this.marker.getClientRects()[0]?.top ?? 0;
    const endTop = this.runs.getClientRects()[0]?.top ?? origin;
    const range = this.field.ownerDocument.createRange();
    /** @param {number} i */
    const rowOf = (i) => {
      range.setStart(this.before, i - at);
      if (value[i] === '\n') range.collapse(true);
      else range.setEnd(this.before, i - at + 1);
      return range.getClientRects()[0]?.top ?? endTop;
    };
    return { origin, endTop, rowOf };
  }

  /**
   * The rows after line breaks from `base` up to `upTo`, about half a field's worth of
   * characters apart (each measure costs: every break of a long text would cost more than the
   * layout). Where a paragraph runs on without a break, a row after a wrap about two fields'
   * worth on (when `wraps`): the first character on a row (by halving: the rows' tops grow with
   * the text), and the first of the row after it.
   * @param {string} value
   * @param {{at: number, top: number}} base where the text laid out starts
   * @param {number} upTo
   * @param {number} chars `fieldChars` of the field
   * @param {(i: number) => number} below how far below the base the row of character `i` is
   * @param {boolean} [wraps] whether rows after wraps hold (`wrapsHold`)
   * @returns {Row[]}
   */
  rowsAfterBreaks(value, base, upTo, chars, below, wraps = false) {
    /** @type {Row[]} */
    const rows = [];
    const step = Math.max(1, Math.round(chars / 2));
    /** The first character after `lo` (up to `hi`) on a row below `top`, else -1. */
    const firstBelow = (/** @type {number} */ lo, /** @type {number} */ hi, /** @type {number} */ top) => {
      if (hi <= lo || below(hi) <= top + 0.5) return -1;
      while (lo + 1 < hi) {
        const mid = (lo + hi) >> 1;
        if (below(mid) > top + 0.5) hi = mid;
        else lo = mid;
      }
      return hi;
    };
    let at = base.at;
    while (at < upTo) {
      const nl = value.indexOf('\n', at + step);
      if (nl >= 0 && nl + 1 < upTo && (!wraps || nl < at + 4 * step)) {
        rows.push({ at: nl + 1, top: base.top + below(nl + 1) });
        at = nl + 1;
        continue;
      }
      if (!wraps || at + 4 * step >= upTo) break;
      // A wrap: the first character on the row of the one two fields' worth on (each costs about
      // twenty measures), and the row after it.
      const target = at + 4 * step;
      const rowTop = below(target);
      if (below(at) > rowTop - 0.5) {
        at = target; // one row from `at` to there
        continue;
      }
      const k = firstBelow(at, target, rowTop - 1);
      const end = firstBelow(k, Math.min(upTo - 1, k + 2 * step), rowTop);
      if (end > k && value[k - 1] !== '\n' && mayBeginRow(value, k)) rows.push({ at: k, top: base.top + rowTop, end });
      at = end > k ? end : target;
    }
    return rows;
  }

  /**
   * Lays out a long textarea's text ahead, unseen, while the page is idle and nothing is
   * composed, and keeps its rows after line breaks (`breaks`): the first composition then lays
   * out a few rows above the caret, not all the text before it. The rows known already are
   * carried over the edits since (`shiftBreaks`) and only the text past them is laid out (63–78
   * ms at 87,549 characters the first time, 5.5 ms after a one-character commit).
   */
  survey() {
    const field = /** @type {HTMLTextAreaElement} */ (this.field);
    if (this.active || this.kind !== 'textarea' || !field.isConnected) return;
    const value = field.value;
    const cs = getComputedStyle(field);
    if (value.length < SURVEY_MIN_CHARS || flowOf(cs.writingMode) !== 'down') return;
    const layout = layoutOf(field, cs);
    const known = this.breaks;
    if (known && known.layout === layout && known.text === value && known.upTo >= value.length) return;
    this.dress(cs);
    this.el.style.visibility = 'hidden';
    this.above.style.height = '0px';
    this.below.style.height = '0px';
    this.placed = '';
    this.placeMirror();
    const sy = this.scale.y;
    // The rows known carried over the edits since, then the rest of the text laid out from the
    // last of them.
    this.shiftBreaks(value, layout, field, cs);
    const b = this.breaks?.layout === layout ? this.breaks : null;
    const covered = b ? b.upTo : 0;
    const base = b?.rows.filter((r) => holds(r, covered)).pop() ?? { at: 0, top: 0 };
    const { origin, rowOf } = this.layOut(value, base.at, value.length);
    this.keepBreaks(value, layout, this.rowsAfterBreaks(value, base, value.length, fieldChars(field, cs), (i) => (rowOf(i) - origin) / sy, wrapsHold(cs)), base, value.length);
    // (The text goes: the next composition's mirror would lay it all out again.)
    this.before.data = '';
    this.marker.remove();
    this.runs.replaceChildren();
    this.el.replaceChildren();
    this.el.style.visibility = '';
    this.el.style.display = 'none';
    this.placed = '';
  }

  /**
   * The last composition's cut (`cut`) if it still holds before `start` in `value`: the text up to
   * that composition's caret is unchanged (a few characters past the cut at least: the characters
   * after a break decide where it may fall), and so is the field's layout.
   * @param {string} value
   * @param {number} start
   * @param {string} layout `layoutOf` the field now
   */
  cutBefore(value, start, layout) {
    const cut = this.cut;
    if (!cut || cut.layout !== layout || start < cut.text.length || cut.text.length < cut.at + 2) return null;
    return value.startsWith(cut.text) ? cut : null;
  }

  /**
   * Where to lay out a textarea's text from for a caret at `start`: the last composition's cut
   * (`cutBefore`) or a row after a line break (`breaks`) whose top is at least `room` pixels
   * above the row where the caret's paragraph starts, the nearest to the caret that holds; else
   * the text's start.
   * @param {string} value
   * @param {number} start
   * @param {string} layout `layoutOf` the field now
   * @param {number} room
   * @returns {{at: number, top: number}}
   */
  baseFor(value, start, layout, room) {
    let base = this.cutBefore(value, start, layout) ?? { at: 0, top: 0 };
    const b = this.breaks;
    if (!b || b.layout !== layout) return base;
    const same = commonPrefix(b.text, value, start);
    // The rows that hold: the text before them is the same.
    let n = 0;
    while (n < b.rows.length && holds(b.rows[n], same)) n++;
    if (n === 0) return base;
    const limit = b.rows[n - 1].top - room;
    for (let i = n - 1; i >= 0; i--) {
      const row = b.rows[i];
      if (row.top > limit) continue;
      if (row.at > base.at) base = row;
      break;
    }
    return base;
  }

  /**
   * Carries the rows after line breaks (`breaks`) over an edit of the text: the rows before it
   * hold as they are; the rows after it, whose text from their line break on is unchanged, move
   * by the edit's length and by how much the rows between them moved, measured by laying out the
   * text from the last row before the edit to the first after it (a few rows of an edit made
   * where the user typed last). The others go (so do all after an edit of more than a few
   * fields' worth of text).
   * @param {string} value the field's text now
   * @param {string} layout `layoutOf` the field
   * @param {HTMLElement} field
   * @param {CSSStyleDeclaration} cs its computed style
   */
  shiftBreaks(value, layout, field, cs) {
    const b = this.breaks;
    if (!b || b.layout !== layout || b.text === value) return;
    const old = b.text;
    const same = commonPrefix(old, value, Infinity);
    const tail = commonSuffix(old, value, Math.min(old.length, value.length) - same);
    const moved = value.length - old.length;
    const before = b.rows.filter((r) => holds(r, same));
    // A row after the edit: its line break, and all after it, are in the unchanged tail; a row
    // after a wrap, the line break that begins its paragraph.
    const firstBreak = old.indexOf('\n', old.length - tail);
    const after = b.rows.filter((r) => (r.end === undefined ? r.at - 1 >= old.length - tail : firstBreak >= 0 && firstBreak < r.at));
    const base = before[before.length - 1] ?? { at: 0, top: 0 };
    const next = after[0];
    if (!next || next.at + moved - base.at > 4 * fieldChars(field, cs)) {
      this.breaks = { text: value, layout, rows: before, upTo: Math.min(b.upTo, same) };
      return;
    }
    // The row after the edit laid out from the row before it (the mirror's lengths are CSS
    // pixels, its client rects screen pixels).
    const { origin, rowOf } = this.layOut(value, base.at, next.at + moved + 1);
    const shift = base.top + (rowOf(next.at + moved) - origin) / this.scale.y - next.top;
    this.breaks = {
      text: value,
      layout,
      rows: [...before, ...after.map((r) => ({ ...r, at: r.at + moved, top: r.top + shift, ...(r.end === undefined ? {} : { end: r.end + moved }) }))],
      // Rows known past the edit are known still, moved.
      upTo: b.upTo >= old.length - tail ? b.upTo + moved : Math.min(b.upTo, same),
    };
  }

  /**
   * Keeps the rows after line breaks just laid out in the mirror (`breaks`), with the ones
   * kept before whose text before them is still the same.
   * @param {string} value the field's text
   * @param {string} layout `layoutOf` the field
   * @param {Row[]} rows new rows, by position
   * @param {{at: number}} base where the text laid out started
   * @param {number} upTo where it ended
   */
  keepBreaks(value, layout, rows, base, upTo) {
    const b = this.breaks;
    /** @type {Map<number, Row>} */
    const kept = new Map();
    let covered = 0;
    if (b && b.layout === layout) {
      const same = commonPrefix(b.text, value, value.length);
      for (const row of b.rows) if (holds(row, same)) kept.set(row.at, row);
      covered = Math.min(b.upTo, same);
    }
    for (const row of rows) kept.set(row.at, row);
    this.breaks = {
      text: value,
      layout,
      rows: [...kept.values()].sort((x, y) => x.at - y.at),
      // Known from the start on, as long as the new rows join the ones known.
      upTo: base.at <= covered ? Math.max(covered, upTo) : covered,
    };
  }

  /**
   * The field's caret in viewport coordinates (where the suggestions open after a commit): in a
   * textarea laid out from the nearest row known to hold (`baseFor`).
   * @returns {CaretRect}
   */
  caret() {
    const { field } = this;
    if (this.hidden) return hiddenParts(field, this.hidden).caret;
    if (this.kind === 'contenteditable') return editableCaret(field);
    const el = /** @type {HTMLTextAreaElement | HTMLInputElement} */ (field);
    const pos = el.selectionStart ?? el.value.length;
    const from = this.kind === 'textarea' ? this.baseFor(el.value, pos, layoutOf(el, getComputedStyle(el)), 0) : null;
    return textFieldCaret(el, pos, from);
  }

  /** Where a text field is now, as `placed` keeps it. */
  where() {
    const field = /** @type {HTMLTextAreaElement | HTMLInputElement} */ (this.field);
    const r = field.getBoundingClientRect();
    return { r, where: `${r.left},${r.top},${r.width},${r.height},${field.scrollLeft},${field.scrollTop}` };
  }

  /**
   * Whether the preedit may have to be drawn again because the field moved: a text field's
   * mirror placed elsewhere or not at all; always for a contenteditable (its preedit is in its
   * text, or over an editor that may have redrawn).
   */
  moved() {
    if (!this.active || this.overlay || this.kind === 'contenteditable') return true;
    return !this.placed || this.where().where !== this.placed;
  }

  /** Puts the mirror over the field (again when it moved) and scrolls it to show the caret. */
  placeMirror() {
    const field = /** @type {HTMLTextAreaElement | HTMLInputElement} */ (this.field);
    const { r, where } = this.where();
    const style = this.el.style;
    if (this.placed !== where) {
      const cs = getComputedStyle(field);
      // Under a zoom or a scaling transform the mirror is laid out in the field's CSS pixels and
      // scaled to where the field is on screen; its layer's own zoom (a zoomed <body>) multiplies
      // its position and scale.
      const { x: sx, y: sy } = (this.scale = scaleOf(field, cs, r));
      const frame = layerFrame(this.el);
      const z = frame.z;
      style.display = 'block';
      const box = sx === 1 && sy === 1 ? r : layoutBox(cs, field);
      style.left = `${(r.left - frame.x) / z}px`;
      style.top = `${(r.top - frame.y) / z}px`;
      style.width = `${box.width}px`;
      style.height = `${box.height}px`;
      scaleStyle(this.el.style, sx / z, sy / z);
      // The field's scroll bars take room from its text; the mirror has none: pad it instead, on
      // the side each is (a right-to-left field's vertical one on the left).
      const bars = scrollBars(field, cs);
      style.paddingLeft = `${px(cs.paddingLeft) + bars.left}px`;
      style.paddingRight = `${px(cs.paddingRight) + bars.right}px`;
      style.paddingBottom = `${px(cs.paddingBottom) + bars.bottom}px`;
      if (this.kind === 'input') {
        // An input centres its one line vertically.
        style.lineHeight = `${field.clientHeight - px(cs.paddingTop) - px(cs.paddingBottom)}px`;
      }
      this.placed = where;
    }
    this.el.scrollTop = field.scrollTop;
    this.el.scrollLeft = field.scrollLeft;
  }

  /** Measures where the preedit is; scrolls the mirror so that its end (or caret) is in view. */
  measure() {
    const runs = this.runs.getClientRects();
    if (runs.length === 0) {
      this.rect = null;
      this.lastRect = null;
      return;
    }
    if (this.overlay) {
      // Over the editor: nothing to scroll (its text did not move).
    } else if (this.kind !== 'contenteditable') {
      const box = this.el.getBoundingClientRect();
      const target = (this.runs.querySelector('.henkan-caret') ?? this.anchor()).getBoundingClientRect();
      const last = runs[runs.length - 1];
      const bottom = Math.max(target.bottom, last.bottom);
      // Screen pixels to the mirror's scroll offsets (its CSS pixels).
      const { x: sx, y: sy } = this.scale;
      if (bottom > box.bottom) this.el.scrollTop += (bottom - box.bottom + 2) / sy;
      if (target.top < box.top) this.el.scrollTop -= (box.top - target.top) / sy;
      if (target.right > box.right) this.el.scrollLeft += (target.right - box.right + 2) / sx;
      if (target.left < box.left) this.el.scrollLeft -= (box.left - target.left) / sx;
    } else {
      this.runs.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    }
    const rects = this.runs.getClientRects();
    const first = rects[0];
    const last = rects[rects.length - 1];
    this.rect = { left: first.left, right: first.right, top: first.top, bottom: first.bottom };
    this.lastRect = { left: last.left, right: last.right, top: last.top, bottom: last.bottom };
  }

  /** Puts the inline span at the caret of a contenteditable (a selection was deleted as the
   * composition started: `Committer.deleteSelection`). */
  insertInline() {
    const doc = this.field.ownerDocument;
    const sel = selectionOf(this.field);
    /** @type {Range} */
    let range;
    if (sel && sel.rangeCount > 0 && this.field.contains(sel.anchorNode)) {
      range = sel.getRangeAt(0).cloneRange();
      range.collapse(true);
    } else {
      range = doc.createRange();
      range.selectNodeContents(this.field);
      range.collapse(false);
    }
    this.runs.setAttribute('contenteditable', 'false');
    this.runs.classList.add('henkan-preedit-inline');
    range.insertNode(this.runs);
    // Chromium puts the caret after the span; it is hidden while composing (caret-color).
    if (sel && isFocused(this.field)) {
      const after = doc.createRange();
      after.setStartAfter(this.runs);
      after.collapse(true);
      sel.removeAllRanges();
      sel.addRange(after);
    }
  }

  /** Takes the inline span out and joins the text it split; returns the range where it was. */
  removeInline() {
    const span = this.runs;
    const parent = span.parentNode;
    const doc = this.field.ownerDocument;
    if (!parent) return null;
    const prev = span.previousSibling;
    const next = span.nextSibling;
    const range = doc.createRange();
    span.remove();
    if (prev && prev.nodeType === Node.TEXT_NODE) {
      const text = /** @type {Text} */ (prev);
      const offset = text.length;
      if (next && next.nodeType === Node.TEXT_NODE) {
        text.appendData(/** @type {Text} */ (next).data);
        next.remove();
      }
      range.setStart(text, offset);
    } else if (next) {
      range.setStartBefore(next);
    } else {
      range.selectNodeContents(parent);
      range.collapse(false);
    }
    range.collapse(true);
    const sel = selectionOf(this.field);
    if (sel && isFocused(this.field)) {
      sel.removeAllRanges();
      sel.addRange(range);
    }
    return range;
  }
}

/**
 * A code editor that takes its keys through a hidden input (keymap.js `HIDDEN_INPUT_EDITORS`): its
 * outer box, its caret, the box its lines are drawn in and one of its lines (the overlay takes its font and
 * colour), and where in the viewport a line of the overlay may run (the lines' box within the
 * editor's, which hides what is scrolled out). The caret is the editor's own cursor element
 * nearest the input (the editor keeps it at its caret, where OS IMEs open their windows; a cursor
 * that blinks is hidden, not moved), else the input's box; where a selection in the cursor's line
 * is shown (`selected`), its start.
 * @param {HTMLElement} field the hidden input
 * @param {import('../keymap.js').HiddenInputEditor} hidden
 * @returns {{root: HTMLElement, caret: CaretRect, block: HTMLElement, inline: HTMLElement, bounds: {left: number, right: number}, selected: DOMRect | null}}
 */
function hiddenParts(field, hidden) {
  const root = /** @type {HTMLElement} */ (field.closest(hidden.root) ?? field);
  const block = /** @type {HTMLElement} */ (root.querySelector(hidden.lines) ?? root);
  const inline = /** @type {HTMLElement} */ (root.querySelector(hidden.line) ?? block);
  const t = field.getBoundingClientRect();
  const b = block.getBoundingClientRect();
  const r = root.getBoundingClientRect();
  // (Its client box in its CSS pixels, the rects in the screen's: a zoom or a scaling transform
  // around the editor scales the one to the other.)
  const k = scaleOf(root, getComputedStyle(root), r);
  const bounds = { left: Math.max(b.left, r.left), right: Math.min(b.right, r.left + k.x * (root.clientLeft + root.clientWidth)) };
  /** @type {DOMRect | null} */
  let cursor = null;
  let nearest = Infinity;
  for (const c of root.querySelectorAll(hidden.cursor)) {
    const cr = c.getBoundingClientRect();
    if (cr.height === 0) continue;
    const d = Math.abs(cr.left - t.left) + Math.abs(cr.top - t.top);
    if (d < nearest) {
      cursor = cr;
      nearest = d;
    }
  }
  const caret = cursor
    ? { left: cursor.left, top: cursor.top, height: cursor.height, right: bounds.right }
    : { left: t.left, top: t.top, height: k.y * px(getComputedStyle(inline).lineHeight) || t.height, right: bounds.right };
  // (CodeMirror 5 draws no cursor beside a selection: its input is at the selection's head.)
  const selected = selectedInLine(root, hidden, caret);
  // A composition over a selection replaces it with its commit: it starts where the selection does.
  if (selected) caret.left = selected.left;
  return { root, caret, block, inline, bounds, selected };
}

/**
 * The box of a code editor's selection highlight (`hidden.selected`, its boxes joined) where the
 * selection is inside the cursor's line; null where there is none, or it spans lines.
 * @param {HTMLElement} root
 * @param {import('../keymap.js').HiddenInputEditor} hidden
 * @param {{top: number, height: number}} cursor
 * @returns {DOMRect | null}
 */
function selectedInLine(root, hidden, cursor) {
  /** @type {DOMRect | null} */
  let box = null;
  for (const el of root.querySelectorAll(hidden.selected)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.bottom <= cursor.top || r.top >= cursor.top + cursor.height) return null;
    if (!box) {
      box = r;
      continue;
    }
    const x = Math.min(box.left, r.left);
    const y = Math.min(box.top, r.top);
    box = new DOMRect(x, y, Math.max(box.right, r.right) - x, Math.max(box.bottom, r.bottom) - y);
  }
  return box;
}

/**
 * The box of `text` where it ends at a code editor's cursor in its line (`at`, as `cursorInLine`
 * finds it: null at the line's end), across the line's text nodes; null where the text before the
 * cursor is not `text` or has no box.
 * @param {HTMLElement} line
 * @param {Range | null} at
 * @param {string} text
 * @returns {DOMRect | null}
 */
function boxBefore(line, at, text) {
  const doc = line.ownerDocument;
  const walker = doc.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  /** @type {Text[]} */
  const texts = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(/** @type {Text} */ (node));
  let i = at ? texts.indexOf(/** @type {Text} */ (at.startContainer)) : texts.length - 1;
  if (i < 0) return null;
  const end = { node: texts[i], offset: at ? at.startOffset : texts[i].length };
  let offset = end.offset;
  let left = text.length;
  while (offset < left) {
    left -= offset;
    if (--i < 0) return null;
    offset = texts[i].length;
  }
  const range = doc.createRange();
  range.setStart(texts[i], offset - left);
  range.setEnd(end.node, end.offset);
  // (Code editors draw spaces as no-break spaces.)
  if (range.toString().replace(/\u00a0/g, ' ') !== text) return null;
  const box = range.getBoundingClientRect();
  return box.width > 0 && box.height > 0 ? box : null;
}

/** The longest tail the overlay copies (characters): a longer one is covered by the preedit (it
 * would be laid out again on every key). */
export const TAIL_MAX_CHARS = 400;

/** The most boxes of the editor's text that the overlay paints over for a tail (a line of text
 * in one style is one box). */
const TAIL_MAX_RECTS = 200;

/** What each run of the tail copies from the element that holds its text (the overlay has the
 * caret's font already; these are what formatting changes). */
const TAIL_STYLED = ['font-family', 'font-size', 'font-weight', 'font-style', 'color', 'vertical-align', 'letter-spacing'];

/**
 * Whether a block's lines are laid out from their start (left to right in horizontal text, top
 * to bottom in vertical text: `direction: ltr`, aligned to the start or justified): there the
 * text before the caret stays where it is while the preedit grows, and the overlay can start at
 * the caret.
 * @param {CSSStyleDeclaration} cs the block's computed style
 */
function fromStart(cs) {
  return cs.direction === 'ltr' && ['start', 'left', 'justify'].includes(cs.textAlign);
}

/**
 * The caret's box in a column of vertical text: the collapsed range's rect (as wide as the
 * glyphs, no height); at the edge of an element, where it has none, the end of the block's text
 * before it, else the start of the text after it; null where the block has no text.
 * @param {Range} at
 * @param {HTMLElement} block
 */
export function columnAt(at, block) {
  const r = at.getClientRects()[0];
  if (r && r.width > 0) return r;
  const range = block.ownerDocument.createRange();
  try {
    range.setStart(block, 0);
    range.setEnd(at.startContainer, at.startOffset);
    const before = [...range.getClientRects()].filter((b) => b.width > 0 && b.height > 0).pop();
    if (before) return new DOMRect(before.left, before.bottom, before.width, 0);
    range.setStart(at.startContainer, at.startOffset);
    range.setEnd(block, block.childNodes.length);
    const after = [...range.getClientRects()].find((b) => b.width > 0 && b.height > 0);
    return after ? new DOMRect(after.left, after.top, after.width, 0) : null;
  } catch {
    return null;
  }
}

/**
 * The text that follows the caret `at` in its `block`, as runs in the look of the text they copy
 * (`textRuns`): drawn after the preedit, it moves aside as the editor's text does for a native
 * IME's composition. No runs where nothing but white space follows the caret.
 * @param {HTMLElement} block
 * @param {Range} at
 * @returns {{runs: HTMLElement[], rects: DOMRect[]} | null}
 */
function tailOf(block, at) {
  const range = block.ownerDocument.createRange();
  try {
    range.setStart(at.startContainer, at.startOffset);
    range.setEnd(block, block.childNodes.length);
  } catch {
    return null;
  }
  const text = range.toString();
  if (!/\S/.test(text)) return { runs: [], rects: [] };
  const tail = textRuns(block, range, text);
  // A break at the block's end holds its last line open (ProseMirror, CKEditor, a browser's own
  // editing): it makes no line of its own.
  if (tail?.runs.length && tail.runs[tail.runs.length - 1].tagName === 'BR') tail.runs.pop();
  return tail;
}

/**
 * The text of `block` before the caret `at`, as runs in the look of the text they
 * copy (`textRuns`), or null where a copy would not look like it.
 * @param {HTMLElement} block
 * @param {Range} at
 */
function headOf(block, at) {
  const range = block.ownerDocument.createRange();
  try {
    range.setStart(block, 0);
    range.setEnd(at.startContainer, at.startOffset);
  } catch {
    return null;
  }
  return textRuns(block, range);
}

/**
 * The text of `range` (inside `block`) as runs in the look of the text they copy (font, colour,
 * the lines and backgrounds of their inline elements), with the boxes of the editor's own text
 * that they copy (client rects: what the overlay paints over). Null where a copy would not look
 * like the text: an element in it that is not inline text (an image, a widget, a nested block),
 * more than `TAIL_MAX_CHARS`, more than `TAIL_MAX_RECTS` boxes.
 * @param {HTMLElement} block
 * @param {Range} range
 * @param {string} [text] the range's text
 * @returns {{runs: HTMLElement[], rects: DOMRect[]} | null}
 */
function textRuns(block, range, text = range.toString()) {
  const doc = block.ownerDocument;
  if (text.length > TAIL_MAX_CHARS) return null;
  /** @type {HTMLElement[]} */
  const runs = [];
  // Elements not shown are left out with what they hold.
  const walker = doc.createTreeWalker(block, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, (n) =>
    n.nodeType === Node.ELEMENT_NODE && getComputedStyle(/** @type {Element} */ (n)).display === 'none' ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  );
  // From the range's start on (what comes before it is not walked: a long block costs the range).
  const { startContainer: start, startOffset, endContainer: end, endOffset } = range;
  walker.currentNode = start;
  for (let node = start.nodeType === Node.TEXT_NODE ? start : walker.nextNode(); node; node = walker.nextNode()) {
    if (range.comparePoint(node, 0) > 0) break;
    if (!range.intersectsNode(node)) continue;
    if (node.nodeType === Node.TEXT_NODE) {
      const t = /** @type {Text} */ (node);
      const data = t.data.slice(t === start ? startOffset : 0, t === end ? endOffset : t.length);
      if (data && t.parentElement) runs.push(tailRun(doc, data, t.parentElement, block));
      continue;
    }
    const el = /** @type {HTMLElement} */ (node);
    if (el.tagName === 'BR') {
      runs.push(doc.createElement('br'));
      continue;
    }
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0 && !el.firstChild) continue;
    const display = getComputedStyle(el).display;
    if (display !== 'inline' && display !== 'contents') return null;
    if ((block.isContentEditable && !el.isContentEditable) || /^(IMG|SVG|VIDEO|CANVAS|IFRAME|INPUT|BUTTON|SELECT|TEXTAREA|OBJECT|EMBED|MATH)$/i.test(el.tagName)) return null;
  }
  const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
  return rects.length > TAIL_MAX_RECTS ? null : { runs, rects };
}

/**
 * One run of the tail: `text` in the look it has inside `holder` (its inline ancestors' lines and
 * backgrounds up to `block` included).
 * @param {Document} doc
 * @param {string} text
 * @param {HTMLElement} holder
 * @param {HTMLElement} block
 */
function tailRun(doc, text, holder, block) {
  const span = doc.createElement('span');
  span.textContent = text;
  const cs = getComputedStyle(holder);
  for (const p of TAIL_STYLED) span.style.setProperty(p, cs.getPropertyValue(p));
  /** @type {Set<string>} */
  const lines = new Set();
  for (let el = /** @type {HTMLElement | null} */ (holder); el && el !== block; el = el.parentElement) {
    const ecs = el === holder ? cs : getComputedStyle(el);
    for (const l of ecs.textDecorationLine.split(' ')) if (l !== 'none') lines.add(l);
    if (!span.style.backgroundColor && !isTransparent(ecs.backgroundColor)) span.style.backgroundColor = ecs.backgroundColor;
  }
  if (lines.size) span.style.textDecorationLine = [...lines].join(' ');
  return span;
}

/**
 * A code editor's line under its cursor (`hidden.line`, the one whose box holds the cursor's
 * middle; the block in it that holds the cursor's text) and a collapsed range in its text where the
 * cursor is: before the first character whose middle is right of it. Null range at the line's
 * end; null where no line is under the cursor.
 * @param {HTMLElement} root the editor's outer box (`hidden.root`)
 * @param {import('../keymap.js').HiddenInputEditor} hidden
 * @param {{left: number, top: number, height: number}} cursor
 * @returns {{line: HTMLElement, at: Range | null} | null}
 */
function cursorInLine(root, hidden, cursor) {
  const y = cursor.top + cursor.height / 2;
  const x = cursor.left;
  for (const el of root.querySelectorAll(hidden.line)) {
    const line = /** @type {HTMLElement} */ (el);
    const r = line.getBoundingClientRect();
    if (r.height === 0 || y < r.top || y >= r.bottom) continue;
    const doc = line.ownerDocument;
    const walker = doc.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    const probe = doc.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const t = /** @type {Text} */ (node);
      probe.selectNodeContents(t);
      const box = probe.getBoundingClientRect();
      if (box.width === 0 || box.right <= x + 1) continue;
      let lo = 0;
      let hi = t.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        probe.setStart(t, mid);
        probe.setEnd(t, mid + 1);
        const c = probe.getBoundingClientRect();
        if (c.left + c.width / 2 < x) lo = mid + 1;
        else hi = mid;
      }
      const at = doc.createRange();
      at.setStart(t, lo);
      // (Monaco's line holds its text in a span shown as a block.)
      let block = /** @type {HTMLElement} */ (t.parentElement ?? line);
      while (block !== line && getComputedStyle(block).display.startsWith('inline') && block.parentElement) block = block.parentElement;
      return { line: block, at };
    }
    return { line, at: null };
  }
  return null;
}

/** What the overlay copies from the text at the caret (the inherited properties that place glyphs
 * too: the overlay inherits from the widget's layer, as the mirror does, `MIRRORED`). */
const OVERLAID = ['font-family', 'font-size', 'font-weight', 'font-style', 'font-stretch', 'font-variant', 'font-feature-settings',
  'font-kerning', 'font-variation-settings', 'font-variant-east-asian', 'letter-spacing', 'word-spacing', 'color', 'direction',
  'tab-size', 'word-break', 'line-break', 'text-transform', 'text-autospace', 'text-spacing-trim'];

/**
 * A cover of the overlay (the editor's background, under the overlay's text) over a box in the
 * overlay's CSS pixels.
 * @param {Document} doc
 * @param {number} x
 * @param {number} y
 * @param {number} width
 * @param {number} height
 * @param {boolean} [fromRight] `x` is from the overlay's right edge
 */
function coverAt(doc, x, y, width, height, fromRight = false) {
  const cover = doc.createElement('div');
  cover.className = 'henkan-preedit-cover';
  cover.style.setProperty(fromRight ? 'right' : 'left', `${x}px`);
  cover.style.top = `${y}px`;
  cover.style.width = `${width}px`;
  cover.style.height = `${height}px`;
  return cover;
}

/**
 * Whether a block holds no text that was typed: none but white space and zero-width characters
 * (the editors' fillers), outside the non-editable elements in it (a placeholder widget).
 * @param {HTMLElement} block
 */
function blank(block) {
  const walker = block.ownerDocument.createTreeWalker(block, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!/[^\s\u200b\ufeff]/.test(/** @type {Text} */ (n).data)) continue;
    const widget = n.parentElement?.closest('[contenteditable="false"]');
    if (!widget || !block.contains(widget)) return false;
  }
  return true;
}

/**
 * The background under a code editor's text at height `y`: its line highlight there (`activeLine`,
 * drawn in a layer under the text), composited over `under`, the background of its lines. Null
 * where no highlight is there or a colour is not an `rgb()` / `rgba()` one.
 * @param {HTMLElement} root the editor's outer box (`hidden.root`)
 * @param {import('../keymap.js').HiddenInputEditor} hidden
 * @param {number} y
 * @param {string} under
 * @returns {string | null}
 */
function lineHighlight(root, hidden, y, under) {
  for (const el of root.querySelectorAll(hidden.activeLine)) {
    const r = el.getBoundingClientRect();
    if (r.height === 0 || y < r.top || y >= r.bottom) continue;
    const top = rgba(getComputedStyle(el).backgroundColor);
    const base = rgba(under);
    if (!top || !base) return null;
    const a = top[3];
    const mix = [0, 1, 2].map((i) => Math.round(top[i] * a + base[i] * (1 - a)));
    return `rgb(${mix.join(', ')})`;
  }
  return null;
}

/**
 * The inside of the borders a code editor draws around the line at height `y` (its current-line
 * highlight, `activeLine`: Monaco draws a border above and below the line), in screen pixels; null
 * where it draws none there.
 * @param {HTMLElement} root the editor's outer box (`hidden.root`)
 * @param {import('../keymap.js').HiddenInputEditor} hidden
 * @param {number} y
 * @returns {{top: number, bottom: number} | null}
 */
function highlightBand(root, hidden, y) {
  for (const el of root.querySelectorAll(hidden.activeLine)) {
    const r = el.getBoundingClientRect();
    if (r.height === 0 || y < r.top || y >= r.bottom) continue;
    const cs = getComputedStyle(el);
    const [up, down] = [px(cs.borderTopWidth), px(cs.borderBottomWidth)];
    // (Monaco's line-number margin has a current line of its own, without borders.)
    if (!up && !down) continue;
    const k = scaleOf(el, cs, r).y;
    return { top: r.top + k * up, bottom: r.bottom - k * down };
  }
  return null;
}

/**
 * The colour a preedit is drawn in over a field whose text is transparent: its `color` (when only
 * its fill is transparent), its caret's, the first of its ancestors' that shows, else black.
 * @param {HTMLElement} field
 * @param {string} color its computed `color`
 * @param {string} caretColor its computed `caret-color`
 */
function visibleColor(field, color, caretColor) {
  for (const c of [color, caretColor]) if (c && !isTransparent(c)) return c;
  for (let el = field.parentElement; el; el = el.parentElement) {
    const c = getComputedStyle(el).color;
    if (!isTransparent(c)) return c;
  }
  return '#000';
}

/**
 * @param {Document} doc
 * @param {string} text
 * @param {string} cls
 */
function runSpan(doc, text, cls) {
  const span = doc.createElement('span');
  span.className = cls;
  span.textContent = text;
  return span;
}

/** @param {Document} doc */
function caretSpan(doc) {
  const span = doc.createElement('span');
  span.className = 'henkan-caret';
  return span;
}

/**
 * Scales a mirror or an overlay from its top-left corner, or `origin` (nothing when 1 and 1).
 * @param {CSSStyleDeclaration} style
 * @param {number} x
 * @param {number} y
 * @param {string} [origin] the `transform-origin` (an overlay anchored at its right edge)
 */
function scaleStyle(style, x, y, origin = '0 0') {
  const scaled = Math.abs(x - 1) >= 1e-3 || Math.abs(y - 1) >= 1e-3;
  style.transformOrigin = scaled ? origin : '';
  style.transform = scaled ? `scale(${x}, ${y})` : '';
}

/**
 * Whether a row of a textarea's text holds while the text's first `same` characters are as they
 * were: a row after a line break while the text before it is; a row after a wrap while its own
 * text is too (the word it begins decides where the row before it ends).
 * @param {Row} row
 * @param {number} same
 */
function holds(row, same) {
  return row.end === undefined ? row.at <= same : row.end <= same;
}

/**
 * Whether the rows after a wrap hold in a textarea of this style, so that its text may be laid
 * out from one: the rows of a paragraph are filled one after another (no balanced or pretty
 * wrapping), the first line is not indented, and the paragraph's direction is the field's (and
 * the text wraps at all).
 * @param {CSSStyleDeclaration} cs
 */
function wrapsHold(cs) {
  const style = cs.getPropertyValue('text-wrap-style') || cs.getPropertyValue('text-wrap') || 'auto';
  const wraps = !(cs.textWrapMode === 'nowrap' || cs.whiteSpace === 'pre' || cs.whiteSpace === 'nowrap');
  return wraps && (style === 'auto' || style === 'wrap' || style === 'stable') && !px(cs.textIndent) && cs.unicodeBidi !== 'plaintext';
}

/**
 * Whether character `k` of `value` may begin the text laid out from a row after a wrap: not a
 * space (laid out first it would take room) nor a mark or the second half of a character.
 * @param {string} value
 * @param {number} k
 */
function mayBeginRow(value, k) {
  return !/^[\s\p{M}\u200c\u200d\udc00-\udfff]/u.test(value.slice(k, k + 1));
}

/**
 * About the most characters a text field shows at once: narrow characters, one more line above
 * and below.
 * @param {HTMLElement} field
 * @param {CSSStyleDeclaration} cs its computed style
 */
function fieldChars(field, cs) {
  const lines = field.clientHeight / (px(cs.lineHeight) || px(cs.fontSize) * 1.2 || 20) + 2;
  const perLine = field.clientWidth / (0.5 * (px(cs.fontSize) || 16));
  return lines * perLine;
}

/**
 * How many characters `a` and `b` have in common from their start, at most `limit`.
 * @param {string} a
 * @param {string} b
 * @param {number} limit
 */
function commonPrefix(a, b, limit) {
  const n = Math.min(a.length, b.length, limit);
  if (b.startsWith(a.slice(0, n))) return n;
  // Halving with the native comparison: a few dozen slices, not a loop over the characters.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.startsWith(b.slice(lo, mid), lo)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * How many characters `a` and `b` have in common at their end, at most `limit`.
 * @param {string} a
 * @param {string} b
 * @param {number} limit
 */
function commonSuffix(a, b, limit) {
  const n = Math.min(a.length, b.length, limit);
  if (b.endsWith(a.slice(a.length - n))) return n;
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    // a's and b's last `lo` characters are the same: the ones before them up to `mid`?
    if (a.slice(a.length - mid, a.length - lo) === b.slice(b.length - mid, b.length - lo)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * What a text field's rows depend on besides its text: the width, the mirrored styles, the fonts
 * in (a web font that arrives moves them) and the zoom.
 * @param {HTMLElement} field
 * @param {CSSStyleDeclaration} cs its computed style
 */
function layoutOf(field, cs) {
  const doc = field.ownerDocument;
  return [
    field.clientWidth,
    doc.fonts?.status,
    doc.defaultView?.devicePixelRatio,
    ...MIRRORED.map((p) => cs.getPropertyValue(toKebab(p))),
  ].join('|');
}
