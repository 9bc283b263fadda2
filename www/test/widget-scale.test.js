import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutBox, scaleOf, zoomOf, scrollBars } from '../widget/scale.js';

/** A computed style as `getComputedStyle` gives it (the properties `layoutBox` reads). */
const style = (/** @type {Record<string, string>} */ over = {}) =>
  /** @type {CSSStyleDeclaration} */ (/** @type {unknown} */ ({
    boxSizing: 'content-box',
    width: '250px',
    height: '60px',
    paddingLeft: '3px',
    paddingRight: '3px',
    paddingTop: '2px',
    paddingBottom: '2px',
    borderLeftWidth: '1px',
    borderRightWidth: '1px',
    borderTopWidth: '1px',
    borderBottomWidth: '1px',
    ...over,
  }));
const el = /** @type {Element} */ (/** @type {unknown} */ ({}));
const rect = (/** @type {number} */ width, /** @type {number} */ height) => /** @type {DOMRect} */ ({ width, height });

test('the border box as laid out: the content box with padding and border, or the width itself for border-box', () => {
  assert.deepEqual(layoutBox(style()), { width: 258, height: 66 });
  assert.deepEqual(layoutBox(style({ boxSizing: 'border-box' })), { width: 250, height: 60 });
});

test('a content box\'s scroll bars are added back: its computed size leaves them out', () => {
  // A textarea 250 px wide with a 15 px scroll bar: its computed width is 235 px.
  const sizes = (/** @type {Record<string, number>} */ over = {}) =>
    /** @type {Element} */ (/** @type {unknown} */ ({ offsetWidth: 258, clientWidth: 241, clientLeft: 1, offsetHeight: 66, clientHeight: 64, clientTop: 1, ...over }));
  const bars = sizes();
  assert.deepEqual(scrollBars(bars, style({ width: '235px' })), { left: 0, right: 15, bottom: 0 });
  assert.deepEqual(layoutBox(style({ width: '235px' }), bars), { width: 258, height: 66 });
  assert.deepEqual(scaleOf(bars, style({ width: '235px' }), rect(258, 66)), { x: 1, y: 1 });
  // Right to left, the vertical bar is on the left; a horizontal one at the bottom.
  assert.deepEqual(scrollBars(sizes({ clientLeft: 16 }), style()), { left: 15, right: 0, bottom: 0 });
  assert.deepEqual(scrollBars(sizes({ clientHeight: 49 }), style()), { left: 0, right: 15, bottom: 15 });
  // A pixel of rounding is no scroll bar.
  const rounded = sizes({ offsetWidth: 259, clientWidth: 256 });
  assert.deepEqual(layoutBox(style(), rounded), { width: 258, height: 66 });
  // A border box's computed size has them already.
  assert.deepEqual(layoutBox(style({ boxSizing: 'border-box' }), bars), { width: 250, height: 60 });
});

test('the scale of a field: its box on screen over its box as laid out, 1 within rounding', () => {
  assert.deepEqual(scaleOf(el, style(), rect(258, 66)), { x: 1, y: 1 });
  assert.deepEqual(scaleOf(el, style(), rect(258.1, 66.05)), { x: 1, y: 1 });
  assert.deepEqual(scaleOf(el, style(), rect(387, 99)), { x: 1.5, y: 1.5 });
  assert.deepEqual(scaleOf(el, style(), rect(322.5, 33)), { x: 1.25, y: 0.5 });
  // Not laid out (display: none): no scale.
  assert.deepEqual(scaleOf(el, style({ width: 'auto', height: 'auto', boxSizing: 'border-box' }), rect(0, 0)), { x: 1, y: 1 });
});

test('the zoom of a fixed element: its currentCSSZoom, 1 where there is none', () => {
  assert.equal(zoomOf(/** @type {Element} */ (/** @type {unknown} */ ({ currentCSSZoom: 1.3 }))), 1.3);
  assert.equal(zoomOf(el), 1);
  assert.equal(zoomOf(/** @type {Element} */ (/** @type {unknown} */ ({ currentCSSZoom: 0 }))), 1);
});
