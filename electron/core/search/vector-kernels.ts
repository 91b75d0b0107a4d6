/**
 * The two inner loops of the vector index as WebAssembly, which JavaScript cannot express: the Hamming
 * distance of every entry's sign bits to the query's, with the CPU's popcount (`i64.popcnt`), and int8
 * dot products of candidates' codes with the query, eight components an instruction
 * (`i32x4.dot_i16x8_s`, fixed-width SIMD, which Node and Electron have had since 2021). The module is a
 * few hundred bytes assembled here from the instructions below, so there is no binary to trust and no
 * build step. Each index gets its own memory holding its sign bits (copied once, on first use) and a
 * scratch area for a query.
 *
 * Memory layout: [sign bits, `stride` bytes per entry][query bits][distances, u16 per entry][histogram of
 * the distances, u32 per distance][scratch].
 */
import type { VectorIndex } from './vector-index';

// --- A minimal assembler: LEB128 numbers, sections, and the instructions the kernels use. -------------

function unsigned(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function signed(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

const vec = (items: number[][]): number[] => [...unsigned(items.length), ...items.flat()];
const name = (s: string): number[] => vec([...s].map((c) => [c.charCodeAt(0)]));
const section = (id: number, body: number[]): number[] => [id, ...unsigned(body.length), ...body];

const I32 = 0x7f;
const I64 = 0x7e;
const V128 = 0x7b;

/** The instructions used, by their text names. */
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...unsigned(depth)],
  brIf: (depth: number) => [0x0d, ...unsigned(depth)],
  get: (local: number) => [0x20, ...unsigned(local)],
  set: (local: number) => [0x21, ...unsigned(local)],
  tee: (local: number) => [0x22, ...unsigned(local)],
  i32Const: (n: number) => [0x41, ...signed(n)],
  i64Const: (n: number) => [0x42, ...signed(n)],
  i64Load: (offset: number) => [0x29, 3, ...unsigned(offset)], // align 2^3
  i32Load: [0x28, 2, 0],
  i32Store: [0x36, 2, 0],
  i32Store16: [0x3b, 1, 0],
  i32GeU: [0x4f],
  i32LtU: [0x49],
  i32Add: [0x6a],
  i32Shl: [0x74],
  i64Popcnt: [0x7b],
  i64Add: [0x7c],
  i64Xor: [0x85],
  i32WrapI64: [0xa7],
  v128Load: [0xfd, ...unsigned(0x00), 4, 0], // align 2^4
  v128Load8x8S: [0xfd, ...unsigned(0x01), 3, 0], // eight int8 sign-extended to i16x8
  v128Zero: [0xfd, ...unsigned(0x0c), ...new Array<number>(16).fill(0)],
  i32x4Lane: (lane: number) => [0xfd, ...unsigned(0x1b), lane],
  i32x4Add: [0xfd, ...unsigned(0xae)],
  i32x4DotI16x8S: [0xfd, ...unsigned(0xba)],
};

/** A function: its parameter and local types, and its body. */
interface Func {
  params: number[];
  locals: number[];
  body: number[][];
}

function moduleBytes(funcs: Record<string, Func>): Uint8Array {
  const list = Object.values(funcs);
  const types = section(1, vec(list.map((f) => [0x60, ...vec(f.params.map((t) => [t])), 0])));
  const imports = section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, 0x01]])); // memory, min 1 page
  const functions = section(3, vec(list.map((_, i) => unsigned(i))));
  const exports = section(7, vec(Object.keys(funcs).map((n, i) => [...name(n), 0x00, ...unsigned(i)])));
  const code = section(
    10,
    vec(
      list.map((f) => {
        const body = [...vec(f.locals.map((t) => [1, t])), ...f.body.flat(), ...op.end];
        return [...unsigned(body.length), ...body];
      }),
    ),
  );
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...types, ...imports, ...functions, ...exports, ...code]);
}

// --- The kernels. -------------------------------------------------------------------------------------

/**
 * hamming(bits, query, stride, count, out, histogram): for each of `count` entries of `stride` bytes (a
 * multiple of 16) from `bits`, the number of bits in which it differs from the `stride` bytes at `query`,
 * as a u16 at `out`; the u32 at `histogram` + 4 × that number is incremented.
 */
const hamming: Func = (() => {
  const [bits, query, stride, count, out, histogram, e, w, d, slot] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  return {
    params: [I32, I32, I32, I32, I32, I32],
    locals: [I32, I32, I64, I32],
    body: [
      op.block, op.loop,
      op.get(e), op.get(count), op.i32GeU, op.brIf(1),
      op.i64Const(0), op.set(d),
      op.i32Const(0), op.set(w),
      op.loop,
      // Two 64-bit words a turn.
      op.get(d),
      op.get(bits), op.get(w), op.i32Add, op.i64Load(0),
      op.get(query), op.get(w), op.i32Add, op.i64Load(0),
      op.i64Xor, op.i64Popcnt, op.i64Add,
      op.get(bits), op.get(w), op.i32Add, op.i64Load(8),
      op.get(query), op.get(w), op.i32Add, op.i64Load(8),
      op.i64Xor, op.i64Popcnt, op.i64Add, op.set(d),
      op.get(w), op.i32Const(16), op.i32Add, op.tee(w), op.get(stride), op.i32LtU, op.brIf(0),
      op.end,
      op.get(out), op.get(d), op.i32WrapI64, op.tee(slot), op.i32Store16,
      op.get(histogram), op.get(slot), op.i32Const(2), op.i32Shl, op.i32Add, op.tee(slot),
      op.get(slot), op.i32Load, op.i32Const(1), op.i32Add, op.i32Store,
      op.get(out), op.i32Const(2), op.i32Add, op.set(out),
      op.get(bits), op.get(stride), op.i32Add, op.set(bits),
      op.get(e), op.i32Const(1), op.i32Add, op.set(e),
      op.br(0),
      op.end, op.end,
    ],
  };
})();

/**
 * dots(codes, stride, query, count, out): for each of `count` rows of `stride` int8 codes (a multiple of
 * 8) from `codes`, its dot product with the `stride` int16 components at `query`, as an i32 at `out`.
 */
const dots: Func = (() => {
  const [codes, stride, query, count, out, j, i, acc] = [0, 1, 2, 3, 4, 5, 6, 7];
  return {
    params: [I32, I32, I32, I32, I32],
    locals: [I32, I32, V128],
    body: [
      op.block, op.loop,
      op.get(j), op.get(count), op.i32GeU, op.brIf(1),
      op.v128Zero, op.set(acc),
      op.i32Const(0), op.set(i),
      op.loop,
      op.get(acc),
      op.get(codes), op.get(i), op.i32Add, op.v128Load8x8S,
      op.get(query), op.get(i), op.i32Const(1), op.i32Shl, op.i32Add, op.v128Load,
      op.i32x4DotI16x8S, op.i32x4Add, op.set(acc),
      op.get(i), op.i32Const(8), op.i32Add, op.tee(i), op.get(stride), op.i32LtU, op.brIf(0),
      op.end,
      op.get(out),
      op.get(acc), op.i32x4Lane(0), op.get(acc), op.i32x4Lane(1), op.i32Add,
      op.get(acc), op.i32x4Lane(2), op.i32Add, op.get(acc), op.i32x4Lane(3), op.i32Add,
      op.i32Store,
      op.get(out), op.i32Const(4), op.i32Add, op.set(out),
      op.get(codes), op.get(stride), op.i32Add, op.set(codes),
      op.get(j), op.i32Const(1), op.i32Add, op.set(j),
      op.br(0),
      op.end, op.end,
    ],
  };
})();

let compiled: WebAssembly.Module | null = null;
const kernelModule = () => (compiled ??= new WebAssembly.Module(moduleBytes({ hamming, dots })));

interface Exports {
  hamming(bits: number, query: number, stride: number, count: number, out: number, histogram: number): void;
  dots(codes: number, stride: number, query: number, count: number, out: number): void;
}

const PAGE = 65_536;
const round = (n: number, to: number) => Math.ceil(n / to) * to;

/** The kernels of one index, with its sign bits in their memory. */
export class VectorKernels {
  /** The index's int8 codes: a candidate's are copied into the memory when it is ranked. */
  private readonly codes: Int8Array;
  private readonly dimension: number;
  private readonly memory: WebAssembly.Memory;
  private readonly run: Exports;
  /** Bytes per entry of sign bits: the index's words, padded to pairs of 64-bit words. */
  private readonly stride: number;
  private readonly count: number;
  private readonly queryAt: number;
  private readonly distancesAt: number;
  private readonly histogramAt: number;
  /** Distances there can be: 0 to the bits per entry. */
  private readonly span: number;
  private readonly scratchAt: number;
  /** Components per row of codes: the dimension padded to a multiple of 8 (the padding is zero in the query). */
  private readonly width: number;

  constructor(index: VectorIndex) {
    this.codes = index.codes;
    this.dimension = index.dimension;
    this.count = index.ids.length;
    this.stride = round(index.words * 4, 16);
    this.width = round(index.dimension, 8);
    this.queryAt = this.count * this.stride;
    this.distancesAt = round(this.queryAt + this.stride, 16);
    this.histogramAt = round(this.distancesAt + this.count * 2, 16);
    this.span = index.words * 32 + 1;
    this.scratchAt = round(this.histogramAt + this.span * 4, 16);
    this.memory = new WebAssembly.Memory({ initial: Math.ceil(this.scratchAt / PAGE) + 1 });
    this.run = new WebAssembly.Instance(kernelModule(), { env: { memory: this.memory } }).exports as unknown as Exports;
    const bytes = new Uint8Array(this.memory.buffer);
    if (this.stride === index.words * 4) bytes.set(new Uint8Array(index.bits.buffer, index.bits.byteOffset, this.queryAt));
    else {
      const words = new Uint32Array(this.memory.buffer, 0, this.queryAt / 4);
      const wide = this.stride / 4;
      for (let e = 0; e < this.count; e++) words.set(index.bits.subarray(e * index.words, (e + 1) * index.words), e * wide);
    }
  }

  /**
   * The Hamming distance of every entry's sign bits to `queryBits` (the index's words), by entry, and how
   * many entries are at each distance. Views of this memory: valid until the next call.
   */
  distances(queryBits: Uint32Array): { distance: Uint16Array; histogram: Uint32Array } {
    const buffer = this.memory.buffer;
    new Uint32Array(buffer, this.queryAt, this.stride / 4).fill(0).set(queryBits);
    const histogram = new Uint32Array(buffer, this.histogramAt, this.span).fill(0);
    this.run.hamming(0, this.queryAt, this.stride, this.count, this.distancesAt, this.histogramAt);
    return { distance: new Uint16Array(buffer, this.distancesAt, this.count), histogram };
  }

  /**
   * The dot product of each of `entries`' int8 codes with `query` (integers of at most 15 bits, the
   * index's dimension), by position in `entries`: integer sums in int32, as the JavaScript before it
   * summed them (every component at its largest would pass 2^31 only beyond 516 dimensions).
   */
  dotProducts(query: Int32Array, entries: ArrayLike<number>): Int32Array {
    const { width, dimension, codes } = this;
    const queryBytes = width * 2;
    const rowsAt = this.scratchAt + round(queryBytes, 16);
    const outAt = rowsAt + round(entries.length * width, 16);
    this.reserve(outAt + entries.length * 4);
    const buffer = this.memory.buffer;
    new Int16Array(buffer, this.scratchAt, width).fill(0).set(query);
    const rows = new Int8Array(buffer, rowsAt, entries.length * width);
    for (let j = 0; j < entries.length; j++) {
      const at = entries[j]! * dimension;
      rows.set(codes.subarray(at, at + dimension), j * width);
    }
    this.run.dots(rowsAt, width, this.scratchAt, entries.length, outAt);
    return new Int32Array(buffer, outAt, entries.length);
  }

  /** Grow the memory to hold `bytes`. */
  private reserve(bytes: number): void {
    const have = this.memory.buffer.byteLength;
    if (bytes > have) this.memory.grow(Math.ceil((bytes - have) / PAGE));
  }
}

const kernels = new WeakMap<VectorIndex, VectorKernels>();

/** The kernels of `index`, made (its sign bits copied) on first use. */
export function kernelsOf(index: VectorIndex): VectorKernels {
  let k = kernels.get(index);
  if (!k) kernels.set(index, (k = new VectorKernels(index)));
  return k;
}
