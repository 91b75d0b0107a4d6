/**
 * The OCR graph rewrite and the protobuf code under it: the published models read and written back byte for
 * byte; rewritten, they compute what they computed (onnxruntime, same inputs); a small graph built here with
 * onnx-proto (an independent protobuf implementation) shows a convolution without bias folded, a clip that is not
 * hardswish's left alone, and the result read back by onnx-proto.
 */
import { readFileSync } from 'node:fs';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { defaultModels } from './engine';
import { fuseOcrGraph } from './graph';
import { decode, encode, varint, varints } from './protobuf';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

function randomInput(shape: number[], seed = 7): ort.Tensor {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32) - 0.5;
  return new ort.Tensor('float32', Float32Array.from({ length: shape.reduce((a, d) => a * d, 1) }, next), shape);
}

async function outputs(model: Uint8Array, input: ort.Tensor): Promise<Float32Array> {
  const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, logSeverityLevel: 2 });
  try {
    return (await session.run({ [session.inputNames[0]!]: input }))[session.outputNames[0]!]!.data as Float32Array;
  } finally {
    await session.release();
  }
}

function largestDifference(a: Float32Array, b: Float32Array): number {
  expect(b.length).toBe(a.length);
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

const opCounts = (bytes: Uint8Array) => {
  const counts = new Map<string, number>();
  for (const node of onnx.ModelProto.decode(bytes).graph!.node!) counts.set(node.opType!, (counts.get(node.opType!) ?? 0) + 1);
  return counts;
};

describe('protobuf fields', () => {
  it('reads a published model and writes it back byte for byte', () => {
    const bytes = new Uint8Array(readFileSync(defaultModels().detection));
    const again = encode(decode(bytes));
    expect(again.length).toBe(bytes.length);
    expect(Buffer.compare(Buffer.from(again), Buffer.from(bytes))).toBe(0);
  });

  it('writes varints as protobuf does, reads packed and unpacked ones, refuses a field past the end', () => {
    expect([...varint(0)]).toEqual([0]);
    expect([...varint(300)]).toEqual([0xac, 0x02]);
    // onnx-proto writes dims packed: tag, length, then the varint
    expect([...varint(2 ** 40)]).toEqual([...onnx.TensorProto.encode({ dims: [2 ** 40] }).finish()].slice(2));
    const unpacked = [{ no: 1, wire: 0 as const, raw: varint(3) }, { no: 1, wire: 0 as const, raw: varint(48) }];
    const packed = [{ no: 1, wire: 2 as const, raw: Uint8Array.from([3, 48]) }];
    expect(varints(unpacked, 1)).toEqual([3, 48]);
    expect(varints(packed, 1)).toEqual([3, 48]);
    expect(() => decode(Uint8Array.from([0x0a, 0x05, 0x01]))).toThrow(/past the end/);
    expect(() => decode(Uint8Array.from([0x08, 0x80]))).toThrow(/past the end/);
  });
});

describe('fuseOcrGraph on the published models', () => {
  const models = defaultModels();
  const cases = [
    { name: 'recognition', file: models.recognition, shape: [1, 3, 48, 320], hardswish: 28, affine: 28 },
    { name: 'detection', file: models.detection, shape: [1, 3, 320, 320], hardswish: 24, affine: 28 },
    { name: 'direction classifier', file: models.classifier, shape: [2, 3, 48, 192], hardswish: 18, affine: 0 },
  ];
  for (const c of cases) {
    it(`rewrites the ${c.name} model and computes the same outputs`, async () => {
      const published = new Uint8Array(readFileSync(c.file));
      const fused = fuseOcrGraph(published);
      expect({ hardswish: fused.hardswish, affine: fused.affine }).toEqual({ hardswish: c.hardswish, affine: c.affine });
      const before = opCounts(published);
      const after = opCounts(fused.bytes);
      expect(after.get('HardSigmoid') ?? 0).toBe((before.get('HardSigmoid') ?? 0) + c.hardswish);
      expect(after.get('Clip') ?? 0).toBe((before.get('Clip') ?? 0) - c.hardswish);
      expect(after.get('Conv')).toBe(before.get('Conv'));
      const input = randomInput(c.shape);
      expect(largestDifference(await outputs(published, input), await outputs(fused.bytes, input))).toBeLessThan(1e-4);
    }, 60_000);
  }
});

describe('fuseOcrGraph on a graph built here', () => {
  const scalar = (name: string, value: number) => ({ name, dims: [], dataType: FLOAT, floatData: [value] });
  const info = (name: string, shape: number[]) => ({
    name, type: { tensorType: { elemType: FLOAT, shape: { dim: shape.map((d) => ({ dimValue: d })) } } },
  });
  /** X → Conv (no bias) → ×2 → +0.5 → hardswish → a lookalike whose clip stops at 5 → Y. */
  function smallModel(): Uint8Array {
    const weights = { name: 'W', dims: [2, 2, 1, 1], dataType: FLOAT, floatData: [0.5, -1, 2, 0.25] };
    const node = (opType: string, input: string[], output: string[]) => ({ opType, input, output, name: output[0] });
    const graph = {
      name: 'small',
      node: [
        node('Conv', ['X', 'W'], ['c']),
        node('Mul', ['c', 's'], ['m']),
        node('Add', ['m', 'b'], ['a']),
        node('Add', ['a', 'three'], ['h1']),
        node('Clip', ['h1', 'zero', 'six'], ['h2']),
        node('Mul', ['a', 'h2'], ['h3']),
        node('Div', ['h3', 'six'], ['h']),
        node('Add', ['h', 'three'], ['k1']),
        node('Clip', ['k1', 'zero', 'five'], ['k2']),
        node('Mul', ['h', 'k2'], ['k3']),
        node('Div', ['k3', 'six'], ['Y']),
      ],
      initializer: [weights, scalar('s', 2), scalar('b', 0.5), scalar('three', 3), scalar('zero', 0), scalar('six', 6), scalar('five', 5)],
      input: [info('X', [1, 2, 3, 3])],
      output: [info('Y', [1, 2, 3, 3])],
    };
    return onnx.ModelProto.encode({ irVersion: 8, opsetImport: [{ domain: '', version: 13 }], graph }).finish();
  }

  it('folds a convolution without bias, rewrites the hardswish, leaves the lookalike, and computes the same', async () => {
    const published = smallModel();
    const fused = fuseOcrGraph(published);
    expect({ hardswish: fused.hardswish, affine: fused.affine }).toEqual({ hardswish: 1, affine: 1 });
    const graph = onnx.ModelProto.decode(fused.bytes).graph!;
    expect(graph.node!.map((n) => n.opType)).toEqual(['Conv', 'HardSigmoid', 'Mul', 'Add', 'Clip', 'Mul', 'Div']);
    const conv = graph.node![0]!;
    expect(conv.input).toEqual(['X', 'W', 'c.folded_bias']);
    const initializers = new Map(graph.initializer!.map((t) => [t.name!, t]));
    expect([...initializers.keys()].sort()).toEqual(['W', 'c.folded_bias', 'five', 'six', 'three', 'zero']);
    const floatsOf = (name: string) => Array.from(new Float32Array(new Uint8Array(initializers.get(name)!.rawData!).buffer));
    expect(floatsOf('W')).toEqual([1, -2, 4, 0.5]);
    expect(floatsOf('c.folded_bias')).toEqual([0.5, 0.5]);
    const sigmoid = graph.node![1]!;
    expect(sigmoid.input).toEqual(['a']);
    expect(Object.fromEntries(sigmoid.attribute!.map((a) => [a.name, a.f]))).toEqual({ alpha: expect.closeTo(1 / 6, 6), beta: 0.5 });
    expect(graph.node![2]!.output).toEqual(['h']);
    const input = new ort.Tensor('float32', Float32Array.from({ length: 18 }, (_, i) => i / 3 - 3), [1, 2, 3, 3]);
    expect(largestDifference(await outputs(published, input), await outputs(fused.bytes, input))).toBeLessThan(1e-6);
  });

  it('returns a graph without the patterns as it was', () => {
    const graph = {
      node: [{ opType: 'Relu', input: ['X'], output: ['Y'] }],
      input: [info('X', [1, 2])],
      output: [info('Y', [1, 2])],
    };
    const bytes = onnx.ModelProto.encode({ irVersion: 8, opsetImport: [{ version: 13 }], graph }).finish();
    const fused = fuseOcrGraph(bytes);
    expect(fused).toEqual({ bytes, hardswish: 0, affine: 0 });
  });
});
