// The editors of tests/e2e/editors.test.mjs (ProseMirror, CodeMirror 6, Lexical, Quill, Slate,
// CKEditor 5, Draft.js, Trix), from npm, bundled by esbuild (editors/bundle.mjs)
// into one module that the test page imports: each function mounts one editor into a container
// with some formatted text, its own undo history and key bindings, and returns what the test
// reads: the editor's own state (`text()`, `html()`), its undo (`undo()`) and the bindings that
// fired (`fired`: Enter, Tab, Mod-b).
import { EditorState as PmState } from 'prosemirror-state';
import { EditorView as PmView } from 'prosemirror-view';
import { schema } from 'prosemirror-schema-basic';
import { history as pmHistory, undo as pmUndo, redo as pmRedo } from 'prosemirror-history';
import { keymap as pmKeymap } from 'prosemirror-keymap';
import { baseKeymap, toggleMark } from 'prosemirror-commands';

import { EditorView as CmView, keymap as cmKeymap, placeholder as cmPlaceholder } from '@codemirror/view';
import { EditorState as CmState } from '@codemirror/state';
import { history as cmHistory, historyKeymap, defaultKeymap, undo as cmUndo, insertNewlineAndIndent } from '@codemirror/commands';

import {
  createEditor,
  $getRoot,
  $createParagraphNode,
  $createTextNode,
  COMMAND_PRIORITY_CRITICAL,
  KEY_ENTER_COMMAND,
  KEY_TAB_COMMAND,
  FORMAT_TEXT_COMMAND,
  UNDO_COMMAND,
} from 'lexical';
import { registerRichText } from '@lexical/rich-text';
import { registerHistory, createEmptyHistoryState } from '@lexical/history';

import Quill from 'quill';

import { createElement as h, useCallback, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { createEditor as createSlate, Editor as SlateEditor, Node as SlateNode } from 'slate';
import { Slate, Editable, withReact } from 'slate-react';
import { withHistory } from 'slate-history';

import { ClassicEditor, Essentials, Paragraph, Bold } from 'ckeditor5';

import { Editor as DraftEditor, EditorState as DraftState, convertFromRaw, getDefaultKeyBinding } from 'draft-js';

import Trix from 'trix';

import { createApp, h as vh, ref, withDirectives, vModelText } from 'vue';

/**
 * @typedef {object} Mounted
 * @property {HTMLElement} field the element to attach the IME to (the editor's contenteditable)
 * @property {() => string} text the editor's document as plain text, from its own state
 * @property {() => string} html its document as HTML with the marks (from its state where it has one)
 * @property {() => void} undo the editor's own undo command
 * @property {string[]} fired the key bindings that ran (Enter, Tab, Mod-b)
 * @property {any} editor the editor object itself
 */

/**
 * ProseMirror (prosemirror-view with the basic schema, history and keymaps): one paragraph
 * `前の文、太字の部分とリンク。` with a bold run and a link.
 * @param {HTMLElement} host
 * @returns {Mounted}
 */
export function prosemirror(host) {
  /** @type {string[]} */
  const fired = [];
  /** @param {string} name @param {import('prosemirror-state').Command} cmd @returns {import('prosemirror-state').Command} */
  const record = (name, cmd) => (state, dispatch, view) => {
    fired.push(name);
    return cmd(state, dispatch, view);
  };
  const strong = schema.marks.strong;
  const link = schema.marks.link.create({ href: 'https://example.com/' });
  const doc = schema.node('doc', null, [
    schema.node('paragraph', null, [
      schema.text('前の文、'),
      schema.text('太字の部分', [strong.create()]),
      schema.text('と'),
      schema.text('リンク', [link]),
      schema.text('。'),
    ]),
  ]);
  const state = PmState.create({
    doc,
    plugins: [
      pmHistory(),
      pmKeymap({
        'Mod-z': pmUndo,
        'Mod-y': pmRedo,
        'Shift-Mod-z': pmRedo,
        'Mod-b': record('Mod-b', toggleMark(strong)),
        Tab: record('Tab', () => true),
        Enter: record('Enter', baseKeymap.Enter),
      }),
      pmKeymap(baseKeymap),
    ],
  });
  const view = new PmView(host, { state });
  return {
    field: /** @type {HTMLElement} */ (view.dom),
    text: () => view.state.doc.textContent,
    html: () => {
      const out = /** @type {string[]} */ ([]);
      view.state.doc.descendants((node) => {
        if (node.isText) out.push(node.marks.reduce((t, m) => `<${m.type.name}>${t}</${m.type.name}>`, node.text ?? ''));
        else if (node.isBlock && out.length) out.push('|');
        return true;
      });
      return out.join('');
    },
    undo: () => pmUndo(view.state, view.dispatch),
    fired,
    editor: view,
  };
}

/**
 * CodeMirror 6 (@codemirror/view, history and the default keymap): two lines of text.
 * @param {HTMLElement} host
 * @returns {Mounted}
 */
export function codemirror(host) {
  /** @type {string[]} */
  const fired = [];
  /** @param {string} name @param {(view: CmView) => boolean} cmd */
  const record = (name, cmd) => (/** @type {CmView} */ view) => {
    fired.push(name);
    return cmd(view);
  };
  const view = new CmView({
    parent: host,
    state: CmState.create({
      doc: '前の文、後ろの文。\n二行目',
      extensions: [
        // shown while the document is empty
        cmPlaceholder('ここに入力してください'),
        cmHistory(),
        cmKeymap.of([
          { key: 'Enter', run: record('Enter', insertNewlineAndIndent) },
          { key: 'Tab', run: record('Tab', () => true) },
          { key: 'Mod-b', run: record('Mod-b', () => true) },
          ...historyKeymap,
          ...defaultKeymap,
        ]),
      ],
    }),
  });
  return {
    field: view.contentDOM,
    text: () => view.state.doc.toString(),
    html: () => view.state.doc.toString(),
    undo: () => {
      cmUndo(view);
    },
    fired,
    editor: view,
  };
}

/**
 * Lexical (rich text, history): one paragraph `前の文、太字の部分と後ろ。` with a bold run.
 * @param {HTMLElement} host
 * @returns {Mounted}
 */
export function lexical(host) {
  /** @type {string[]} */
  const fired = [];
  const editor = createEditor({
    namespace: 'henkan-test',
    onError: (e) => {
      throw e;
    },
  });
  const root = document.createElement('div');
  root.contentEditable = 'true';
  root.className = 'lexical-root';
  host.append(root);
  editor.setRootElement(root);
  registerRichText(editor);
  registerHistory(editor, createEmptyHistoryState(), 300);
  /** @param {string} name */
  const record = (name) => () => {
    fired.push(name);
    return false;
  };
  editor.registerCommand(KEY_ENTER_COMMAND, record('Enter'), COMMAND_PRIORITY_CRITICAL);
  editor.registerCommand(KEY_TAB_COMMAND, record('Tab'), COMMAND_PRIORITY_CRITICAL);
  editor.registerCommand(FORMAT_TEXT_COMMAND, record('Mod-b'), COMMAND_PRIORITY_CRITICAL);
  editor.update(
    () => {
      const p = $createParagraphNode();
      p.append($createTextNode('前の文、'), $createTextNode('太字の部分').toggleFormat('bold'), $createTextNode('と後ろ。'));
      $getRoot().clear().append(p);
    },
    { discrete: true },
  );
  return {
    field: root,
    text: () => editor.getEditorState().read(() => $getRoot().getTextContent()),
    html: () =>
      editor.getEditorState().read(() =>
        $getRoot()
          .getAllTextNodes()
          .map((n) => (n.hasFormat('bold') ? `<strong>${n.getTextContent()}</strong>` : n.getTextContent()))
          .join(''),
      ),
    undo: () => {
      editor.dispatchCommand(UNDO_COMMAND, undefined);
    },
    fired,
    editor,
  };
}

/**
 * Quill 2 (its own history, 300 ms grouping, and keyboard module): one line
 * `前の文、太字の部分と後ろ。` with a bold run.
 * @param {HTMLElement} host
 * @returns {Mounted}
 */
export function quill(host) {
  /** @type {string[]} */
  const fired = [];
  /** A binding that records its key and lets Quill's own bindings for it run. @param {string} name */
  const record = (name) => () => {
    fired.push(name);
    return true;
  };
  const editor = new Quill(host, {
    modules: {
      history: { delay: 300, userOnly: true },
      keyboard: {
        // `tab` and `bold` replace Quill's own bindings of those names, which come first and
        // stop there; Quill adds its Enter binding after these.
        bindings: {
          recordEnter: { key: 'Enter', handler: record('Enter') },
          tab: { key: 'Tab', handler: record('Tab') },
          bold: { key: 'b', shortKey: true, handler: record('Mod-b') },
        },
      },
    },
  });
  editor.setContents([{ insert: '前の文、' }, { insert: '太字の部分', attributes: { bold: true } }, { insert: 'と後ろ。\n' }], 'silent');
  editor.history.clear();
  return {
    field: editor.root,
    // Quill's document always ends with a line break of its own.
    text: () => editor.getText().replace(/\n$/, ''),
    html: () =>
      editor
        .getContents()
        .ops.map((op) => {
          const t = typeof op.insert === 'string' ? op.insert : '';
          return op.attributes?.bold ? `<strong>${t}</strong>` : t;
        })
        .join('')
        .replace(/\n$/, ''),
    undo: () => editor.history.undo(),
    fired,
    editor,
  };
}

/**
 * Slate with slate-react (React 18) and slate-history: one paragraph `前の文、太字の部分と後ろ。`
 * with a bold run. Slate takes text in from `beforeinput` into its own model and renders it.
 * @param {HTMLElement} host
 * @returns {Mounted}
 */
export function slate(host) {
  /** @type {string[]} */
  const fired = [];
  const editor = withHistory(withReact(createSlate()));
  /** @type {any[]} */
  const value = [{ type: 'paragraph', children: [{ text: '前の文、' }, { text: '太字の部分', bold: true }, { text: 'と後ろ。' }] }];
  /** @param {any} props */
  const Leaf = ({ attributes, children, leaf }) => h('span', attributes, leaf.bold ? h('strong', null, children) : children);
  function App() {
    const renderLeaf = useCallback(Leaf, []);
    /** @param {KeyboardEvent} e */
    const onKeyDown = (e) => {
      const name = e.key === 'Enter' ? 'Enter' : e.key === 'Tab' ? 'Tab' : (e.ctrlKey || e.metaKey) && e.key === 'b' ? 'Mod-b' : null;
      if (name === null) return;
      fired.push(name);
      if (name !== 'Enter') e.preventDefault();
    };
    return h(Slate, { editor, initialValue: value }, h(Editable, { renderLeaf, onKeyDown, className: 'slate-root' }));
  }
  const root = createRoot(host);
  flushSync(() => root.render(h(App)));
  return {
    field: /** @type {HTMLElement} */ (host.querySelector('[contenteditable]')),
    text: () => editor.children.map((n) => SlateNode.string(n)).join('\n'),
    html: () =>
      editor.children
        .map((/** @type {any} */ block) =>
          block.children.map((/** @type {any} */ leaf) => (leaf.bold ? `<strong>${leaf.text}</strong>` : leaf.text)).join(''),
        )
        .join('|'),
    undo: () => {
      /** @type {any} */ (editor).undo();
    },
    fired,
    editor: { editor, Editor: SlateEditor },
  };
}

/**
 * CKEditor 5 (the classic editor with its essentials: typing, Enter, undo; bold): one paragraph
 * `前の文、太字の部分と後ろ。` with a bold run. Its creation is asynchronous.
 * @param {HTMLElement} host
 * @returns {Promise<Mounted>}
 */
export async function ckeditor(host) {
  /** @type {string[]} */
  const fired = [];
  const el = document.createElement('div');
  host.append(el);
  const editor = await ClassicEditor.create(el, {
    licenseKey: 'GPL',
    plugins: [Essentials, Paragraph, Bold],
    toolbar: [],
    initialData: '<p>前の文、<strong>太字の部分</strong>と後ろ。</p>',
  });
  const view = editor.editing.view.document;
  view.on('enter', () => fired.push('Enter'), { priority: 'highest' });
  editor.keystrokes.set(
    'Tab',
    (/** @type {any} */ _data, /** @type {() => void} */ cancel) => {
      fired.push('Tab');
      cancel();
    },
    { priority: 'highest' },
  );
  editor.commands.get('bold')?.on('execute', () => fired.push('Mod-b'));
  /** @param {(node: any) => string} leaf */
  const walk = (leaf) =>
    Array.from(editor.model.document.getRoot()?.getChildren() ?? [])
      .map((/** @type {any} */ block) => Array.from(block.getChildren()).map(leaf).join(''))
      .join('\n');
  return {
    field: /** @type {HTMLElement} */ (editor.ui.view.editable.element),
    text: () => walk((n) => n.data ?? ''),
    html: () => walk((n) => (n.hasAttribute('bold') ? `<strong>${n.data}</strong>` : n.data ?? '')),
    undo: () => editor.execute('undo'),
    fired,
    editor,
  };
}

/**
 * Draft.js (React 18): one block `前の文、太字の部分と後ろ。` with a bold run; Draft's own undo
 * (`EditorState.undo`) and key bindings.
 * @param {HTMLElement} host
 * @returns {Mounted}
 */
export function draft(host) {
  /** @type {string[]} */
  const fired = [];
  const content = convertFromRaw({
    blocks: [
      { key: 'a', text: '前の文、太字の部分と後ろ。', type: 'unstyled', depth: 0, inlineStyleRanges: [{ offset: 4, length: 5, style: 'BOLD' }], entityRanges: [] },
    ],
    entityMap: {},
  });
  /** @type {any} */
  let state = DraftState.createWithContent(content);
  /** @type {(s: any) => void} */
  let set = () => {};
  function App() {
    const [s, setS] = useState(state);
    state = s;
    set = (next) => {
      state = next;
      setS(next);
    };
    /** @param {KeyboardEvent} e */
    const keyBindingFn = (e) => {
      if (e.key === 'Tab') {
        fired.push('Tab');
        e.preventDefault();
        return 'tab';
      }
      if ((e.ctrlKey || e.metaKey) && e.key === 'b') fired.push('Mod-b');
      return getDefaultKeyBinding(/** @type {any} */ (e));
    };
    const handleReturn = () => {
      fired.push('Enter');
      return 'not-handled';
    };
    return h(DraftEditor, { editorState: s, onChange: set, keyBindingFn, handleReturn });
  }
  const root = createRoot(host);
  flushSync(() => root.render(h(App)));
  const blocks = () => state.getCurrentContent().getBlocksAsArray();
  return {
    field: /** @type {HTMLElement} */ (host.querySelector('[contenteditable]')),
    text: () => state.getCurrentContent().getPlainText('\n'),
    html: () =>
      blocks()
        .map((/** @type {any} */ b) => {
          const text = b.getText();
          let out = '';
          for (let i = 0; i < text.length; i++) {
            const bold = b.getInlineStyleAt(i).has('BOLD');
            const prev = i > 0 && b.getInlineStyleAt(i - 1).has('BOLD');
            if (bold && !prev) out += '<strong>';
            if (!bold && prev) out += '</strong>';
            out += text[i];
          }
          if (text && b.getInlineStyleAt(text.length - 1).has('BOLD')) out += '</strong>';
          return out;
        })
        .join('|'),
    undo: () => flushSync(() => set(DraftState.undo(state))),
    fired,
    editor: { get state() { return state; } },
  };
}

/**
 * Trix (Basecamp's editor, a `<trix-editor>` element): one block `前の文、太字の部分と後ろ。` with a
 * bold run; its own undo and document. Its creation is asynchronous.
 * @param {HTMLElement} host
 * @returns {Promise<Mounted>}
 */
export async function trix(host) {
  /** @type {string[]} */
  const fired = [];
  // Trix joins typing in one block within the same interval of its clock (5 s) into one undo
  // step, so two commits are one step or two by where the clock stands: one always, here.
  /** @type {any} */ (Trix).config.undo.interval = 0;
  const el = /** @type {any} */ (document.createElement('trix-editor'));
  const ready = new Promise((r) => el.addEventListener('trix-initialize', r, { once: true }));
  host.append(el);
  await ready;
  el.editor.loadHTML('<div>前の文、<strong>太字の部分</strong>と後ろ。</div>');
  el.addEventListener('keydown', (/** @type {KeyboardEvent} */ e) => {
    if (e.key === 'Enter') fired.push('Enter');
    else if (e.key === 'Tab') fired.push('Tab');
    else if ((e.ctrlKey || e.metaKey) && e.key === 'b') fired.push('Mod-b');
  });
  return {
    field: el,
    text: () => el.editor.getDocument().toString().replace(/\n$/, ''),
    html: () => String(el.value).replace(/^<div>|<\/div>$/g, ''),
    undo: () => el.editor.undo(),
    fired,
    editor: el.editor,
  };
}

/**
 * A React 18 form of controlled fields: an `<input>` and a `<textarea>` whose value is React
 * state set by `onChange`, and an `<input>` whose `onChange` keeps at most 8 characters
 * (a page's rule); `onSubmit` and `onKeyDown` are recorded.
 * @param {HTMLElement} host
 */
export function reactForm(host) {
  /** @type {string[]} */
  const fired = [];
  /** @type {Record<string, string>} */
  const state = { name: '', note: '', short: '' };
  /** @param {{id: string, as?: string, limit?: number}} p */
  function Field({ id, as = 'input', limit }) {
    const [value, setValue] = useState('');
    state[id] = value;
    return h(as, {
      id,
      value,
      style: { font: 'inherit', width: '420px', display: 'block', marginBottom: '12px' },
      rows: as === 'textarea' ? 3 : undefined,
      /** @param {any} e */
      onChange: (e) => {
        const v = limit ? e.target.value.slice(0, limit) : e.target.value;
        state[id] = v;
        setValue(v);
      },
      /** @param {any} e */
      onKeyDown: (e) => {
        if (e.key === 'Enter' || e.key === ' ') fired.push(`${id}:${e.key}`);
      },
    });
  }
  function App() {
    return h(
      'form',
      { onSubmit: (/** @type {any} */ e) => (e.preventDefault(), fired.push('submit')) },
      h(Field, { id: 'name' }),
      h(Field, { id: 'note', as: 'textarea' }),
      h(Field, { id: 'short', limit: 8 }),
    );
  }
  const root = createRoot(host);
  flushSync(() => root.render(h(App)));
  return { state, fired };
}

/**
 * A Vue 3 form whose fields are bound with `v-model` (its `vModelText` directive, which skips the
 * `input` events of a composition and reads the value at `compositionend`): an `<input>`, a
 * `<textarea>` and an `<input>` with `v-model.lazy` (read at `change`).
 * @param {HTMLElement} host
 */
export function vueForm(host) {
  /** @type {Record<string, string>} */
  const state = { name: '', note: '', lazy: '' };
  const app = createApp({
    setup() {
      const values = { name: ref(''), note: ref(''), lazy: ref('') };
      /** @param {'name' | 'note' | 'lazy'} id @param {string} tag */
      const field = (id, tag) =>
        withDirectives(
          vh(tag, {
            id,
            style: { font: 'inherit', width: '420px', display: 'block', marginBottom: '12px' },
            rows: tag === 'textarea' ? 3 : undefined,
            'onUpdate:modelValue': (/** @type {string} */ v) => {
              values[id].value = v;
              state[id] = v;
            },
          }),
          [[vModelText, values[id].value, undefined, id === 'lazy' ? { lazy: true } : {}]],
        );
      return () => vh('form', null, [field('name', 'input'), field('note', 'textarea'), field('lazy', 'input')]);
    },
  });
  app.mount(host);
  return { state };
}
