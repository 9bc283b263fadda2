// A stand-in for the wasm handle's model loading calls, shared by the loader and IME tests.

/**
 * A sink standing in for the wasm handle (crates/henkan-wasm) over a fake wasm memory, for a "model"
 * whose first byte is 0x48 and whose core and whole length are given (the real layout comes from
 * the section table, src/model/mod.rs). Like the handle it hands out windows — here of at most
 * 700 bytes, at a moving address, the memory replaced on every call as growth detaches old
 * views — and it collects what was written there in file order.
 * @param {{coreEnd: number, fileEnd: number, badLm?: boolean}} shape
 */
export function fakeSink(shape) {
  const memory = { buffer: new ArrayBuffer(16) };
  const file = new Uint8Array(shape.fileEnd);
  let received = 0;
  let ptr = 0;
  const state = () => {
    const len = received < 16 ? 16 - received : Math.min(700, shape.fileEnd - received);
    ptr = 8 + (received % 7);
    memory.buffer = new ArrayBuffer(ptr + len);
    return {
      ptr,
      len,
      received,
      layout: received >= 16 ? { coreEnd: shape.coreEnd, fileEnd: shape.fileEnd } : null,
      coreReady: received >= shape.coreEnd,
      complete: received >= shape.fileEnd,
    };
  };
  const sink = {
    /** @type {number[]} */
    begins: [],
    completes: 0,
    /** @type {Uint8Array | null} the bytes the classic engine was built from */
    core: null,
    /** @type {Uint8Array | null} the bytes the LMs were attached from */
    full: null,
    beginModel(/** @type {number} */ expected) {
      this.begins.push(expected);
      received = 0;
      return state();
    },
    modelWrote(/** @type {number} */ n) {
      file.set(new Uint8Array(memory.buffer, ptr, n), received);
      if (file[0] !== 0x48) throw new Error('not a henkan model (bad magic)');
      received += n;
      return state();
    },
    loadModelCore() {
      if (received < shape.coreEnd) throw new Error(`model file is truncated: need ${shape.coreEnd} bytes, have ${received}`);
      this.core = file.slice(0, shape.coreEnd);
      const lmPending = shape.fileEnd > shape.coreEnd;
      return { bytes: shape.fileEnd, engines: ['classic'], defaultEngine: 'classic', lmPending };
    },
    completeModel() {
      this.completes++;
      if (received < shape.fileEnd) throw new Error(`model file is truncated: need ${shape.fileEnd} bytes, have ${received}`);
      if (shape.badLm) throw new Error('checksum mismatch in section lstm');
      this.full = file.slice();
      return { bytes: shape.fileEnd, engines: ['classic', 'neural', 'hybrid'], defaultEngine: 'hybrid', lmPending: false };
    },
  };
  return { sink, memory: () => /** @type {WebAssembly.Memory} */ (/** @type {unknown} */ (memory)) };
}
