// Editing as with a desktop IME, in Chromium with the whole widget and the shipped model: the
// preedit in the text flow of a textarea, an input and a contenteditable (what follows the caret
// moves aside, a selection is replaced, one undo step per commit), a caret inside the kana,
// and alphanumeric input after a Shift+letter. Screenshots go to tests/e2e/output/.
//
//   node --test tests/e2e/editing.test.mjs        (after `make wasm`)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, ensureOutput, demoUrl, waitForIme, widgetPage, dropText, MODEL } from './harness.mjs';

const env = serverAndBrowser();

/**
 * A blank page with three fields (a textarea, an input, a contenteditable), each attached to
 * the widget over one engine with the shipped model (those of `ids`).
 * @param {string[]} [ids]
 */
async function fields(ids = ['ta', 'in', 'ce']) {
  const html = `<div style='font: 20px/1.5 "IPAGothic", "Noto Sans CJK JP", sans-serif; margin: 20px'>
      <textarea id="ta" rows="4" style="width: 420px; font: inherit"></textarea>
      <p><input id="in" style="width: 420px; font: inherit"></p>
      <div id="ce" contenteditable="true" style="width: 420px; min-height: 2em; border: 1px solid #888"></div>
      <p><input id="next"></p></div>`;
  const { page, errors, status } = await widgetPage(env.browser.context, env.server.url, html, ids);
  assert.equal(status, 'ready');
  return { page, errors };
}

/**
 * Puts text into a field and the caret (or a selection) at the given offsets.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {string} text
 * @param {number} start
 * @param {number} [end]
 */
async function place(page, id, text, start, end = start) {
  await page.click(`#${id}`);
  await page.evaluate(
    ([id, text, start, end]) => {
      const el = /** @type {HTMLElement} */ (document.getElementById(String(id)));
      if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) {
        el.value = String(text);
        el.setSelectionRange(Number(start), Number(end));
      } else {
        el.textContent = String(text);
        const node = /** @type {Text} */ (el.firstChild);
        const range = document.createRange();
        range.setStart(node, Number(start));
        range.setEnd(node, Number(end));
        const sel = /** @type {Selection} */ (document.getSelection());
        sel.removeAllRanges();
        sel.addRange(range);
      }
    },
    [id, text, start, end],
  );
}

/**
 * What the user sees of a field: the mirror's text over a textarea/input, the element's own text
 * for a contenteditable (the preedit is inline there).
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function visible(page, id) {
  return page.evaluate((id) => {
    const el = /** @type {HTMLElement} */ (document.getElementById(id));
    if (el.isContentEditable) return el.textContent;
    const mirror = [...document.querySelectorAll('.henkan-preedit')].find((m) => /** @type {HTMLElement} */ (m).style.display === 'block');
    return mirror ? (mirror.textContent ?? '').replace(/ $/, '') : /** @type {HTMLTextAreaElement} */ (el).value;
  }, id);
}

/**
 * Where a piece of the visible text is (its first client rect), found in the mirror or the
 * contenteditable.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {string} piece
 */
function rectOf(page, id, piece) {
  return page.evaluate(
    ([id, piece]) => {
      const el = /** @type {HTMLElement} */ (document.getElementById(id));
      const root = el.isContentEditable
        ? el
        : [...document.querySelectorAll('.henkan-preedit')].find((m) => /** @type {HTMLElement} */ (m).style.display === 'block');
      if (!root) return null;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = (n.textContent ?? '').indexOf(piece);
        if (i >= 0) {
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + piece.length);
          const rect = r.getClientRects()[0];
          return rect && { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
        }
      }
      return null;
    },
    [id, piece],
  );
}

/**
 * Where the text at `offset` of a field is drawn before any composition.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 * @param {number} offset
 */
function caretAt(page, id, offset) {
  return page.evaluate(
    async ([id, offset]) => {
      const { textFieldCaret } = await import('/www/caret.js');
      const el = /** @type {HTMLElement} */ (document.getElementById(String(id)));
      if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) {
        const c = textFieldCaret(el, Number(offset));
        return { left: c.left, top: c.top };
      }
      const r = document.createRange();
      r.setStart(/** @type {Text} */ (el.firstChild), Number(offset));
      const rect = r.getClientRects()[0];
      return { left: rect.left, top: rect.top };
    },
    [id, offset],
  );
}

/**
 * The field's text: its value, or a contenteditable's text without the preedit span.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
const valueOf = (page, id) =>
  page.evaluate((id) => {
    const el = /** @type {HTMLElement} */ (document.getElementById(id));
    if (!el.isContentEditable) return /** @type {HTMLInputElement} */ (el).value;
    const copy = /** @type {HTMLElement} */ (el.cloneNode(true));
    copy.querySelector('.henkan-preedit-runs')?.remove();
    return copy.textContent;
  }, id);

/**
 * Types text as a keyboard does: capitals with Shift held.
 * @param {import('playwright-core').Page} page
 * @param {string} text
 */
async function typeKeys(page, text) {
  for (const c of text) {
    if (/[A-Z]/.test(c)) await page.keyboard.press(`Shift+${c}`);
    else await page.keyboard.type(c);
  }
}

/**
 * The widget's last output for a field.
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function lastOf(page, id) {
  return page.evaluate(async (id) => {
    const { stateOf } = await import('/www/widget.js');
    return /** @type {any} */ (stateOf(/** @type {HTMLElement} */ (document.getElementById(id))))?.last;
  }, id);
}

const TEXT = '今日は晴れです。明日は雨らしい。';

for (const id of ['ta', 'in', 'ce']) {
  test(`the preedit takes its place in the text (${id}): the rest moves right, one undo per commit`, async () => {
    const { page, errors } = await fields();
    await place(page, id, TEXT, 3);
    const before = await caretAt(page, id, 3);
    await page.keyboard.type('totemo');
    assert.equal(await valueOf(page, id), TEXT, 'the value is not touched while composing');
    assert.equal(await visible(page, id), '今日はとても晴れです。明日は雨らしい。');
    const preedit = await rectOf(page, id, 'とても');
    const after = await rectOf(page, id, '晴れ');
    assert.ok(before && preedit && after, 'measured');
    assert.ok(after.left >= preedit.right - 1 || after.top > preedit.top, `晴れ moved aside: ${JSON.stringify({ before, preedit, after })}`);
    assert.ok(after.left > before.left + 20 || after.top > before.top, '晴れ is no longer where it was');
    ensureOutput();
    await page.screenshot({ path: path.join('tests/e2e/output', `editing-flow-${id}.png`) });
    await page.keyboard.press('Enter');
    assert.equal(await valueOf(page, id), '今日はとても晴れです。明日は雨らしい。');
    assert.equal(await visible(page, id), '今日はとても晴れです。明日は雨らしい。');
    await page.keyboard.press('Control+z');
    assert.equal(await valueOf(page, id), TEXT, 'one undo takes the commit back');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`a selection is replaced by the composition (${id})`, async () => {
    const { page, errors } = await fields();
    await place(page, id, TEXT, 0, TEXT.length);
    await page.keyboard.type('kyou');
    assert.equal(await visible(page, id), 'きょう', 'the selected text is not shown under the preedit');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    assert.equal(await valueOf(page, id), '今日');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`Ctrl+Backspace right after a commit takes it back into a conversion; another candidate replaces it (${id})`, async () => {
    const { page, errors } = await fields();
    await place(page, id, '前の文。', 4);
    await page.keyboard.type('kikaiga');
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    const first = (await valueOf(page, id))?.slice(4) ?? '';
    assert.ok(first.endsWith('が') && first.length >= 2, first);
    await page.keyboard.press('Control+Backspace');
    let last = await lastOf(page, id);
    assert.equal(last?.state, 'converting', 'the commit is a conversion again');
    assert.equal(await visible(page, id), `前の文。${last.preedit.text}`, 'shown in its place, not beside it');
    // Another candidate, committed, takes the place of the first.
    await page.keyboard.press('Space');
    await page.keyboard.press('Space');
    last = await lastOf(page, id);
    const second = last.preedit.text;
    assert.notEqual(second, first);
    await page.keyboard.press('Enter');
    assert.equal(await valueOf(page, id), `前の文。${second}`);
    // Not once the caret has moved: the key is the field's (Ctrl+Backspace deletes a word).
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Control+Backspace');
    last = await lastOf(page, id);
    assert.notEqual(last?.state, 'converting');
    assert.ok((await valueOf(page, id))?.length < `前の文。${second}`.length, 'the field deleted a word');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`Ctrl+↓ commits the segments up to the focused one; the rest stays converted (${id})`, async () => {
    const { page, errors } = await fields();
    await place(page, id, '前の文。', 4);
    await page.keyboard.type('kinouhatomodachitoeigawomimashita');
    await page.keyboard.press('Space');
    let last = await lastOf(page, id);
    const surfaces = last.segments.map((/** @type {{surface: string}} */ g) => g.surface);
    assert.ok(surfaces.length >= 3, JSON.stringify(surfaces));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Control+ArrowDown');
    const head = surfaces.slice(0, 2).join('');
    assert.equal(await valueOf(page, id), `前の文。${head}`);
    last = await lastOf(page, id);
    assert.equal(last.state, 'converting');
    assert.deepEqual(last.segments.map((/** @type {{surface: string}} */ g) => g.surface), surfaces.slice(2));
    assert.equal(await visible(page, id), `前の文。${surfaces.join('')}`);
    await page.keyboard.press('Enter');
    assert.equal(await valueOf(page, id), `前の文。${surfaces.join('')}`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test(`text dropped while composing lands where the pointer is, after the composition went in (${id})`, async () => {
    const { page, errors } = await fields();
    await place(page, id, TEXT, 3);
    await page.keyboard.type('totemo');
    // Where the user sees 雨 while composing (the preedit moved it aside) is where it is once the
    // composition is in. Text dragged from another window is dropped on its left half.
    const target = await rectOf(page, id, '雨');
    assert.ok(target, 'measured');
    const x = target.left + 2;
    const y = (target.top + target.bottom) / 2;
    await dropText(page, { x, y }, 'Ω');
    await page.waitForFunction((id) => {
      const el = /** @type {any} */ (document.getElementById(id));
      return (el.isContentEditable ? el.textContent : el.value).includes('Ω');
    }, id);
    assert.equal(await valueOf(page, id), '今日はとても晴れです。明日はΩ雨らしい。');
    assert.equal(await visible(page, id), '今日はとても晴れです。明日はΩ雨らしい。', 'no preedit is left');
    // The dropped text is selected, as after any drop; → puts the caret after it.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('ooi');
    await page.keyboard.press('Enter');
    assert.equal(await valueOf(page, id), '今日はとても晴れです。明日はΩおおい雨らしい。');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

for (const id of ['ta', 'in', 'ce']) {
  test(`a click away commits the composition before the page's own blur listener runs (${id})`, async () => {
    // The page's listener comes first (the extension attaches on focus, after the page's scripts);
    // as with a native IME, it reads the field with the commit in it.
    const { page, errors } = await fields([]);
    await page.evaluate(async (id) => {
      const w = /** @type {any} */ (window);
      const el = /** @type {HTMLElement} */ (document.getElementById(id));
      w.seen = [];
      el.addEventListener('blur', () => w.seen.push(el instanceof HTMLElement && 'value' in el ? el.value : el.textContent));
      const { attach } = await import('/www/widget.js');
      attach(el, { ime: w.henkanIme });
    }, id);
    await page.click(`#${id}`);
    await page.keyboard.type('kyou');
    await page.mouse.click(1000, 700);
    assert.deepEqual(await page.evaluate(() => /** @type {any} */ (window).seen), ['きょう']);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a caret inside the kana: ← Backspace deletes the stray letter, Home/End/Delete edit', async () => {
  const { page, errors } = await fields();
  await page.click('#ta');
  await page.keyboard.type('arigatougozaimsu');
  assert.equal(await visible(page, 'ta'), 'ありがとうございmす');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Backspace');
  assert.equal(await visible(page, 'ta'), 'ありがとうございす');
  await page.keyboard.type('ma');
  assert.equal(await visible(page, 'ta'), 'ありがとうございます');
  // the caret is drawn between ま and す
  const caret = await page.evaluate(() => {
    const c = /** @type {HTMLElement} */ (document.querySelector('.henkan-caret'));
    return { before: c.previousSibling?.textContent, after: c.nextSibling?.textContent };
  });
  assert.deepEqual(caret, { before: 'ありがとうございま', after: 'す' });
  ensureOutput();
  await page.screenshot({ path: 'tests/e2e/output/editing-caret.png', clip: { x: 0, y: 0, width: 500, height: 160 } });
  await page.keyboard.press('Home');
  await page.keyboard.press('Delete');
  assert.equal(await visible(page, 'ta'), 'りがとうございます');
  await page.keyboard.type('a');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  assert.equal(await valueOf(page, 'ta'), 'ありがとうございます');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'ta');
  assert.deepEqual(errors, []);
  await page.close();
});

test('MS-IME Ctrl keys while composing: Ctrl+I katakana, Ctrl+P full-width letters, Ctrl+M commits; the browser does nothing of its own with them', async () => {
  const { page, errors } = await fields();
  await page.click('#ta');
  await page.keyboard.type('nihon');
  await page.keyboard.press('Control+i');
  assert.equal((await lastOf(page, 'ta'))?.preedit.text, 'ニホン');
  await page.keyboard.press('Control+p');
  assert.equal((await lastOf(page, 'ta'))?.preedit.text, 'ｎｉｈｏｎ');
  await page.keyboard.press('Control+m');
  assert.equal(await valueOf(page, 'ta'), 'ｎｉｈｏｎ');
  // Ctrl+A while composing goes to its start (not the page's select-all).
  await page.keyboard.type('kana');
  await page.keyboard.press('Control+a');
  await page.keyboard.type('ka');
  await page.keyboard.press('Enter');
  assert.equal(await valueOf(page, 'ta'), 'ｎｉｈｏｎかかな');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Shift+letter types letters as they are until Space or Enter', async () => {
  const { page, errors } = await fields();
  await page.click('#in');
  await typeKeys(page, 'Google');
  assert.equal(await visible(page, 'in'), 'Google');
  await page.keyboard.press('Enter');
  assert.equal(await valueOf(page, 'in'), 'Google');
  await typeKeys(page, 'iPhone');
  assert.equal(await visible(page, 'in'), 'GoogleいPhone');
  await page.keyboard.press('Enter');
  await page.keyboard.type('wokaimashita');
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  assert.equal(await valueOf(page, 'in'), 'GoogleいPhoneを買いました');
  assert.deepEqual(errors, []);
  await page.close();
});

test('predictions after a commit never get in the way: a click under them moves the caret, Tab moves the focus', async () => {
  const { page, errors } = await fields();
  const lines = '\n二行目のテキスト\n三行目のテキスト\n四行目のテキスト';
  await place(page, 'ta', lines, 0);
  await page.keyboard.type('kyouhahare');
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  const value = await valueOf(page, 'ta');
  assert.match(value, /^今日は晴れ\n二行目/);
  const list = page.locator('.henkan-suggestions:visible');
  await list.waitFor({ state: 'visible' });
  // The list covers the lines below; a click on line 3 lands in the text, not on a prediction.
  const third = await page.evaluate(async () => {
    const { textFieldCaret } = await import('/www/caret.js');
    const el = /** @type {HTMLTextAreaElement} */ (document.getElementById('ta'));
    const c = textFieldCaret(el, el.value.indexOf('三行目') + 1);
    return { x: c.left + 2, y: c.top + c.height / 2 };
  });
  const box = await list.boundingBox();
  assert.ok(box && third.y > box.y && third.y < box.y + box.height, `the list covers line 3: ${JSON.stringify({ box, third })}`);
  ensureOutput();
  await page.screenshot({ path: 'tests/e2e/output/editing-predictions-over-text.png', clip: { x: 0, y: 0, width: 500, height: 200 } });
  await page.mouse.click(third.x, third.y);
  assert.equal(await valueOf(page, 'ta'), value, 'nothing was inserted');
  assert.equal(await list.count(), 0, 'the click dismissed the list');
  const caret = await page.evaluate(() => /** @type {HTMLTextAreaElement} */ (document.getElementById('ta')).selectionStart);
  const start = value.indexOf('三行目');
  assert.ok(caret >= start && caret <= start + 8, `the caret is on line 3: ${caret}`);

  // In an input, Tab after a commit moves the focus on as usual (to the field's IME badge, the
  // in-field button right after it, then the next field); ↓ would enter the list.
  await page.click('#in');
  await page.keyboard.type('yorosiku');
  await page.keyboard.press('Enter');
  await list.waitFor({ state: 'visible' });
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'henkan-indicator');
  assert.equal(await list.count(), 0, 'the list went with the focus');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'ce');
  assert.equal(await valueOf(page, 'in'), 'よろしく');
  assert.deepEqual(errors, []);
  await page.close();
});

test('keys typed while the dictionary loads are composed, and converted once it is in', async () => {
  const page = await env.browser.context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  /** @type {() => void} */
  let release = () => {};
  const held = new Promise((r) => (release = () => r(undefined)));
  // The model's response waits until the keys are typed.
  await page.route(`**/${path.basename(MODEL)}`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${env.server.url}www/test/blank.html`);
  await page.evaluate(async (model) => {
    const henkan = await import('/pkg/henkan.js');
    const { HenkanIme } = await import('/www/ime.js');
    const { attach } = await import('/www/widget.js');
    document.body.innerHTML = '<textarea id="ta" style="width: 400px; font: 20px sans-serif"></textarea>';
    const ime = new HenkanIme();
    /** @type {any} */ (window).ime = ime;
    attach(/** @type {HTMLElement} */ (document.getElementById('ta')), { ime });
    ime.load({ module: /** @type {any} */ (henkan), modelUrl: `/${model}` });
  }, MODEL);
  await page.waitForFunction(() => /** @type {any} */ (window).ime.composes);
  await page.click('#ta');
  await page.keyboard.type('kyouha');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).ime.status), 'loading');
  assert.equal(await visible(page, 'ta'), 'きょうは', 'kana from the first key');
  assert.equal(await page.textContent('.henkan-indicator'), 'あ…', 'the badge says the dictionary is still loading');
  release();
  await page.waitForFunction(() => /** @type {any} */ (window).ime.ready);
  await page.keyboard.press('Space');
  assert.equal(await visible(page, 'ta'), '今日は');
  await page.keyboard.press('Enter');
  assert.equal(await valueOf(page, 'ta'), '今日は');
  assert.equal(await page.textContent('.henkan-indicator'), 'あ');
  assert.deepEqual(errors, []);
  await page.close();
});

test('live conversion (the demo with ?live=1): the field shows the conversion as you type, Enter commits it', async () => {
  const page = await env.browser.context.newPage();
  await page.goto(`${demoUrl(env.server.url)}&live=1`);
  assert.equal(await waitForIme(page), 'ready');
  await page.click('#editor');
  await page.keyboard.type('kyouhaiitenkidesune');
  const shown = await page.evaluate(() => [...document.querySelectorAll('.henkan-preedit-runs')].map((e) => e.textContent).join(''));
  assert.equal(shown, '今日はいい天気ですね');
  assert.equal(await page.inputValue('#editor'), '');
  ensureOutput();
  await page.screenshot({ path: 'tests/e2e/output/editing-live.png', clip: { x: 0, y: 0, width: 800, height: 300 } });
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#editor'), '今日はいい天気ですね');
  await page.close();
});

/**
 * Where the visible mirror draws the third character before the preedit, and its line height.
 * @param {import('playwright-core').Page} page
 */
const mirrorGlyph = (page) =>
  page.evaluate(() => {
    const mirror = /** @type {HTMLElement} */ ([...document.querySelectorAll('.henkan-preedit')].find((m) => /** @type {HTMLElement} */ (m).style.display === 'block'));
    const before = /** @type {Text} */ ([...mirror.childNodes].find((n) => n.nodeType === Node.TEXT_NODE));
    const r = document.createRange();
    r.setStart(before, before.length - 3);
    r.setEnd(before, before.length - 2);
    const rect = r.getClientRects()[0];
    // Where it would be with the mirror scrolled as the field is: a preedit that starts a row of
    // its own scrolls the mirror on by that row, as typing would the field.
    const field = /** @type {HTMLElement} */ (document.getElementById('ta'));
    return { left: rect.left, top: rect.top + (mirror.scrollTop - field.scrollTop), lineHeight: parseFloat(getComputedStyle(mirror).lineHeight) };
  });

test('the mirror lines up with the field’s own text, in a long scrolled textarea and a wrapped paragraph', async () => {
  const { page, errors } = await fields();
  const para = '今日は晴れです。明日は雨らしい。'.repeat(12);
  const text = `${'一行目\n'.repeat(20)}${para}\n最後の行`;
  const caret = text.indexOf('最後') - 20; // inside the long paragraph's last lines
  await place(page, 'ta', text, caret);
  // Where the field draws the characters around the caret before the composition.
  const expected = await page.evaluate(
    async ([caret]) => {
      const { textFieldCaret } = await import('/www/caret.js');
      const el = /** @type {HTMLTextAreaElement} */ (document.getElementById('ta'));
      el.scrollTop = el.scrollHeight;
      el.setSelectionRange(Number(caret), Number(caret));
      const c = textFieldCaret(el, Number(caret) - 3);
      return { left: c.left, top: c.top };
    },
    [caret],
  );
  await page.keyboard.type('ka');
  const got = await mirrorGlyph(page);
  assert.ok(Math.abs(got.left - expected.left) < 1.5, `same column: ${JSON.stringify({ got, expected })}`);
  // textFieldCaret gives the line's top; the glyph sits within that line.
  assert.ok(got.top >= expected.top - 1 && got.top < expected.top + got.lineHeight, `same line: ${JSON.stringify({ got, expected })}`);
  ensureOutput();
  await page.screenshot({ path: 'tests/e2e/output/editing-long-text.png', clip: { x: 0, y: 0, width: 500, height: 160 } });
  await page.keyboard.press('Enter');
  assert.equal(await valueOf(page, 'ta'), text.slice(0, caret) + 'か' + text.slice(caret));
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Types `ka` and checks that the mirror draws the three characters before the preedit where the
 * field drew them (`expected`, from `textFieldCaret`), then commits.
 * @param {import('playwright-core').Page} page
 * @param {{left: number, top: number}} expected
 * @param {string} label
 */
async function typedAligned(page, expected, label) {
  await page.keyboard.type('ka');
  const got = await mirrorGlyph(page);
  assert.ok(Math.abs(got.left - expected.left) < 1.5, `${label}, same column: ${JSON.stringify({ got, expected })}`);
  assert.ok(got.top >= expected.top - 1 && got.top < expected.top + got.lineHeight, `${label}, same line: ${JSON.stringify({ got, expected })}`);
  await page.keyboard.press('Enter');
}

/**
 * Types `ka` at the caret of #ta and checks that the mirror draws the three characters before the
 * preedit where the field draws them (the field scrolled to its end first, as typing at the end
 * leaves it), then commits.
 * @param {import('playwright-core').Page} page
 * @param {string} label
 */
async function alignedAtEnd(page, label) {
  const expected = await page.evaluate(async () => {
    const { textFieldCaret } = await import('/www/caret.js');
    const el = /** @type {HTMLTextAreaElement} */ (document.getElementById('ta'));
    el.scrollTop = el.scrollHeight;
    const caret = /** @type {number} */ (el.selectionStart);
    const c = textFieldCaret(el, caret - 3);
    return { left: c.left, top: c.top };
  });
  await typedAligned(page, expected, label);
}

test('writing on at the end of a long text: every composition lines up, with the last cut kept or after the field or the text before changed', async () => {
  const { page, errors } = await fields();
  const para = '今日は晴れです。明日は雨らしい。'.repeat(40);
  const text = `${'一行目\n'.repeat(60)}${para}`;
  await place(page, 'ta', text, text.length);
  await alignedAtEnd(page, 'first');
  // The next compositions start from the first one's cut.
  await alignedAtEnd(page, 'second');
  await page.keyboard.type('kyouhaharedesu');
  await page.keyboard.press('Enter');
  await alignedAtEnd(page, 'after a commit');
  // Narrower: the rows move.
  await page.evaluate(() => {
    /** @type {HTMLElement} */ (document.getElementById('ta')).style.width = '333px';
  });
  await alignedAtEnd(page, 'narrowed');
  // A line break put in before the cut: the rows after it move.
  await page.evaluate(() => {
    const el = /** @type {HTMLTextAreaElement} */ (document.getElementById('ta'));
    const at = el.value.length - 200;
    el.value = `${el.value.slice(0, at)}あいう\n${el.value.slice(at)}`;
    el.setSelectionRange(el.value.length, el.value.length);
  });
  await alignedAtEnd(page, 'a line break put in before');
  const value = await valueOf(page, 'ta');
  assert.ok(value.endsWith('かかきょうははれですかかか'), value.slice(-30));
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Puts the caret of #ta (focused) after the first `needle` past `from` and checks that a
 * composition there draws the three characters before it where the field draws them, then
 * commits it.
 * @param {import('playwright-core').Page} page
 * @param {string} needle
 * @param {number} from
 * @param {string} label
 */
async function alignedAfter(page, needle, from, label) {
  const expected = await page.evaluate(
    async ([needle, from]) => {
      const { textFieldCaret } = await import('/www/caret.js');
      const el = /** @type {HTMLTextAreaElement} */ (document.getElementById('ta'));
      const caret = el.value.indexOf(String(needle), Number(from)) + String(needle).length;
      el.blur();
      el.focus();
      el.setSelectionRange(caret, caret);
      // The caret's line in view, a line below the field's top, as typing there would leave it.
      el.scrollTop += textFieldCaret(el, caret).top - el.getBoundingClientRect().top - 30;
      const c = textFieldCaret(el, caret - 3);
      return { left: c.left, top: c.top };
    },
    [needle, from],
  );
  await typedAligned(page, expected, label);
}

test('compositions above and below the last ones in a long text line up: the rows after line breaks kept, and carried over the edits', async () => {
  const { page, errors } = await fields();
  const para = '今日は晴れです。明日は雨らしい。'.repeat(6);
  const block = (/** @type {number} */ k) => `${`${k}の行\n`.repeat(30)}${k}段落${para}\n`;
  const text = [0, 1, 2, 3, 4, 5].map(block).join('');
  await place(page, 'ta', text, text.length);
  await alignedAfter(page, '5段落', 0, 'at the end');
  await alignedAfter(page, '1段落今日は', 0, 'above it');
  // A line break typed into the paragraph: the rows after it move down a line.
  await page.keyboard.press('Enter');
  await alignedAfter(page, '3段落今日は', 0, 'below the line break');
  await alignedAfter(page, '4の行', 0, 'further below');
  await alignedAfter(page, '2段落', 0, 'between the two');
  const value = await valueOf(page, 'ta');
  assert.equal(value.split('\n').length, text.split('\n').length + 1);
  for (const k of ['5段落か', '1段落今日はか\n', '3段落今日はか', '4の行か', '2段落か']) assert.ok(value.includes(k), k);
  assert.deepEqual(errors, []);
  await page.close();
});

/**
 * Puts `text` into #ta with the caret at its end, then gives the field the focus with its text in
 * and waits until the page is idle (when a long textarea is laid out ahead).
 * @param {import('playwright-core').Page} page
 * @param {string} text
 */
async function placeAndIdle(page, text) {
  await place(page, 'ta', text, text.length);
  await page.evaluate(async () => {
    const el = /** @type {HTMLTextAreaElement} */ (document.getElementById('ta'));
    el.blur();
    el.focus();
    await new Promise((r) => requestIdleCallback(r));
  });
}

test('a long textarea is laid out ahead while the page is idle: the first compositions line up, at its end and above', async () => {
  const { page, errors } = await fields();
  const para = '今日は晴れです。明日は雨らしい。'.repeat(20);
  const block = (/** @type {number} */ k) => `${`${k}の行\n`.repeat(10)}${k}段落${para}\n`;
  // 80 blocks of 10 short lines and a paragraph of 16 rows: 31,090 characters.
  const text = Array.from({ length: 80 }, (_, k) => block(k)).join('');
  await placeAndIdle(page, text);
  await alignedAfter(page, '79段落', 0, 'at the end');
  await alignedAfter(page, '3段落今日は', 0, 'far above');
  await alignedAfter(page, '50の行', 0, 'far below it');
  assert.deepEqual(errors, []);
  await page.close();
});

for (const id of ['ta', 'ce']) {
  test(`reconversion (${id}): selected text and 変換 offer its conversions again; Esc puts it back`, async () => {
    const { page, errors } = await fields();
    await place(page, id, '汽車で帰る。', 0, 5);
    // The 変換 key of a Japanese keyboard (Playwright's keyboard has no such key: the event the
    // browser sends for it).
    await page.evaluate((id) => {
      const el = /** @type {HTMLElement} */ (document.getElementById(id));
      el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Convert', code: 'Convert', bubbles: true, cancelable: true }));
    }, id);
    let out = await lastOf(page, id);
    assert.equal(out.state, 'converting');
    assert.equal(out.segments.map((/** @type {any} */ s) => s.reading).join(''), 'きしゃでかえる');
    assert.equal(await visible(page, id), `${out.preedit.text}。`, 'the preedit stands in place of the selection');
    // Cancel: the text is as it was.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    assert.equal(await valueOf(page, id), '汽車で帰る。');
    // Again with Ctrl+Shift+Space, pick another candidate of the first segment, commit.
    await place(page, id, '汽車で帰る。', 0, 2);
    await page.keyboard.press('Control+Shift+Space');
    const first = (await lastOf(page, id)).preedit.text;
    await page.keyboard.press('Space');
    out = await lastOf(page, id);
    const chosen = out.preedit.text;
    assert.equal(out.segments[0].reading, 'きしゃ');
    assert.notEqual(chosen, first, 'Space took the next candidate');
    await page.keyboard.press('Enter');
    assert.equal(await valueOf(page, id), `${chosen}で帰る。`);
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('reconversion shows the text as it was first (洗髪と先発, which the engine alone converts 洗髪と洗髪): 変換 then Enter changes nothing, Space on a segment takes the engine\'s choice', async () => {
  const { page, errors } = await fields();
  const text = '洗髪と先発';
  await place(page, 'ta', text, 0, text.length);
  await page.keyboard.press('Control+Shift+Space');
  let out = await lastOf(page, 'ta');
  assert.equal(out.state, 'converting');
  assert.equal(out.preedit.text, text);
  assert.equal(await visible(page, 'ta'), text);
  await page.keyboard.press('Enter');
  assert.equal(await valueOf(page, 'ta'), text, '変換 then Enter changes nothing');
  await place(page, 'ta', text, 0, text.length);
  await page.keyboard.press('Control+Shift+Space');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  out = await lastOf(page, 'ta');
  assert.equal(out.candidates.items[0], '先発', 'the text first in the window');
  assert.notEqual(out.preedit.text, text, 'Space took the engine\'s choice');
  const chosen = out.preedit.text;
  await page.keyboard.press('Enter');
  assert.equal(await valueOf(page, 'ta'), chosen);
  assert.deepEqual(errors, []);
  await page.close();
});

test('reconversion of decomposed text (NFD, as macOS file names are): a kana and its combining mark read as one kana', async () => {
  const { page, errors } = await fields();
  const decomposed = 'か\u3099っこうにいく';
  await place(page, 'ta', decomposed, 0, decomposed.length);
  await page.evaluate(() => {
    const el = /** @type {HTMLElement} */ (document.getElementById('ta'));
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Convert', code: 'Convert', bubbles: true, cancelable: true }));
  });
  const out = await lastOf(page, 'ta');
  assert.equal(out.state, 'converting');
  assert.equal(out.segments.map((/** @type {any} */ s) => s.reading).join(''), 'がっこうにいく');
  assert.equal(out.preedit.text, '学校に行く');
  await page.keyboard.press('Enter');
  assert.equal(await valueOf(page, 'ta'), '学校に行く');
  assert.deepEqual(errors, []);
  await page.close();
});

for (const id of ['ta', 'ce']) {
  test(`reconversion at the caret (${id}): 変換 with nothing selected takes the clause before the caret; Esc puts it back; Ctrl+Shift+Space types a space`, async () => {
    const { page, errors } = await fields();
    const convertKey = () =>
      page.evaluate((id) => {
        const el = /** @type {HTMLElement} */ (document.getElementById(id));
        el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Convert', code: 'Convert', bubbles: true, cancelable: true }));
      }, id);
    // the caret after 汽車で帰る, before 。: the clause back to the full stop before it
    await place(page, id, '家に着いた。汽車で帰る。', 11);
    await convertKey();
    let out = await lastOf(page, id);
    assert.equal(out.state, 'converting');
    assert.equal(out.segments.map((/** @type {any} */ s) => s.reading).join(''), 'きしゃでかえる');
    assert.equal(await visible(page, id), `家に着いた。${out.preedit.text}。`);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    assert.equal(await valueOf(page, id), '家に着いた。汽車で帰る。');
    // another candidate of the first segment
    await place(page, id, '家に着いた。汽車で帰る。', 11);
    await convertKey();
    const first = (await lastOf(page, id)).preedit.text;
    await page.keyboard.press('Space');
    out = await lastOf(page, id);
    assert.notEqual(out.preedit.text, first);
    await page.keyboard.press('Enter');
    assert.equal(await valueOf(page, id), `家に着いた。${out.preedit.text}。`);
    // a clause committed phrase by phrase, one segment resized: back as it was cut and spelled
    await place(page, id, '。', 1);
    /** @type {string[]} */
    const cut = [];
    for (const [romaji, resize] of [['kishanokishaga', true], ['kishadekaeru', false]]) {
      await page.keyboard.type(String(romaji));
      await page.keyboard.press('Space');
      if (resize) await page.keyboard.press('Shift+ArrowRight');
      cut.push(...(await lastOf(page, id)).segments.map((/** @type {any} */ s) => s.reading));
      await page.keyboard.press('Enter');
    }
    const written = await valueOf(page, id);
    await convertKey();
    out = await lastOf(page, id);
    assert.deepEqual(out.segments.map((/** @type {any} */ s) => s.reading), cut);
    assert.equal(`。${out.preedit.text}`, written);
    await page.keyboard.press('Enter');
    assert.equal(await valueOf(page, id), written);
    // after the full stop there is no clause: 変換 is the page's; Ctrl+Shift+Space an ideographic space
    await place(page, id, '帰る。', 3);
    await convertKey();
    assert.notEqual((await lastOf(page, id))?.state, 'converting');
    await page.keyboard.press('Control+Shift+Space');
    assert.equal(await valueOf(page, id), '帰る。\u3000');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('a long textarea of one paragraph: compositions far apart line up, laid out from rows after wraps, and after edits above and below', async () => {
  const { page, errors } = await fields();
  // One paragraph of 24,800 characters (no line break), with numbered places to type at, and a
  // short paragraph after it.
  const text = `${Array.from({ length: 400 }, (_, k) => `${k}番目。今日は晴れです。明日は雨らしい。外は寒い。家に帰ろう。あの山は高い。`).join('')}\n最後の行`;
  await placeAndIdle(page, text);
  await alignedAfter(page, '最後の', 0, 'in the last paragraph');
  await alignedAfter(page, '390番目。今日は', 0, 'near the end');
  await alignedAfter(page, '20番目。今日は', 0, 'far above');
  // An edit above: the rows after it in its paragraph go, the rows before it hold.
  await alignedAfter(page, '200番目。今日は', 0, 'below the first');
  await alignedAfter(page, '199番目。今日は', 0, 'just above the last');
  await alignedAfter(page, '5番目。今日は', 0, 'far above again');
  await alignedAfter(page, '350番目。', 0, 'far below');
  // Narrower: every row moves.
  await page.evaluate(() => {
    /** @type {HTMLElement} */ (document.getElementById('ta')).style.width = '333px';
  });
  await alignedAfter(page, '300番目。今日は', 0, 'narrowed');
  await alignedAfter(page, '100番目。今日は', 0, 'narrowed, above');
  const value = await valueOf(page, 'ta');
  for (const k of ['最後のか', '390番目。今日はか', '20番目。今日はか', '200番目。今日はか', '199番目。今日はか', '5番目。今日はか', '350番目。か', '300番目。今日はか', '100番目。今日はか']) assert.ok(value.includes(k), k);
  assert.equal(value.length, text.length + 9);
  assert.deepEqual(errors, []);
  await page.close();
});

test('emoji by reading: ねこ offers 🐱 after the words', async () => {
  const { page, errors } = await fields();
  await page.click('#ta');
  await page.keyboard.type('neko');
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  const items = await page.locator('.henkan-candidates:visible [role="option"]').allTextContents();
  let all = items.join(' ');
  // page through the candidate window until the emoji shows
  for (let i = 0; i < 5 && !all.includes('🐱'); i++) {
    await page.keyboard.press('PageDown');
    all = (await page.locator('.henkan-candidates:visible [role="option"]').allTextContents()).join(' ');
  }
  assert.match(all, /🐱/);
  const option = page.locator('.henkan-candidates:visible [role="option"]', { hasText: '🐱' }).first();
  await option.click();
  await page.keyboard.press('Enter');
  assert.match(await valueOf(page, 'ta'), /🐱/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a strict Content-Security-Policy (no inline style, wasm-unsafe-eval only): the widget works and is styled', async () => {
  const page = await env.browser.context.newPage();
  /** @type {string[]} */
  const violations = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
  });
  const html = `<!doctype html><html lang="ja"><head><meta charset="utf-8"></head><body>
    <textarea id="ta"></textarea>
    <script type="module" src="/tests/e2e/csp-page.mjs"></script></body></html>`;
  await page.route(/\/csp\.html/, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      headers: { 'content-security-policy': "default-src 'self'; style-src 'self'; script-src 'self' 'wasm-unsafe-eval'" },
      body: html,
    }),
  );
  await page.goto(`${env.server.url}csp.html?model=/${MODEL}`);
  // (waitForFunction evaluates strings the page's CSP forbids: poll instead)
  for (let i = 0; i < 600 && !(await page.evaluate(() => /** @type {any} */ (window).ime?.ready)); i++) await page.waitForTimeout(100);
  await page.click('#ta');
  await page.keyboard.type('kyouha');
  await page.keyboard.press('Space');
  const r = await page.evaluate(() => {
    const focused = document.querySelector('.henkan-preedit-runs .henkan-focused');
    return { text: focused?.textContent, underline: focused && getComputedStyle(focused).textDecorationLine, position: getComputedStyle(/** @type {Element} */ (document.querySelector('.henkan-layer'))).position };
  });
  assert.deepEqual(r, { text: '今日は', underline: 'underline', position: 'fixed' });
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue('#ta'), '今日は');
  assert.deepEqual(violations, []);
  await page.close();
});

test('a full composition: typing commits its head; with the caret at its start the key is refused, visibly', async () => {
  const { page, errors } = await fields();
  await page.click('#ta');
  // 300 あ: past the 256-character limit the converted head goes into the field.
  await page.keyboard.type('a'.repeat(300), { delay: 0 });
  const field = await page.$eval('#ta', (el) => /** @type {HTMLTextAreaElement} */ (el).value);
  assert.ok(field.length > 0, 'a head was committed');
  const composed = await page.$eval('.henkan-preedit-runs', (el) => el.textContent ?? '');
  assert.equal(field.length + composed.length, 300, 'no character lost');
  // Fill the composition up again, move to its start and type: refused, shown and said.
  await page.keyboard.type('a'.repeat(256 - composed.length), { delay: 0 });
  await page.keyboard.press('Home');
  const before = await page.$eval('.henkan-preedit-runs', (el) => el.textContent ?? '');
  assert.equal(before.length, 256);
  await page.keyboard.press('k');
  await page.keyboard.press('a');
  const after = await page.$eval('.henkan-preedit-runs', (el) => ({ text: el.textContent ?? '', refused: el.classList.contains('henkan-refused') }));
  assert.equal(after.text, before);
  assert.ok(after.refused, 'the preedit shows the refusal');
  const said = await page.$eval('[role=status]', (el) => el.textContent ?? '');
  assert.match(said, /上限/);
  assert.deepEqual(errors, []);
  await page.close();
});
