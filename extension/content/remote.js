// The page's side of the extension's engine: `RemoteIme` stands where the widget expects a
// `HenkanIme` (status, events), and `RemoteKeyHandler` is the widget's `KeyHandler` with every
// wasm call sent over a `chrome.runtime` port to the engine (extension/engine.js) instead.
//
// A keydown handler must decide at once whether the key is the IME's (preventDefault), but the
// engine's answer arrives later: predict.js decides from the state the page last heard of. Answers
// come back in the order the keys were sent (one port, FIFO); each is applied as the widget
// applies a wasm output. A key predicted to be consumed that the engine refused (possible only
// while an earlier key was in flight) is replayed where a replay is meaningful (Backspace,
// Delete, Enter, text); `mispredicted` counts them all.
//
// The key channel, where the engine offers one (Chromium, engine.js) and the page asks for it
// (`channel` option): requests go over a MessagePort straight to the engine's document instead of
// the runtime port (which travels through the browser process); the runtime port stays for the
// engine's status and its end. The port is handed over by a hidden extension frame
// (channel.html) added for the handshake only. Requests move from one channel to the other only
// when none is unanswered, so they are served in the order they were sent. Measured slower than
// the runtime port in Chromium 156 (docs/extension.md), so the content script asks for it only
// when the settings say so.

import { KeyHandler, selectedText } from '../../www/widget/keys.js';
import { isFocused } from '../../www/widget/root.js';
import { isOffered } from '../../www/widget/commit.js';
import { keyUnits, modsOf } from '../../www/keymap.js';
import { predictKey, predictedOf } from './predict.js';

/** @typedef {import('../../www/types.js').ImeOutput} ImeOutput */
/** @typedef {import('./predict.js').Predicted} Predicted */

/**
 * What goes to the engine: an operation on a session (numbered by the page) or on the engine.
 * @typedef {{op: string, session?: number, [arg: string]: unknown}} Request
 */

/** The name of the engine's port (extension/engine.js listens for it). */
export const PORT_NAME = 'henkan-engine';

/**
 * The engine as the widget sees it: `status` (idle → loading → ready | error) and `composes`
 * mirror the engine's, events `status` and `lm` follow it. One per frame, shared by its fields;
 * it connects on the first `connect()` (a field got the focus), so a page nobody types in opens
 * no port and starts no engine.
 */
export class RemoteIme {
  /**
   * The events (`status`, `lm`) go through an EventTarget of its own: a class that extends
   * EventTarget loses its methods in Firefox's content scripts (its instances are the page's
   * EventTargets, seen through Xray wrappers), and the widget could not attach.
   */
  #events = new EventTarget();

  /**
   * @param {string} type
   * @param {EventListenerOrEventListenerObject | null} listener
   * @param {boolean | AddEventListenerOptions} [options]
   */
  addEventListener(type, listener, options) {
    this.#events.addEventListener(type, listener, options);
  }

  /**
   * @param {string} type
   * @param {EventListenerOrEventListenerObject | null} listener
   * @param {boolean | EventListenerOptions} [options]
   */
  removeEventListener(type, listener, options) {
    this.#events.removeEventListener(type, listener, options);
  }

  /** @param {Event} event */
  dispatchEvent(event) {
    return this.#events.dispatchEvent(event);
  }

  /**
   * @param {{channel?: () => boolean}} [options] `channel`: whether keys should take the key
   *   channel when there is one (asked at each request; the default, no channel, suits the
   *   extension's own pages)
   */
  constructor({ channel } = {}) {
    this.wantsChannel = channel ?? (() => false);
    /** @type {boolean | null} kana input as a field's Alt+カタカナひらがな left it (as `HenkanIme`'s) */
    this.kanaInput = null;
    /** @type {MessagePort | null} the key channel, once the engine serves it */
    this.channel = null;
    /** Whether the unanswered requests went over the key channel. */
    this.onChannel = false;
    /** @type {'idle' | 'loading' | 'ready' | 'error'} */
    this.status = 'idle';
    this.error = '';
    /** @type {'pending' | 'ready' | 'failed' | 'absent'} */
    this.lm = 'pending';
    /** Whether the engine's wasm module runs (keys compose). */
    this.engineComposes = false;
    /** Counts the connections: sessions opened on an earlier one are gone. */
    this.epoch = 0;
    /** Keys whose prediction the engine contradicted. */
    this.mispredicted = 0;
    /** Ports in a row that closed before the engine answered (connect tries again, up to 3). */
    this.refused = 0;
    /** @type {chrome.runtime.Port | null} */
    this.port = null;
    /** @type {Map<number, {resolve: (out: any) => void, reject: (e: Error) => void}>} */
    this.pending = new Map();
    this.nextId = 0;
    this.nextSession = 0;
    /** A stand-in for the wasm handle: the base KeyHandler checks that one exists. */
    this.handle = {};
  }

  get ready() {
    return this.status === 'ready';
  }

  get composes() {
    return this.engineComposes && this.status !== 'error';
  }

  /** Asks the background for the engine (it starts the offscreen document), then connects. */
  async connect() {
    if (this.port || this.status === 'loading') return;
    this.status = 'loading';
    this.dispatchEvent(new Event('status'));
    try {
      await chrome.runtime.sendMessage({ type: 'engine' });
    } catch (e) {
      this.#fail(`the extension's engine did not start: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    const port = chrome.runtime.connect({ name: PORT_NAME });
    this.port = port;
    this.epoch++;
    /** Whether the engine answered on this port (a port refused at once was opened too early). */
    let heard = false;
    port.onMessage.addListener((/** @type {any} */ msg) => {
      heard = true;
      this.refused = 0;
      if (msg.type === 'status') {
        this.engineComposes = msg.composes;
        this.error = msg.error;
        const lmChanged = msg.lm !== this.lm;
        this.lm = msg.lm;
        this.status = msg.status === 'idle' ? 'loading' : msg.status;
        this.dispatchEvent(new Event('status'));
        if (lmChanged) this.dispatchEvent(new Event('lm'));
        return;
      }
      if (msg.type === 'channel') {
        if (this.wantsChannel()) this.#openChannel(port, msg.token);
        return;
      }
      this.#answered(msg);
    });
    port.onDisconnect.addListener(() => {
      // The engine went away (the extension was reloaded or its document closed): the next
      // focus connects again, with new sessions.
      this.port = null;
      this.channel?.close();
      this.channel = null;
      this.onChannel = false;
      this.engineComposes = false;
      this.status = 'idle';
      for (const waiter of this.pending.values()) waiter.reject(new Error('the engine went away'));
      this.pending.clear();
      this.dispatchEvent(new Event('status'));
      // A port closed before the engine said anything: its document had not begun listening yet
      // (it had just been created). Connect again, a few times, a little later each time.
      if (!heard && this.refused < 3) {
        this.refused++;
        setTimeout(() => this.connect(), 100 * this.refused);
      }
    });
  }

  /** @param {any} msg an answer */
  #answered(msg) {
    const waiter = this.pending.get(msg.id);
    if (!waiter) return;
    this.pending.delete(msg.id);
    if ('error' in msg) waiter.reject(new Error(msg.error));
    else waiter.resolve(msg.out);
  }

  /**
   * Hands a MessagePort with the engine's token to the extension's frame, which passes it on to
   * the engine; keeps it as the key channel once the engine says it serves it. Without an answer
   * in 5 s (the frame refused by the page, no engine document) the runtime port stays the only one.
   * @param {chrome.runtime.Port} port the runtime port the token came on
   * @param {string} token
   */
  #openChannel(port, token) {
    const doc = document;
    const frame = doc.createElement('iframe');
    frame.src = chrome.runtime.getURL('channel.html');
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.style.cssText = 'display:none !important';
    const { port1, port2 } = new MessageChannel();
    const done = () => {
      clearTimeout(timer);
      frame.remove();
    };
    const timer = setTimeout(() => {
      done();
      port1.close();
    }, 5000);
    port1.onmessage = (e) => {
      if (e.data?.type === 'channel-ready') {
        done();
        if (this.port === port) this.channel = port1;
        else port1.close();
        return;
      }
      this.#answered(e.data);
    };
    frame.addEventListener('load', () => frame.contentWindow?.postMessage({ type: 'channel', token }, new URL(frame.src).origin, [port2]), { once: true });
    (doc.body ?? doc.documentElement).append(frame);
  }

  /**
   * Where the next request goes: the key channel when there is one and it is wanted, the runtime
   * port otherwise; the same as the unanswered requests while there are any.
   * @param {chrome.runtime.Port} port
   * @returns {{postMessage(msg: unknown): void}}
   */
  #route(port) {
    if (this.pending.size === 0) this.onChannel = !!this.channel && this.wantsChannel();
    return this.onChannel && this.channel ? this.channel : port;
  }

  /**
   * Sends a request; resolves with the engine's answer.
   * @param {Request} req
   * @returns {Promise<any>}
   */
  request(req) {
    const port = this.port;
    if (!port) return Promise.reject(new Error('not connected'));
    const id = ++this.nextId;
    const to = this.#route(port);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      to.postMessage({ ...req, id });
    });
  }

  /**
   * Sends a request whose answer nobody waits for (answered all the same: a request is known to
   * be served once no answer is outstanding, which the choice of channel relies on).
   * @param {Request} req
   */
  post(req) {
    if (this.port) this.request(req).catch(() => {});
  }

  /** A new session number (the engine opens the session at its `open` request). */
  newSession() {
    return ++this.nextSession;
  }

  /** The engine saves what is learned itself. */
  learned() {}

  /** @param {unknown} e */
  fail(e) {
    this.#fail(`the input method stopped: ${e instanceof Error ? e.message : String(e)}`);
  }

  /** @param {string} message */
  #fail(message) {
    this.error = message;
    this.status = 'error';
    this.dispatchEvent(new Event('status'));
  }

  /** @param {() => void} _detach */
  fieldAttached(_detach) {}

  /** @param {() => void} _detach */
  fieldDetached(_detach) {}
}

/**
 * The key handler of one field, over the engine's port.
 */
export class RemoteKeyHandler extends KeyHandler {
  /**
   * @param {HTMLElement} el
   * @param {import('../../www/widget.js').AttachOptions} options
   * @param {import('../../www/widget/commit.js').Committer} commit
   * @param {() => void} render
   */
  constructor(el, options, commit, render) {
    super(el, options, commit, render);
    this.remote = /** @type {RemoteIme} */ (/** @type {unknown} */ (options.ime));
    /** The connection the session was opened on. */
    this.epoch = -1;
    /** @type {Predicted} */
    this.predicted = { on: this.enabled, composing: false, listed: false };
    /** Requests sent whose answer has not come back. */
    this.inflight = 0;
  }

  /** Opens the session on the current connection (again after a reconnection). */
  open() {
    const { remote, options } = this;
    if (!remote.port) return null;
    if (this.session === null || this.epoch !== remote.epoch) {
      this.session = remote.newSession();
      this.epoch = remote.epoch;
      this.last = null;
      this.predicted = { on: this.enabled, composing: false, listed: false };
      remote.post({
        op: 'open',
        session: this.session,
        live: options.live ?? false,
        liveConversion: !!options.liveConversion,
        digits: options.digits ?? 'half',
        punctuation: options.punctuation,
        predictions: options.predictions !== false,
        learning: options.learning !== false,
        enabled: this.enabled,
        katakana: this.katakana,
        kanaInput: !!options.kanaInput,
        space: options.space ?? 'full',
        romajiTable: options.romajiTable,
      });
    }
    return this.session;
  }

  /**
   * Sends a request and applies its output in order; null when it failed.
   * @param {Request} req
   * @param {(out: ImeOutput) => void} [then]
   */
  send(req, then) {
    this.inflight++;
    this.remote.request(req).then(
      (out) => {
        this.inflight--;
        if (out) then ? then(out) : this.apply(out, !isFocused(this.el));
        if (this.inflight === 0 && this.last) this.predicted = predictedOf(this.last);
      },
      (e) => {
        this.inflight--;
        if (this.remote.port) this.remote.fail(e);
        this.rescue();
      },
    );
  }

  /**
   * A key to the engine: whether the IME takes it is predicted now (the keydown must decide),
   * its output applied when it comes back.
   * @param {KeyboardEvent} e
   * @param {number} s the session
   */
  sendKey(e, s) {
    const { remote } = this;
    const mods = modsOf(e);
    const key = this.keyOf(e);
    const units = keyUnits(key);
    const p = predictKey(this.predicted, units[0], mods, this.options.space === 'half');
    this.predicted = p.next;
    if (p.consumed) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
    const t0 = performance.now();
    const kanaInput = this.followsKanaInput() ? this.kanaInput : undefined;
    this.send({ op: 'key', session: s, units, mods, code: e.code || undefined, kanaInput }, (out) => {
      if (out.consumed !== p.consumed) {
        remote.mispredicted++;
        if (p.consumed) this.replay(key, out);
      }
      this.keyOutput(out, key, t0, performance.now());
    });
  }

  /** Not while a key is in flight: the selection may be about to change. */
  mayReconvert() {
    return super.mayReconvert() && this.inflight === 0;
  }

  /**
   * Reconversion of the selection; returns whether it was taken (the engine's answer is applied
   * when it comes; `refused` is called if it refuses).
   * @param {KeyboardEvent} e
   * @param {number} s
   * @param {() => void} [refused]
   */
  reconvert(e, s, refused) {
    const sel = selectedText(this.el);
    if (!sel || sel.length > 100) return false;
    e.preventDefault();
    e.stopImmediatePropagation();
    this.predicted = { on: true, composing: null, listed: false };
    const t0 = performance.now();
    this.send({ op: 'reconvert', session: s, text: sel }, (out) => {
      if (!out.consumed) {
        refused?.();
        return;
      }
      this.reconverted = sel;
      this.keyOutput(out, e.key, t0, performance.now());
    });
    return true;
  }

  /**
   * The native action of a key that was held back for the IME but that the engine refused.
   * @param {string} key
   * @param {ImeOutput} out
   */
  replay(key, out) {
    const doc = this.el.ownerDocument;
    if (!isFocused(this.el)) return;
    if (out.committed) {
      this.commit.insert(out.committed, false);
      out = { ...out, committed: '' };
    }
    if (key === 'Backspace') doc.execCommand('delete');
    else if (key === 'Delete') doc.execCommand('forwardDelete');
    else if (key === 'Enter' && this.el.tagName !== 'INPUT') doc.execCommand('insertLineBreak');
    else if ([...key].length === 1) doc.execCommand('insertText', false, key);
  }

  /**
   * The engine's catch-up over the port (scheduled as the widget's, `scheduleCatchUp`: while
   * composing, and after a resize, whose rest the LM converts then); its answer is applied unless
   * another key went out meanwhile (that key leaves its own).
   * @param {number} s the session
   */
  catchUp(s) {
    const { remote } = this;
    if (!remote.ready || this.inflight > 0) return;
    remote.request({ op: 'catchUp', session: s }).then(
      (out) => {
        const state = this.last?.state;
        if (out && this.inflight === 0 && (state === 'composing' || state === 'converting')) this.apply(out, false);
      },
      () => {},
    );
  }

  /** When typing pauses: the live conversion for `onPreview`. */
  schedulePreview() {
    const { remote, options } = this;
    if (this.previewTimer !== null) clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(() => {
      this.previewTimer = null;
      const s = this.session;
      if (s === null || !remote.ready || this.last?.state !== 'composing' || this.inflight > 0) return;
      remote.request({ op: 'preview', session: s }).then(
        (out) => {
          if (out && out.state === 'composing' && this.inflight === 0) options.onPreview?.(out);
        },
        () => {},
      );
    }, options.previewDelay ?? 40);
  }

  /** @param {InputEvent} e */
  beforeInput(e) {
    if (this.commit.inserting || e.isComposing || this.osComposing || isOffered(e)) return;
    this.undoable = null;
    if (!this.hasComposition() && this.inflight === 0) {
      if (this.hasSuggestions()) this.flush(true);
      return;
    }
    const text = e.data ?? e.dataTransfer?.getData('text/plain') ?? null;
    const s = this.session;
    if (e.inputType.startsWith('insert') && text && s !== null) {
      // Text from elsewhere (a virtual keyboard, a drop): our composition first, then the text,
      // as the end of its commit (the widget's `beforeInput` says why).
      e.preventDefault();
      e.stopImmediatePropagation();
      this.send({ op: 'flush', session: s }, (out) => {
        this.apply({ ...out, committed: out.committed + text }, !isFocused(this.el));
        this.undoable = null;
      });
      return;
    }
    this.flush(true);
  }

  /** The field lost the focus: the composition goes in (also one still in flight). */
  blur() {
    this.undoable = null;
    if (this.hasComposition() || this.hasSuggestions() || this.inflight > 0) this.flush(true);
    this.render();
  }

  /** @param {number} index a click on a candidate or a suggestion */
  select(index) {
    const s = this.session;
    if (s === null || !this.remote.composes) return;
    this.send({ op: 'select', session: s, index });
  }

  /** A click on the indicator: IME on/off. */
  toggle() {
    const s = this.open();
    if (s === null) return;
    this.predicted = { on: !this.predicted.on, composing: false, listed: false };
    this.send({ op: 'setEnabled', session: s, on: !this.enabled });
  }

  /** @param {boolean} fallback */
  flush(fallback) {
    const s = this.session;
    if (s === null || !this.remote.port) return;
    this.predicted = { ...this.predicted, composing: false, listed: false };
    this.send({ op: 'flush', session: s }, (out) => this.apply(out, fallback || !isFocused(this.el)));
  }

  /** Drops the composition without committing (the field became a password field). */
  drop() {
    const s = this.session;
    if (s !== null) this.remote.post({ op: 'cancel', session: s });
    const before = this.last?.preedit.text ?? '';
    this.last = null;
    this.predicted = { ...this.predicted, composing: false, listed: false };
    this.announce(before, '', '');
    this.render();
  }

  /** Closes the session (on detach). */
  close() {
    if (this.session !== null && this.epoch === this.remote.epoch) this.remote.post({ op: 'close', session: this.session });
  }
}
