// The extension's frame that a page's content script adds for a moment (hidden) to hand its key
// channel, a MessagePort, to the engine: a content script cannot give a transferable to the
// service worker or to the offscreen document, this frame can (through the service worker,
// background.js). The port travels with the token the engine gave the content script over its
// runtime port; the engine serves the port only for that token (engine.js), so a page that posts
// its own port here gets nothing. The content script removes the frame when the port is served.

window.addEventListener('message', (e) => {
  if (e.source !== window.parent || e.data?.type !== 'channel' || typeof e.data.token !== 'string' || !e.ports[0]) return;
  const port = e.ports[0];
  const token = e.data.token;
  navigator.serviceWorker.ready.then(
    (reg) => reg.active?.postMessage({ type: 'channel', token }, [port]),
    () => port.close(),
  );
});
