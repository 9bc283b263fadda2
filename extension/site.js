// Per-site on/off, shared by the background of both browsers: `sites` in chrome.storage.local
// maps a host name to false (off) or true (on); a host not listed follows `settings.defaultOn`
// (on unless the options page says otherwise). Content scripts read it and follow its changes.

/**
 * @typedef {object} Settings what the options page sets (chrome.storage.local `settings`)
 * @property {boolean} [defaultOn] the IME on in sites not listed in `sites` (default true)
 * @property {string} [engine] '' (the default), 'classic', 'neural' or 'hybrid'
 * @property {boolean} [liveConversion]
 * @property {boolean} [predictions]
 * @property {'half' | 'full'} [digits]
 * @property {import('../www/types.js').Punctuation} [punctuation] what `,` and `.` type
 * @property {boolean} [kanaInput] kana input (かな入力): keys type the kana of a JIS keyboard
 * @property {string} [romajiTable] the user's romaji table (Mozc's format), checked when imported
 *   on the options page; absent: the built-in one
 * @property {'full' | 'half'} [space] what Space types outside a composition: the ideographic
 *   space (default) or the field's plain one
 * @property {boolean} [learning]
 * @property {'message' | 'runtime'} [channel] how a page's keys reach the engine: the
 *   `chrome.runtime` port (the default) or a MessagePort straight to the engine's document (where
 *   the browser offers it, set when the page first connects); not on the options page:
 *   `make measure-extension` compares the two
 * @property {'page' | 'extension'} [engineIn] where a page's keys are converted: by an engine in
 *   the page itself where its CSP lets wasm compile (the default, Chromium), or always by the
 *   extension's engine (`extension`: one engine for the browser, no wasm memory in the tabs); a
 *   checkbox of the options page
 */

/**
 * The site key of a URL: its host name (`file:` pages share one key), or null for pages where
 * the extension never types (the browser's own pages).
 * @param {string | undefined} url
 */
export function siteOf(url) {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (u.protocol === 'file:') return 'file:';
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname : null;
  } catch {
    return null;
  }
}

/**
 * Whether the IME is on for a site.
 * @param {Record<string, boolean> | undefined} sites
 * @param {Settings | undefined} settings
 * @param {string} site
 */
export function siteOn(sites, settings, site) {
  return sites?.[site] ?? settings?.defaultOn ?? true;
}

/**
 * Turns the IME on or off for a tab's site (the toolbar button, the shortcut): the tab's top
 * frame flips its own site (content/main.js), so no tab URL is needed; a tab without the content
 * script (the browser's own pages) is left as it is.
 * @param {chrome.tabs.Tab} tab
 */
export async function toggleSite(tab) {
  if (tab.id === undefined) return;
  const on = await chrome.tabs.sendMessage(tab.id, { type: 'toggle-site' }, { frameId: 0 }).catch(() => null);
  if (typeof on === 'boolean') await setBadge(tab.id, on);
}

/**
 * The badge of a tab: あ on, A off.
 * @param {number} tabId
 * @param {boolean} on
 */
export async function setBadge(tabId, on) {
  await chrome.action.setBadgeText({ tabId, text: on ? 'あ' : 'A' });
  await chrome.action.setBadgeBackgroundColor({ tabId, color: on ? '#1f5fd6' : '#777' });
  await chrome.action.setTitle({ tabId, title: on ? 'henkan: on for this site (click to turn off)' : 'henkan: off for this site (click to turn on)' });
}
