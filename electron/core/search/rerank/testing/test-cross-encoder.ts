/**
 * A tiny, real ONNX cross-encoder for tests: a sequence-classification model that transformers.js loads offline
 * (AutoTokenizer + AutoModelForSequenceClassification) through exactly the reranker's production path.
 *
 * It reads one text pair, `[CLS] query [SEP] passage [SEP]`, and its single logit is the number of the query's word
 * tokens that also occur in the passage — so its ranking is predictable: the passage holding more of the query's
 * words comes first, and a passage sharing none scores 0. The graph, over token ids only:
 *   segment   = CumSum(input_ids == [SEP])            0 in the query, 1 in the passage
 *   word      = (input_ids > last special id) * attention_mask
 *   inQuery   = word * (segment == 0);  inPassage = word * (segment == 1)
 *   logits    = Σ_i inQuery_i * max_j (inPassage_j * (input_ids_i == input_ids_j))        shape [batch, 1]
 * The tokenizer and vocabulary are the tiny embedding model's (`embed/test-model.ts`).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';
import { bytesOf, tensorInput, tokenizerConfig, tokenizerJson } from '../../../embed/testing/test-model';
import { SPECIAL_TOKENS, testModelVocabulary } from '../../../embed/testing/test-model-vocab';

// onnx-proto is CommonJS: its namespace comes through the default export under ESM.
const { onnx } = onnxProto;
type Node = Onnx.INodeProto;
type Tensor = Onnx.ITensorProto;

/** Default model id of the test cross-encoder. */
export const TEST_CROSS_ENCODER_ID = 'sift-test/tiny-cross-encoder';

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;
const INT = onnx.AttributeProto.AttributeType.INT;
const INTS = onnx.AttributeProto.AttributeType.INTS;

/**
 * Write the tiny cross-encoder as `<dir>/<modelId>/…`: `onnx/model.onnx` and the same graph as
 * `onnx/model_quantized.onnx` (it has no weights to quantise, so dtype q8 loads too), `tokenizer.json`,
 * `tokenizer_config.json`, `config.json`. Returns the id to pass as `modelId` with `modelsDir: dir`.
 */
export async function writeTestCrossEncoder(
  dir: string,
  modelId = TEST_CROSS_ENCODER_ID,
): Promise<{ modelId: string }> {
  const vocabulary = testModelVocabulary();
  const sepId = vocabulary.indexOf('[SEP]');
  const modelDir = path.join(dir, ...modelId.split('/'));
  const graph = crossEncoderModel(sepId, SPECIAL_TOKENS.length - 1);
  await fs.mkdir(path.join(modelDir, 'onnx'), { recursive: true });
  await Promise.all([
    fs.writeFile(path.join(modelDir, 'onnx', 'model.onnx'), graph),
    fs.writeFile(path.join(modelDir, 'onnx', 'model_quantized.onnx'), graph),
    writeJson(path.join(modelDir, 'tokenizer.json'), tokenizerJson(vocabulary)),
    writeJson(path.join(modelDir, 'tokenizer_config.json'), tokenizerConfig()),
    writeJson(path.join(modelDir, 'config.json'), modelConfig(vocabulary.length)),
  ]);
  return { modelId };
}

function writeJson(file: string, value: unknown): Promise<void> {
  return fs.writeFile(file, `${JSON.stringify(value, null, 1)}\n`, 'utf8');
}

function int64(name: string, values: bigint[], dims: number[] = [values.length]): Tensor {
  return { name, dataType: INT64, dims, rawData: bytesOf(new BigInt64Array(values)) };
}

function floatScalar(name: string, value: number): Tensor {
  return { name, dataType: FLOAT, dims: [], rawData: bytesOf(new Float32Array([value])) };
}

function toFloat(input: string, output: string): Node {
  return { opType: 'Cast', input: [input], output: [output], attribute: [{ name: 'to', type: INT, i: FLOAT }] };
}

function axes(values: number[]): Onnx.IAttributeProto {
  return { name: 'axes', type: INTS, ints: values };
}

function keepdims(keep: 0 | 1): Onnx.IAttributeProto {
  return { name: 'keepdims', type: INT, i: keep };
}

/** The graph of the file comment; `lastSpecial` is the highest id of a special token (ids above it are words). */
function crossEncoderModel(sepId: number, lastSpecial: number): Uint8Array {
  const nodes: Node[] = [
    // Which positions are words of the query, which of the passage.
    { opType: 'Equal', input: ['input_ids', 'sep_id'], output: ['is_sep'] },
    toFloat('is_sep', 'is_sep_f'),
    { opType: 'CumSum', input: ['is_sep_f', 'seq_axis'], output: ['segment'] },
    { opType: 'Greater', input: ['input_ids', 'last_special'], output: ['is_word'] },
    toFloat('is_word', 'is_word_f'),
    toFloat('attention_mask', 'mask_f'),
    { opType: 'Mul', input: ['is_word_f', 'mask_f'], output: ['word'] },
    { opType: 'Equal', input: ['segment', 'zero'], output: ['in_first'] },
    toFloat('in_first', 'in_first_f'),
    { opType: 'Mul', input: ['word', 'in_first_f'], output: ['in_query'] },
    { opType: 'Equal', input: ['segment', 'one'], output: ['in_second'] },
    toFloat('in_second', 'in_second_f'),
    { opType: 'Mul', input: ['word', 'in_second_f'], output: ['in_passage'] },
    // same[b, i, j] = input_ids[b, i] == input_ids[b, j], kept where i is in the query and j in the passage.
    { opType: 'Unsqueeze', input: ['input_ids', 'axis_2'], output: ['ids_rows'] },
    { opType: 'Unsqueeze', input: ['input_ids', 'axis_1'], output: ['ids_cols'] },
    { opType: 'Equal', input: ['ids_rows', 'ids_cols'], output: ['same'] },
    toFloat('same', 'same_f'),
    { opType: 'Unsqueeze', input: ['in_query', 'axis_2'], output: ['query_rows'] },
    { opType: 'Unsqueeze', input: ['in_passage', 'axis_1'], output: ['passage_cols'] },
    { opType: 'Mul', input: ['same_f', 'query_rows'], output: ['same_query'] },
    { opType: 'Mul', input: ['same_query', 'passage_cols'], output: ['hits'] },
    // A query word counts once however often the passage repeats it.
    { opType: 'ReduceMax', input: ['hits'], output: ['found'], attribute: [axes([2]), keepdims(0)] },
    { opType: 'ReduceSum', input: ['found', 'axis_1'], output: ['logits'], attribute: [keepdims(1)] },
  ];
  const graph: Onnx.IGraphProto = {
    name: 'sift_tiny_cross_encoder',
    node: nodes.map((node, i) => ({ name: `${node.opType}_${i}`, ...node })),
    initializer: [
      int64('sep_id', [BigInt(sepId)], []),
      int64('last_special', [BigInt(lastSpecial)], []),
      int64('seq_axis', [1n], []),
      int64('axis_1', [1n]),
      int64('axis_2', [2n]),
      floatScalar('zero', 0),
      floatScalar('one', 1),
    ],
    input: [
      tensorInput('input_ids', INT64, ['batch_size', 'sequence_length']),
      tensorInput('attention_mask', INT64, ['batch_size', 'sequence_length']),
    ],
    output: [tensorInput('logits', FLOAT, ['batch_size', 'num_labels'])],
  };
  const opsetImport = [{ domain: '', version: 13 }];
  const model: Onnx.IModelProto = { irVersion: 7, opsetImport, producerName: 'sift-test-model', graph };
  return onnx.ModelProto.encode(model).finish();
}

function modelConfig(vocabularySize: number): object {
  return {
    model_type: 'bert',
    architectures: ['BertForSequenceClassification'],
    vocab_size: vocabularySize,
    max_position_embeddings: 512,
    num_hidden_layers: 0,
    num_labels: 1,
    id2label: { 0: 'LABEL_0' },
    label2id: { LABEL_0: 0 },
    pad_token_id: 0,
  };
}
