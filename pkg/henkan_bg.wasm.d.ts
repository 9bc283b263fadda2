/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const __wbg_henkan_free: (a: number, b: number) => void;
export const henkan_allocModel: (a: number, b: number) => number;
export const henkan_cancel: (a: number, b: number) => void;
export const henkan_closeSession: (a: number, b: number) => void;
export const henkan_engines: (a: number) => [number, number, number];
export const henkan_flush: (a: number, b: number) => [number, number, number];
export const henkan_growModel: (a: number, b: number) => number;
export const henkan_isLoaded: (a: number) => number;
export const henkan_key: (a: number, b: number, c: number, d: number, e: number) => [number, number, number];
export const henkan_loadModel: (a: number, b: number) => [number, number, number];
export const henkan_loadModelBytes: (a: number, b: number, c: number) => [number, number, number];
export const henkan_memoryBytes: (a: number) => number;
export const henkan_new: () => number;
export const henkan_openSession: (a: number) => number;
export const henkan_preview: (a: number, b: number) => [number, number, number];
export const henkan_selectCandidate: (a: number, b: number, c: number) => [number, number, number];
export const henkan_setEnabled: (a: number, b: number, c: number) => [number, number, number];
export const henkan_setLive: (a: number, b: number, c: number) => void;
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __wbindgen_externrefs: WebAssembly.Table;
export const __externref_table_dealloc: (a: number) => void;
export const __wbindgen_start: () => void;
