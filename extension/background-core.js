// What the background does in both browsers: the toolbar button and the `toggle-site` shortcut
// turn the IME on or off for the current tab's site (site.js); the badge shows あ (on) or A
// (off); a page's `engine` message starts the engine (`ensureEngine`, per browser) and is
// answered when it runs; the offscreen document's storage requests are served; the lists' frame
// of a field in a cross-origin frame reaches that field.

import { toggleSite, setBadge } from './site.js';

/**
 * Wires the background's listeners.
 * @param {() => Promise<void>} ensureEngine
 */
export function serveBackground(ensureEngine) {
  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    // Only the extension's own pages (the offscreen document, the options page) reach the
    // storage and the toggle this way; content scripts have chrome.storage themselves.
    const fromExtension = sender.id === chrome.runtime.id && !!sender.url?.startsWith(chrome.runtime.getURL(''));
    switch (msg?.type) {
      case 'engine':
        ensureEngine().then(() => sendResponse(true), (e) => sendResponse({ error: String(e) }));
        return true;
      case 'storage-get':
        if (!fromExtension) return false;
        chrome.storage.local.get(msg.key).then((items) => sendResponse(items[msg.key]));
        return true;
      case 'storage-set':
        if (!fromExtension) return false;
        chrome.storage.local.set({ [msg.key]: msg.value }).then(() => sendResponse(true));
        return true;
      case 'henkan-outer-ready':
      case 'henkan-outer-pick':
        // The lists' frame (windows.js, over a page) answers a field in a frame of its tab
        // (content/outer.js): it is placed (to every frame: the field's knows its id; with the
        // lists' frame's id, where the lists go), or an option was clicked (to the field's frame).
        if (!fromExtension || sender.tab?.id === undefined || typeof msg.id !== 'string') return false;
        chrome.tabs
          .sendMessage(
            sender.tab.id,
            { type: msg.type, id: msg.id, index: msg.index, frameId: sender.frameId },
            Number.isInteger(msg.frameId) ? { frameId: msg.frameId } : undefined,
          )
          .catch(() => {});
        return false;
      case 'henkan-outer-show':
      case 'henkan-outer-hide':
        // A field's lists, from its frame's content script to the lists' frame `to` of the same
        // tab, with the field's frame (where clicks go back): a content script reaches an
        // extension frame in a page only this way in Firefox (`direct`: sent straight to that
        // frame, Chromium's way). Answered with the frame's answer.
        if (msg.direct || sender.tab?.id === undefined || !Number.isInteger(msg.to)) return false;
        chrome.tabs.sendMessage(sender.tab.id, { ...msg, from: sender.frameId }, { frameId: msg.to }).then(
          (ok) => sendResponse(ok === true),
          () => sendResponse(false),
        );
        return true;
      case 'badge':
        if (sender.tab?.id !== undefined && sender.frameId === 0) setBadge(sender.tab.id, !!msg.on);
        return false;
      case 'toggle-site':
        // The tests' way to press the toolbar button (commands cannot be triggered from a page).
        if (!fromExtension) return false;
        chrome.tabs.get(msg.tabId).then(toggleSite).then(() => sendResponse(true));
        return true;
      default:
        return false;
    }
  });
  // The engine's document has no chrome.storage: it hears of another engine's learning here
  // (learning-sync.js). No extension page listening is no error.
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes.learning) {
      chrome.runtime.sendMessage({ type: 'storage-changed', key: 'learning', value: changes.learning.newValue ?? null }).catch(() => {});
    }
  });
  chrome.action.onClicked.addListener((tab) => toggleSite(tab));
  chrome.commands.onCommand.addListener((command, tab) => {
    if (command === 'toggle-site' && tab) toggleSite(tab);
  });
}
