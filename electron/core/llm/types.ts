/**
 * What the rest of Sift sees of a chat model: messages in, a stream of chunks out. Nothing here names
 * Ollama's wire format, so the chat turn can be tested against any client that keeps this shape.
 */

/** A tool call as the model made it. `arguments` is kept as received: an object, or a raw string from a broken model. */
export interface LlmToolCall {
  name: string;
  arguments: unknown;
}

/** One message of a conversation sent to the model. */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** On an assistant message: the tools it asked for, so the model sees its own earlier calls. */
  toolCalls?: LlmToolCall[];
  /** On a tool message: which tool produced this result. */
  toolName?: string;
}

/** A tool the model may call, described by a JSON schema of its arguments. */
export interface LlmTool {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: object;
}

/** One piece of a streamed answer. */
export type LlmChunk =
  | { type: 'token'; text: string }
  /**
   * Reasoning text. `takesBack`: the last that many characters this stream gave as `token` were reasoning after all
   * (a server whose template opened `<think>` in the prompt sends only the closing tag); they lead `text`, and the
   * receiver removes them from the answer.
   */
  | { type: 'thinking'; text: string; takesBack?: number }
  | { type: 'tool_calls'; calls: LlmToolCall[] }
  /** A line of the server's NDJSON stream that is not JSON; it carried nothing usable and was dropped. */
  | { type: 'unreadable'; line: string }
  /** The last chunk: why the model stopped (`stop`, `length`, …) and how many tokens it produced, when the server says. */
  | { type: 'done'; reason: string | null; evalCount: number | null };

/** A chat request. */
export interface LlmChatRequest {
  /** Model name as installed, e.g. `qwen3:4b`. */
  model: string;
  messages: LlmMessage[];
  /** Tools offered to the model; omitted from the request when empty. */
  tools?: LlmTool[];
  /** Turn reasoning on or off. Omit to leave the model's own default. */
  think?: boolean;
  /** Aborting it ends the stream with SiftError('cancelled') and closes the HTTP request. */
  signal?: AbortSignal;
  /** Model options passed through untouched (e.g. `num_ctx`, `temperature`). */
  options?: Record<string, unknown>;
}

/** How to reach the model server and how long to wait for it. */
export interface LlmClientOptions {
  /** Address of the Ollama server: a URL, or `host[:port]` as in OLLAMA_HOST. Default 'http://127.0.0.1:11434'. */
  host?: string;
  /** Time to get response headers, ms (for small requests: the whole answer). Default 10000; sensible
   *  1000–120000. */
  connectTimeoutMs?: number;
  /** Longest silence between streamed chunks, ms (a model loading into memory is silent too). Default 60000;
   *  sensible 1000–600000. */
  idleTimeoutMs?: number;
}

/** A reachability report; never an exception. */
export interface LlmPing {
  ok: boolean;
  /** Server version when reachable. */
  version: string | null;
  /** Why it is not reachable, for people. */
  message: string | null;
}

/** An installed model. */
export interface LlmModel {
  name: string;
  /** Size on disk, when the server says. */
  sizeBytes: number | null;
}

/** A client for one model server. Every failure is a SiftError with a stable code. */
export interface LlmClient {
  /** The server address this client talks to. */
  readonly host: string;
  /** What to call the server in messages to people: the provider's name. Absent: "Ollama". */
  readonly label?: string;
  /** Installed models (`/api/tags`), names sorted. */
  listModels(): Promise<LlmModel[]>;
  /** The model's context window from `/api/show` (model_info `*.context_length`, else `num_ctx` in parameters); null
   *  when unknown. An uninstalled model is SiftError('llm_error') suggesting `ollama pull`. */
  contextLength(model: string): Promise<number | null>;
  /** Stream a chat. Always streaming; the request is sent when iteration starts. `think` toggles reasoning (omit when
   *  the caller doesn't choose). Abort with `signal`: the iterator ends by throwing SiftError('cancelled'); what was
   *  yielded before stays with the caller. Breaking out of the loop early also closes the request. */
  chat(request: LlmChatRequest): AsyncIterable<LlmChunk>;
  /** Cheap reachability check (`/api/version`), never throws. */
  ping(): Promise<LlmPing>;
}
