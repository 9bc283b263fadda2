/* tslint:disable */
/* eslint-disable */

/**
 * The engine and the per-field IMEs, behind one handle.
 */
export class Henkan {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Reserves a zeroed model buffer of `len` bytes in linear memory; returns its address.
     */
    allocModel(len: number): number;
    /**
     * Drops a session's composition without committing it.
     */
    cancel(session: number): void;
    /**
     * Closes a session (the field was detached); its id may be reused.
     */
    closeSession(session: number): void;
    /**
     * The conversion engines the loaded model offers (e.g. `["classic"]`).
     */
    engines(): any;
    /**
     * Commits whatever is composed (the field lost focus, a click moved the caret).
     */
    flush(session: number): any;
    /**
     * Enlarges the model buffer to `len` bytes, keeping its content; returns the (new) address.
     */
    growModel(len: number): number;
    /**
     * Whether a model is loaded.
     */
    isLoaded(): boolean;
    /**
     * One key event: the DOM `KeyboardEvent.key` and modifier bits (1 Shift, 2 Ctrl, 4 Alt,
     * 8 Meta). Returns the [`ImeOutput`] as a plain object.
     */
    key(session: number, key: string, mods: number): any;
    /**
     * Builds the engine from bytes passed in (one copy; for tests and small models).
     */
    loadModelBytes(bytes: Uint8Array | number[]): any;
    /**
     * Builds the engine from the first `len` bytes of the model buffer (checking magic, version,
     * sections and checksums). Returns `{ bytes, engines }`. On error the handle has no engine.
     */
    loadModel(len: number): any;
    /**
     * The size of wasm linear memory in bytes.
     */
    memoryBytes(): number;
    /**
     * An empty handle (no model yet). Sets the panic hook.
     */
    constructor();
    /**
     * Opens an IME for one text field; returns its session id.
     */
    openSession(): number;
    /**
     * The state with the live conversion of the composition (n-best, segments): for a view that
     * updates when typing pauses. Changes nothing.
     */
    preview(session: number): any;
    /**
     * Selects candidate `index` of the focused segment (a click in the candidate window).
     */
    selectCandidate(session: number, index: number): any;
    /**
     * Turns the IME of a session on or off (off commits the composition).
     */
    setEnabled(session: number, on: boolean): any;
    /**
     * Live conversion while composing (n-best and segments on every key); on by default.
     */
    setLive(session: number, live: boolean): void;
}

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_henkan_free: (a: number, b: number) => void;
    readonly henkan_allocModel: (a: number, b: number) => number;
    readonly henkan_cancel: (a: number, b: number) => void;
    readonly henkan_closeSession: (a: number, b: number) => void;
    readonly henkan_engines: (a: number) => [number, number, number];
    readonly henkan_flush: (a: number, b: number) => [number, number, number];
    readonly henkan_growModel: (a: number, b: number) => number;
    readonly henkan_isLoaded: (a: number) => number;
    readonly henkan_key: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
    readonly henkan_loadModel: (a: number, b: number) => [number, number, number];
    readonly henkan_loadModelBytes: (a: number, b: number, c: number) => [number, number, number];
    readonly henkan_memoryBytes: (a: number) => number;
    readonly henkan_new: () => number;
    readonly henkan_openSession: (a: number) => number;
    readonly henkan_preview: (a: number, b: number) => [number, number, number];
    readonly henkan_selectCandidate: (a: number, b: number, c: number) => [number, number, number];
    readonly henkan_setEnabled: (a: number, b: number, c: number) => [number, number, number];
    readonly henkan_setLive: (a: number, b: number, c: number) => void;
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;
