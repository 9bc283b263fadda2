// Typing Japanese through the widget into rich-text editors whose editable element is the <body>
// of an iframe: TinyMCE 6 and CKEditor 4 (npm `tinymce`, `ckeditor4` 4.22.1, their own builds
// loaded from node_modules) and a plain frame with a contenteditable body. The widget's layer
// must stay out of the text the editor saves (it goes after the body, not into it), the candidate
// window and the suggestions are drawn in the page around the frame (not clipped by it), the
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

/**
 * A page with a TinyMCE editor (`window.ed`, 600 × 240, its text `前の<strong>太字</strong>後ろ`)
 * after `before`, its body given the widget as the extension gives it one (on focus), and focused.
 * @param {string} [before] the page's HTML before the editor
 */
async function tinymcePage(before = '') {
  const { page, errors } = await imePage(
    `${before}<textarea id="tm">&lt;p&gt;前の&lt;strong&gt;太字&lt;/strong&gt;後ろ&lt;/p&gt;</textarea>`,
    `await tinymce.init({ selector: '#tm', base_url: '/node_modules/tinymce', suffix: '.min', menubar: false, promotion: false, branding: false, width: 600, height: 240 });
     window.ed = tinymce.get('tm');`,
  );
  await page.evaluate(() => {
    const w = /** @type {any} */ (window);
    w.attach(w.ed.getBody(), { ime: w.ime });
  });
  const frame = page.frames().find((f) => f !== page.mainFrame());
  assert.ok(frame);
  await frame.click('body');
  return { page, errors, frame };
}

test('TinyMCE: the preedit over its text, the windows out of its content, the commit one step of its undo', async () => {
  const { page, errors } = await tinymcePage();
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

test('a contenteditable <body> in an iframe: the windows are not in its text; in a frame drawn larger, under the preedit', async () => {
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
  // The frame drawn 1.5 times larger, with a border and padding: the candidate window, in the
  // page, is still under the focused segment as the page draws it.
  await page.evaluate(() => {
    const style = /** @type {HTMLElement} */ (document.getElementById('fr')).style;
    Object.assign(style, { transform: 'scale(1.5)', transformOrigin: '0 0', border: '3px solid #888', padding: '5px', margin: '20px' });
  });
  await page.keyboard.type('kyou');
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  await page.locator('.henkan-candidates').waitFor({ state: 'visible' });
  const at = await page.evaluate(() => {
    const fr = /** @type {HTMLIFrameElement} */ (document.getElementById('fr'));
    const seg = /** @type {HTMLElement} */ (fr.contentDocument?.querySelector('.henkan-preedit-runs .henkan-focused'));
    const f = fr.getBoundingClientRect();
    const s = seg.getBoundingClientRect();
    const l = /** @type {HTMLElement} */ (document.querySelector('.henkan-candidates')).getBoundingClientRect();
    // the frame's content box: inside 3 px of border and 5 px of padding, drawn 1.5 times larger
    return { left: f.left + 1.5 * (8 + s.left), bottom: f.top + 1.5 * (8 + s.bottom), list: { left: l.left, top: l.top } };
  });
  assert.ok(Math.abs(at.list.left - at.left) <= 2 && Math.abs(at.list.top - at.bottom) <= 6, JSON.stringify(at));
  await page.screenshot({ path: path.join(ensureOutput(), 'iframe-scaled-candidates.png') });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  assert.deepEqual(errors, []);
  await page.close();
});

test('TinyMCE: the windows are drawn in the page around its frame, not clipped by it; the preedit on a new empty line', async () => {
  const { page, errors, frame } = await tinymcePage('<p>above</p>');
  await page.keyboard.press('End');
  // Three new paragraphs: the caret in an empty one (its <p> holds a <br> alone).
  for (let i = 0; i < 3; i++) await page.keyboard.press('Enter');
  await page.keyboard.type('kyouha');
  // The preedit on the caret's empty paragraph, not at the end of the text before it.
  const place = await frame.evaluate(() => {
    const runs = /** @type {HTMLElement} */ (document.querySelector('.henkan-preedit-runs'));
    const p = /** @type {HTMLElement} */ ([...document.body.querySelectorAll('p')].at(-1));
    return { runs: runs.getBoundingClientRect().toJSON(), p: p.getBoundingClientRect().toJSON(), paragraphs: document.body.querySelectorAll('p').length };
  });
  assert.equal(place.paragraphs, 4);
  assert.ok(Math.abs(place.runs.left - place.p.left) <= 2 && Math.abs(place.runs.top - place.p.top) <= 4, JSON.stringify(place));
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  // The candidate window is the page's, under the preedit and past the frame's bottom edge (it
  // would be clipped in the frame), and the frame does not scroll for it.
  const iframe = await page.locator('iframe').boundingBox();
  assert.ok(iframe);
  const list = page.locator('.henkan-candidates');
  await list.waitFor({ state: 'visible' });
  const box = await list.boundingBox();
  assert.ok(box);
  assert.equal(await list.locator('li[role="option"]').count(), 9);
  assert.ok(Math.abs(box.y - (iframe.y + place.runs.bottom)) <= 6, `${box.y} under the preedit at ${iframe.y + place.runs.bottom}`);
  assert.ok(box.y + box.height > iframe.y + iframe.height, 'past the frame');
  assert.ok(Math.abs(box.x - (iframe.x + place.runs.left)) <= 2);
  assert.equal(await frame.evaluate(() => document.querySelectorAll('.henkan-candidates, .henkan-suggestions').length), 0, 'none in the frame');
  await page.screenshot({ path: path.join(ensureOutput(), 'tinymce-candidates-outside.png') });
  // The live region in the frame says the focused candidate (the field's ARIA cannot point into
  // another document).
  assert.match(await frame.evaluate(() => document.querySelector('[role="status"]')?.textContent ?? ''), /^\S+ 2\/\d+$/);
  assert.equal(await frame.evaluate(() => document.body.getAttribute('aria-activedescendant')), null);
  // A click on a candidate of the page's window picks it, the focus stays in the editor.
  await list.locator('li[role="option"]').first().click();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => /** @type {any} */ (window).ed.getContent()), '<p>前の<strong>太字</strong>後ろ</p>\n<p>&nbsp;</p>\n<p>&nbsp;</p>\n<p>今日は</p>');
  // The page scrolls: the suggestions after a commit move with the frame.
  await page.evaluate(() => {
    document.body.style.height = '3000px';
    window.scrollTo(0, 40);
  });
  await page.keyboard.type('shinkans');
  const sugg = page.locator('.henkan-suggestions');
  await sugg.waitFor({ state: 'visible' });
  const moved = await page.locator('iframe').boundingBox();
  const runs = await frame.evaluate(() => document.querySelector('.henkan-preedit-runs')?.getBoundingClientRect().toJSON());
  const at = await sugg.boundingBox();
  assert.ok(moved && at && runs);
  assert.equal(moved.y, iframe.y - 40);
  assert.ok(Math.abs(at.y - (moved.y + runs.bottom)) <= 6, `${at.y} under the preedit at ${moved.y + runs.bottom}`);
  await page.keyboard.press('Tab');
  await sugg.locator('li[aria-selected="true"]').click();
  assert.match(await page.evaluate(() => /** @type {any} */ (window).ed.getContent()), /<p>今日は新幹線<\/p>$/);
  // The page removes the editor's frame while composing: its windows go with it.
  await page.keyboard.type('kyou');
  await page.keyboard.press('Space');
  await page.keyboard.press('Space');
  await list.waitFor({ state: 'visible' });
  await page.evaluate(() => document.querySelector('iframe')?.remove());
  assert.equal(await page.locator('.henkan-candidates, .henkan-suggestions').count(), 0);
  assert.equal(await page.locator('.henkan-layer').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('TinyMCE: in a centred paragraph (its JustifyCenter), the preedit is drawn where its commit lands, the line laid out again around it', async () => {
  const { page, errors } = await tinymcePage();
  await page.evaluate(() => /** @type {any} */ (window).ed.execCommand('JustifyCenter'));
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type('kyouhaiitenki');
  await page.keyboard.press('Space');
  /** Boxes in the frame's viewport: the preedit's (while converting), or the text `needle`'s. */
  const boxes = (/** @type {string | null} */ needle) =>
    page.evaluate((needle) => {
      const body = /** @type {any} */ (window).ed.getBody();
      const doc = /** @type {Document} */ (body.ownerDocument);
      const box = (/** @type {DOMRect} */ r) => ({ left: r.left, right: r.right, top: r.top });
      if (!needle) return box(/** @type {HTMLElement} */ (doc.querySelector('.henkan-preedit-runs')).getBoundingClientRect());
      const walker = doc.createTreeWalker(body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const at = /** @type {Text} */ (n).data.indexOf(needle);
        if (at < 0) continue;
        const range = doc.createRange();
        range.setStart(n, at);
        range.setEnd(n, at + needle.length);
        return box(range.getBoundingClientRect());
      }
      return null;
    }, needle);
  const drawn = await boxes(null);
  await page.screenshot({ path: path.join(ensureOutput(), 'tinymce-centred.png') });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /** @type {any} */ (window).ed.getContent().includes('今日'), null, { timeout: 2000 }).catch(() => {});
  assert.equal((await look(page)).content, '<p style="text-align: center;">前の<strong>太字</strong>後今日はいい天気ろ</p>');
  const landed = await boxes('今日はいい天気');
  assert.ok(landed && Math.abs(drawn.left - landed.left) <= 2 && Math.abs(drawn.right - landed.right) <= 2 && Math.abs(drawn.top - landed.top) <= 2, `the preedit ${JSON.stringify(drawn)}, the commit ${JSON.stringify(landed)}`);
  assert.deepEqual(errors, []);
  await page.close();
});
