// Typing Japanese through the widget into rich-text editors whose editable element is the <body>
// of an iframe: TinyMCE 6 and CKEditor 4 (npm `tinymce`, `ckeditor4` 4.22.1, their own builds
// loaded from node_modules) and a plain frame with a contenteditable body. The widget's windows
// must stay out of the text the editor saves (its layer goes after the body, not into it), the
// preedit is drawn over the editor's text (its DOM untouched while composing), and the editor
// records the commit as a step of its own undo and marks itself changed. Screenshots go to
// tests/e2e/output/tinymce-*.png.
//
//   node --test tests/e2e/iframe-editors.test.mjs        (after `make wasm`)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { serverAndBrowser, ensureOutput, editorImePage } from './harness.mjs';

const env = serverAndBrowser();

/**
 * A blank page with TinyMCE's and CKEditor 4's builds loaded, `html` in its body, `setup` run (an async function
 * body, as text) and one `HenkanIme` on the shipped model (`window.ime`, `window.attach`).
 * @param {string} html
 * @param {string} setup
 */
async function imePage(html, setup) {
  const scripts = ['/node_modules/tinymce/tinymce.min.js', '/node_modules/ckeditor4/ckeditor.js'];
  const { page, errors, status } = await editorImePage(env.browser.context, env.server.url, { scripts, html, setup });
  assert.equal(status, 'ready');
  return { page, errors };
}

/**
 * TinyMCE's content as it saves it, and the overlay's text in its frame.
 * @param {import('playwright-core').Page} page
 */
function look(page) {
  return page.evaluate(() => {
    const w = /** @type {any} */ (window);
    const body = w.ed.getBody();
    const overlay = /** @type {HTMLElement | null} */ (body.ownerDocument.querySelector('.henkan-preedit-overlay'));
    const shown = overlay && overlay.style.display === 'block';
    return {
      content: /** @type {string} */ (w.ed.getContent()),
      overlay: shown ? (overlay.querySelector('.henkan-preedit-runs')?.textContent ?? '') : null,
      tail: shown ? (overlay.querySelector('.henkan-preedit-tail')?.textContent ?? '') : null,
      dirty: /** @type {boolean} */ (w.ed.isDirty()),
    };
  });
}

test('TinyMCE: the preedit over its text, the windows out of its content, the commit one step of its undo', async () => {
  const { page, errors } = await imePage(
    '<textarea id="tm">&lt;p&gt;前の&lt;strong&gt;太字&lt;/strong&gt;後ろ&lt;/p&gt;</textarea>',
    `await tinymce.init({ selector: '#tm', base_url: '/node_modules/tinymce', suffix: '.min', menubar: false, promotion: false, branding: false, width: 600, height: 240 });
     window.ed = tinymce.get('tm');`,
  );
  // The editor's body gets the widget as the extension gives it one: on focus.
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.attach(w.ed.getBody(), { ime: w.ime });
  });
  const frame = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(frame);
  await frame.click('body');
  await page.keyboard.press('End');
  const before = await look(page);
  assert.equal(before.content, '<p>前の<strong>太字</strong>後ろ</p>');
  assert.equal(before.dirty, false);
  await page.keyboard.type('kyouha');
  let now = await look(page);
  assert.equal(now.overlay, 'きょうは');
  assert.equal(now.content, before.content, 'nothing of the IME in the content while composing');
  await page.keyboard.press('Space');
  await page.screenshot({ path: path.join(ensureOutput(), 'tinymce-converting.png') });
  assert.equal((await look(page)).content, before.content, 'nor while converting (the candidate window is open)');
  await page.keyboard.press('Enter');
  now = await look(page);
  assert.equal(now.content, '<p>前の<strong>太字</strong>後ろ今日は</p>', 'the commit, and nothing else');
  assert.equal(now.dirty, true, 'the editor knows it changed');
  await page.keyboard.press('Escape');
  // Its own undo (Ctrl+Z, its shortcut) takes the commit back, its redo (Ctrl+Y) puts it back.
  await page.keyboard.press('Control+z');
  assert.equal((await look(page)).content, before.content);
  await page.keyboard.press('Control+y');
  assert.equal((await look(page)).content, '<p>前の<strong>太字</strong>後ろ今日は</p>');
  // A commit after that is a step of its own (TinyMCE joins a run of typing into one step: commits
  // typed in a row too, as typed words).
  await page.keyboard.type('tenki');
  await page.keyboard.press('Space');
  await page.keyboard.press('Enter');
  assert.equal((await look(page)).content, '<p>前の<strong>太字</strong>後ろ今日は天気</p>');
  await page.keyboard.press('Escape');
  await page.evaluate(() => /** @type {any} */ (window).ed.undoManager.undo());
  assert.equal((await look(page)).content, '<p>前の<strong>太字</strong>後ろ今日は</p>');
  await page.screenshot({ path: path.join(ensureOutput(), 'tinymce-undone.png') });
  // Inside the text, what follows the caret is drawn after the preedit, outside the content.
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.type('a');
  now = await look(page);
  assert.deepEqual([now.overlay, now.tail], ['あ', '太字後ろ今日は']);
  assert.equal(now.content, '<p>前の<strong>太字</strong>後ろ今日は</p>');
  await page.screenshot({ path: path.join(ensureOutput(), 'tinymce-inside.png') });
  await page.keyboard.press('Escape');
  assert.deepEqual(errors, []);
  await page.close();
});

test('CKEditor 4: the preedit over its text, the windows out of its data, the commit undone by its undo', async () => {
  const { page, errors } = await imePage(
    '<textarea id="ck">&lt;p&gt;前の&lt;strong&gt;太字&lt;/strong&gt;後ろ&lt;/p&gt;</textarea>',
    // (4.22.1 is the last release under an open-source licence; its check for newer ones is off.)
    `await new Promise((ok) => {
       window.ed = CKEDITOR.replace('ck', { versionCheck: false, width: 600, height: 200 });
       window.ed.on('instanceReady', ok);
     });`,
  );
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.attach(w.ed.editable().$, { ime: w.ime });
  });
  const frame = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(frame);
  await frame.click('body');
  await page.keyboard.press('End');
  /** Its data as it saves it, and the overlay's text in its frame. */
  const data = () =>
    page.evaluate(() => {
      const ed = /** @type {any} */ (window).ed;
      const overlay = /** @type {HTMLElement | null} */ (ed.editable().$.ownerDocument.querySelector('.henkan-preedit-overlay'));
      return { data: /** @type {string} */ (ed.getData()).trim(), overlay: overlay && overlay.style.display === 'block' ? overlay.textContent : null };
    });
  const before = '<p>前の<strong>太字</strong>後ろ</p>';
  assert.equal((await data()).data, before);
  await page.keyboard.type('kyouha');
  assert.deepEqual(await data(), { data: before, overlay: 'きょうは' }, 'nothing of the IME in its data while composing');
  await page.keyboard.press('Space');
  assert.equal((await data()).data, before, 'nor while converting');
  await page.keyboard.press('Enter');
  assert.deepEqual(await data(), { data: '<p>前の<strong>太字</strong>後ろ今日は</p>', overlay: null });
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).ed.checkDirty()), true);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+z');
  assert.equal((await data()).data, before, 'its undo (Ctrl+Z) takes the commit back');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a contenteditable <body> in an iframe: the windows are not in its text', async () => {
  const { page, errors } = await imePage(
    '<iframe id="fr" style="width: 500px; height: 160px"></iframe>',
    `const doc = document.getElementById('fr').contentDocument;
     doc.body.contentEditable = 'true';
     doc.body.textContent = '前の文';`,
  );
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    const body = /** @type {HTMLIFrameElement} */ (document.getElementById('fr')).contentDocument?.body;
    w.attach(body, { ime: w.ime });
  });
  const frame = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(frame);
  await frame.click('body');
  await page.keyboard.press('End');
  await page.keyboard.type('kyou');
  await page.keyboard.press('Space');
  const during = await frame.evaluate(() => ({ html: document.body.innerHTML, layer: document.querySelector('.henkan-layer')?.parentElement?.tagName }));
  assert.equal(during.layer, 'HTML', 'the layer is after the body');
  assert.doesNotMatch(during.html, /henkan-layer|henkan-candidates/);
  await page.keyboard.press('Enter');
  assert.equal(await frame.evaluate(() => document.body.innerHTML), '前の文今日');
  assert.deepEqual(errors, []);
  await page.close();
});
