/**
 * The cross-encoder worker thread: loads a transformers.js tokenizer and sequence-classification model once, then
 * scores batches of (query, passage) pairs. ONNX Runtime's Node binding runs a model on the calling JavaScript
 * thread, so scoring a few dozen pairs with a real reranker (seconds on a laptop CPU) happens here, never on the
 * thread that answers the window. Messages go through `workers/rpc.ts`; download progress comes back as notes.
 */
import {
  AutoModelForSequenceClassification,
  AutoTokenizer,
  env,
  type PreTrainedModel,
  type PreTrainedTokenizer,
  type Tensor,
} from '@huggingface/transformers';
import {
  applyHubSettings,
  progressForwarder,
  type FileProgress,
  type HubSettings,
  type ModelDtype,
} from '../../embed/model-files';
import { serveRequests } from '../../workers/rpc';

/** Load the model (the first request; its notes are the download or load progress). */
export interface LoadRequest {
  type: 'load';
  modelId: string;
  dtype: ModelDtype;
  hub: HubSettings;
}

/** Score each pair (query, passages[i]); passages are already cut to length. */
export interface ScoreRequest {
  type: 'score';
  query: string;
  passages: string[];
  /** Tokens of one pair at most (the model's own limit also applies). */
  maxTokens: number;
}

/** Any request to the worker. */
export type RerankRequest = LoadRequest | ScoreRequest;

/** The worker's answer: nothing for a load, one relevance score per passage for a score request. */
export type RerankReply = { type: 'loaded' } | { type: 'scores'; scores: number[] };

let loaded: { tokenizer: PreTrainedTokenizer; model: PreTrainedModel } | null = null;

async function load(request: LoadRequest, note: (progress: FileProgress) => void): Promise<RerankReply> {
  applyHubSettings(env, request.hub);
  const progress_callback = progressForwarder(request.hub.onDisk, note);
  const tokenizer = await AutoTokenizer.from_pretrained(request.modelId, { progress_callback });
  const modelOptions = { dtype: request.dtype, device: 'cpu', progress_callback } as const;
  const model = await AutoModelForSequenceClassification.from_pretrained(request.modelId, modelOptions);
  loaded = { tokenizer, model };
  return { type: 'loaded' };
}

async function score(request: ScoreRequest): Promise<RerankReply> {
  if (!loaded) throw new Error('the model is not loaded');
  const { passages, maxTokens } = request;
  const inputs = loaded.tokenizer(
    passages.map(() => request.query),
    { text_pair: passages, padding: true, truncation: true, max_length: maxTokens },
  );
  const output = (await loaded.model(inputs)) as { logits?: Tensor };
  if (!output.logits) throw new Error('the model gave no logits; is it a sequence-classification model?');
  return { type: 'scores', scores: relevance(output.logits) };
}

/**
 * One relevance score per row of `logits` [pairs, labels]: the logit itself for a one-label model (most
 * rerankers), the last label's logit minus the first's (the log-odds of "relevant") for a two-or-more-label one.
 */
function relevance(logits: Tensor): number[] {
  const [rows, labels] = logits.dims as [number, number];
  const data = logits.data as Float32Array;
  const scores: number[] = [];
  for (let row = 0; row < rows; row++) {
    const first = data[row * labels] as number;
    scores.push(labels > 1 ? (data[row * labels + labels - 1] as number) - first : first);
  }
  return scores;
}

serveRequests<RerankRequest, RerankReply, FileProgress>(
  (request, note) => (request.type === 'load' ? load(request, note) : score(request)),
  () => [],
  // Closing: release the ONNX session before the thread ends.
  async () => {
    await loaded?.model.dispose();
    loaded = null;
  },
);
