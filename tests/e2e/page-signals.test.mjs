// The widget respects the page, in Chromium with the shipped model: composition events reach the
// page (a chat box that sends on Enter does not send mid-composition), keys the page handled stay
// the page's, fields for numbers and codes start with the IME off, AltGr characters go into the
// composition, and a field removed while composing takes its windows and session with it.
//
//   node --test tests/e2e/page-signals.test.mjs        (after `make wasm`)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, widgetPage } from './harness.mjs';

const env = serverAndBrowser();

const HTML = `<textarea id="ta"></textarea>
  <input id="otp" autocomplete="one-time-code">
  <input id="num" inputmode="numeric">`;

/** A page with the three fields attached. */
async function page() {
  const r = await widgetPage(env.browser.context, env.server.url, HTML, ['ta', 'otp', 'num']);
  assert.equal(r.status, 'ready');
  return r;
}

test('composition events reach the page; a chat box that sends on Enter waits for the composition', async () => {
  const { page: p, errors } = await page();
  await p.evaluate(() => {
    const el = /** @type {HTMLTextAreaElement} */ (document.getElementById('ta'));
    const w = /** @type {any} */ (window);
    w.events = [];
    w.sent = [];
    let composing = false;
    for (const type of ['compositionstart', 'compositionupdate', 'compositionend']) {
      el.addEventListener(type, (e) => {
        w.events.push(`${type}:${/** @type {CompositionEvent} */ (e).data}`);
        composing = type !== 'compositionend';
      });
    }
    // A chat page: Enter sends, unless a composition is under way (it listens first).
    document.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'Enter' && !composing && !e.isComposing) {
          w.sent.push(el.value);
          e.preventDefault();
          el.value = '';
        }
      },
      true,
    );
  });
  await p.click('#ta');
  await p.keyboard.type('kyou');
  await p.keyboard.press('Space');
  await p.keyboard.press('Enter'); // commits the conversion: not sent
  let r = await p.evaluate(() => ({ events: /** @type {any} */ (window).events, sent: /** @type {any} */ (window).sent, value: /** @type {HTMLTextAreaElement} */ (document.getElementById('ta')).value }));
  assert.deepEqual(r.sent, [], 'nothing sent while composing');
  assert.equal(r.value, '今日');
  assert.deepEqual(r.events.slice(0, 5), ['compositionstart:', 'compositionupdate:k', 'compositionupdate:ky', 'compositionupdate:きょ', 'compositionupdate:きょう']);
  assert.equal(r.events.at(-1), 'compositionend:今日');
  await p.keyboard.press('Enter'); // now it sends
  r = await p.evaluate(() => ({ sent: /** @type {any} */ (window).sent }));
  assert.deepEqual(r.sent, ['今日']);
  assert.deepEqual(errors, []);
  await p.close();
});

test('a key the page has handled is the page’s; AltGr characters go into the composition', async () => {
  const { page: p, errors } = await page();
  await p.evaluate(() => {
    document.addEventListener(
      'keydown',
      (e) => {
        if (e.key === 'q') e.preventDefault();
      },
      true,
    );
  });
  await p.click('#ta');
  await p.keyboard.type('ka');
  await p.keyboard.press('q');
  const state = () =>
    p.evaluate(async () => {
      const { stateOf } = await import('/www/widget.js');
      return /** @type {any} */ (stateOf(/** @type {HTMLElement} */ (document.getElementById('ta'))))?.last?.preedit.text;
    });
  assert.equal(await state(), 'か', 'q was the page’s');
  await p.evaluate(() => {
    const init = /** @type {KeyboardEventInit} */ ({ key: '€', code: 'KeyE', ctrlKey: true, altKey: true, modifierAltGraph: true, bubbles: true, cancelable: true });
    document.getElementById('ta')?.dispatchEvent(new KeyboardEvent('keydown', init));
  });
  assert.equal(await state(), 'か€', 'AltGr+E types €');
  assert.deepEqual(errors, []);
  await p.close();
});

test('fields for one-time codes and numbers start with the IME off', async () => {
  const { page: p, errors } = await page();
  for (const id of ['otp', 'num']) {
    await p.click(`#${id}`);
    await p.keyboard.type('123456');
    await p.keyboard.press('Enter');
    assert.equal(await p.inputValue(`#${id}`), '123456', id);
    assert.equal(await p.textContent('.henkan-indicator:visible'), 'A');
  }
  assert.deepEqual(errors, []);
  await p.close();
});

test('a field removed while composing takes its windows, session and listeners with it', async () => {
  const { page: p, errors } = await page();
  await p.click('#ta');
  await p.keyboard.type('kyouha');
  const before = await p.evaluate(() => document.querySelectorAll('.henkan-layer').length);
  await p.evaluate(() => document.getElementById('ta')?.remove());
  await p.waitForFunction((n) => document.querySelectorAll('.henkan-layer').length === n - 1, before);
  // Nothing that comes late (the LM's catch-up, a preview) puts the layer back.
  await p.waitForTimeout(400);
  assert.equal(await p.evaluate(() => document.querySelectorAll('.henkan-layer').length), before - 1, 'the layer stays gone');
  const r = await p.evaluate(async () => {
    const { stateOf } = await import('/www/widget.js');
    return {
      mirrors: [...document.querySelectorAll('.henkan-preedit')].filter((m) => /** @type {HTMLElement} */ (m).style.display === 'block').length,
      indicators: document.querySelectorAll('.henkan-indicator').length,
    };
  });
  assert.deepEqual(r, { mirrors: 0, indicators: 2 }, 'the other two fields keep theirs');
  // The other fields still work.
  await p.click('#otp');
  await p.keyboard.type('12');
  assert.equal(await p.inputValue('#otp'), '12');
  assert.deepEqual(errors, []);
  await p.close();
});
