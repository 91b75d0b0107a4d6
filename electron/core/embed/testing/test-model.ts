/**
 * A tiny, real ONNX embedding model for tests and offline development. transformers.js loads it
 * through exactly the production path (tokenizer.json → ONNX Runtime → mean pooling → normalise),
 * so tests exercise the real pipeline without downloading weights.
 *
 * The graph looks each token up in an embedding matrix and zeroes padding:
 *   last_hidden_state = Gather(embeddings, input_ids) * attention_mask
 * Each row is pseudo-random, seeded by the token's text, so after mean pooling a text's vector is
 * a normalised bag of its tokens: texts sharing words (or Chinese characters) come out close.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';
import { CONTINUATION, SPECIAL_TOKENS, testModelVocabulary } from './test-model-vocab';

// onnx-proto is CommonJS: its namespace comes through the default export under ESM.
const { onnx } = onnxProto;
type Node = Onnx.INodeProto;
type Tensor = Onnx.ITensorProto;
type ValueInfo = Onnx.IValueInfoProto;

/** Options for {@link writeTestModel}. */
export interface TestModelOptions {
  /** Model id, written as `<dir>/<modelId>/…`. Default 'sift-test/tiny-embedder'. */
  modelId?: string;
  /** Vector length. Default 64 (1–4096; model.onnx grows by about 22 KB per unit, so keep it under ~90 for < 2 MB). */
  dimension?: number;
}

/** Default model id of the test model. */
export const TEST_MODEL_ID = 'sift-test/tiny-embedder';

// Special tokens are kept short so that they barely move a text's vector, yet an empty text
// (only [CLS] and [SEP]) still has a direction and normalises to a unit vector.
const SPECIAL_ROW_SCALE = 0.1;

/**
 * Write a tiny, real ONNX embedding model that transformers.js loads offline:
 * `<dir>/<modelId>/onnx/model.onnx` (+ `model_quantized.onnx` so dtype q8 works), `tokenizer.json`,
 * `tokenizer_config.json`, `config.json`. Returns the model id to pass as `modelId` with
 * `modelsDir: dir` (or `localModelDir: dir`). Deterministic: the same options write the same files.
 */
export async function writeTestModel(
  dir: string,
  options: TestModelOptions = {},
): Promise<{ modelId: string; dimension: number }> {
  const modelId = options.modelId ?? TEST_MODEL_ID;
  const dimension = options.dimension ?? 64;
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 4096) {
    throw new RangeError(`writeTestModel: dimension must be an integer from 1 to 4096, got ${dimension}`);
  }
  const vocabulary = testModelVocabulary();
  const matrix = embeddingMatrix(vocabulary, dimension);
  const modelDir = path.join(dir, ...modelId.split('/'));
  await fs.mkdir(path.join(modelDir, 'onnx'), { recursive: true });
  await Promise.all([
    fs.writeFile(path.join(modelDir, 'onnx', 'model.onnx'), floatModel(matrix, vocabulary.length, dimension)),
    fs.writeFile(path.join(modelDir, 'onnx', 'model_quantized.onnx'), int8Model(matrix, vocabulary.length, dimension)),
    writeJson(path.join(modelDir, 'tokenizer.json'), tokenizerJson(vocabulary)),
    writeJson(path.join(modelDir, 'tokenizer_config.json'), tokenizerConfig()),
    writeJson(path.join(modelDir, 'config.json'), modelConfig(vocabulary.length, dimension)),
  ]);
  return { modelId, dimension };
}

function writeJson(file: string, value: unknown): Promise<void> {
  return fs.writeFile(file, `${JSON.stringify(value, null, 1)}\n`, 'utf8');
}

/** FNV-1a over the token's UTF-16 units: a stable seed that does not depend on the token's id. */
function seedOf(token: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    hash ^= token.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash || 1; // xorshift must not start at zero
}

/** Rows of uniform values in [-1, 1) from a xorshift32 stream per token; [PAD] stays zero. */
function embeddingMatrix(vocabulary: string[], dimension: number): Float32Array {
  const matrix = new Float32Array(vocabulary.length * dimension);
  const specials = new Set<string>(SPECIAL_TOKENS);
  vocabulary.forEach((token, id) => {
    if (token === '[PAD]') return;
    const scale = specials.has(token) ? SPECIAL_ROW_SCALE : 1;
    let state = seedOf(token);
    for (let d = 0; d < dimension; d++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      state >>>= 0;
      matrix[id * dimension + d] = scale * (state / 0x80000000 - 1);
    }
  });
  return matrix;
}

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
const INT8 = onnx.TensorProto.DataType.INT8;

/** A graph input or output of element type `type` whose dimensions are all named (dynamic). */
export function tensorInput(name: string, type: number, dims: string[]): ValueInfo {
  return {
    name,
    type: { tensorType: { elemType: type, shape: { dim: dims.map((dimParam) => ({ dimParam })) } } },
  };
}

/** The bytes of a typed array, for an initializer's `rawData`. */
export function bytesOf(array: Float32Array | Int8Array | BigInt64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * The shared tail of both graphs: Gather rows for `input_ids`, then multiply by the attention mask
 * so padding contributes nothing even to callers that pool without the mask.
 */
function gatherAndMask(matrixName: string): Node[] {
  return [
    { opType: 'Gather', input: [matrixName, 'input_ids'], output: ['token_vectors'], attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }] },
    { opType: 'Cast', input: ['attention_mask'], output: ['mask_float'], attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }] },
    { opType: 'Unsqueeze', input: ['mask_float', 'last_axis'], output: ['mask_column'] },
    { opType: 'Mul', input: ['token_vectors', 'mask_column'], output: ['last_hidden_state'] },
  ];
}

function encodeModel(nodes: Node[], initializers: Tensor[]): Uint8Array {
  const lastAxis: Tensor = { name: 'last_axis', dataType: INT64, dims: [1], rawData: bytesOf(new BigInt64Array([-1n])) };
  const graph: Onnx.IGraphProto = {
    name: 'sift_tiny_embedder',
    node: nodes.map((node, i) => ({ name: `${node.opType}_${i}`, ...node })),
    initializer: [...initializers, lastAxis],
    input: [
      tensorInput('input_ids', INT64, ['batch_size', 'sequence_length']),
      tensorInput('attention_mask', INT64, ['batch_size', 'sequence_length']),
    ],
    output: [tensorInput('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', 'hidden_size'])],
  };
  const model: Onnx.IModelProto = {
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'sift-test-model',
    graph,
  };
  return onnx.ModelProto.encode(model).finish();
}

function floatModel(matrix: Float32Array, rows: number, dimension: number): Uint8Array {
  const embeddings: Tensor = { name: 'embeddings', dataType: FLOAT, dims: [rows, dimension], rawData: bytesOf(matrix) };
  return encodeModel(gatherAndMask('embeddings'), [embeddings]);
}

/** The q8 variant: the matrix stored as int8 with one scale, dequantised inside the graph. */
function int8Model(matrix: Float32Array, rows: number, dimension: number): Uint8Array {
  let largest = 0;
  for (const value of matrix) largest = Math.max(largest, Math.abs(value));
  const scale = largest / 127 || 1;
  const quantised = Int8Array.from(matrix, (value) => Math.round(value / scale));
  const initializers: Tensor[] = [
    { name: 'embeddings_int8', dataType: INT8, dims: [rows, dimension], rawData: bytesOf(quantised) },
    { name: 'embeddings_scale', dataType: FLOAT, dims: [], rawData: bytesOf(new Float32Array([scale])) },
    { name: 'embeddings_zero', dataType: INT8, dims: [], rawData: bytesOf(new Int8Array([0])) },
  ];
  const dequantise: Node = {
    opType: 'DequantizeLinear',
    input: ['embeddings_int8', 'embeddings_scale', 'embeddings_zero'],
    output: ['embeddings'],
  };
  return encodeModel([dequantise, ...gatherAndMask('embeddings')], initializers);
}

/** A BERT-style WordPiece tokenizer: lower-cases, splits Chinese per character, unknown → [UNK]. */
export function tokenizerJson(vocabulary: string[]): object {
  const vocab = Object.fromEntries(vocabulary.map((token, id) => [token, id]));
  const idOf = (token: string): number => vocab[token] as number;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: idOf(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'BertProcessing', cls: ['[CLS]', idOf('[CLS]')], sep: ['[SEP]', idOf('[SEP]')] },
    decoder: { type: 'WordPiece', prefix: CONTINUATION, cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: CONTINUATION, max_input_chars_per_word: 100, vocab },
  };
}

// No `tokenizer_class`: the generic tokenizer returns no token_type_ids, which this graph has no
// input for (a BertTokenizer would make transformers.js warn on every call).
/** The tokenizer's settings (special tokens, 512 tokens at most). */
export function tokenizerConfig(): object {
  return {
    model_max_length: 512,
    do_lower_case: true,
    clean_up_tokenization_spaces: true,
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    mask_token: '[MASK]',
  };
}

function modelConfig(vocabularySize: number, dimension: number): object {
  return {
    model_type: 'bert',
    architectures: ['BertModel'],
    hidden_size: dimension,
    vocab_size: vocabularySize,
    max_position_embeddings: 512,
    num_hidden_layers: 0,
    pad_token_id: 0,
  };
}
