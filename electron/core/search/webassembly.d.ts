/**
 * The part of the WebAssembly JavaScript API that vector-kernels.ts uses. Node and Electron have all of
 * it; the node types of this TypeScript setup (lib ES2023, @types/node 20) declare none of it, and the
 * DOM library that does would let browser globals into the main process's code.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  class Instance {
    constructor(module: Module, imports: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
}
