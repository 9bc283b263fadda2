import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nearestScroll } from '../widget/reveal.js';

test('a span already in view needs no scroll', () => {
  assert.equal(nearestScroll(20, 40, 0, 100), 0);
  assert.equal(nearestScroll(0, 100, 0, 100), 0);
});

test('a span past an edge scrolls to that edge, as little as brings it in', () => {
  assert.equal(nearestScroll(90, 110, 0, 100), 10);
  assert.equal(nearestScroll(-30, -10, 0, 100), -30);
  assert.equal(nearestScroll(300, 300, 0, 100), 200, 'a caret far to the right');
});

test('a span longer than the room shows its start', () => {
  assert.equal(nearestScroll(50, 250, 0, 100), 50);
  assert.equal(nearestScroll(-50, 150, 0, 100), -50);
});
