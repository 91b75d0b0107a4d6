/**
 * The OpenAI chat wire format, both ways: Sift's messages and tools in OpenAI's shape (tool calls given ids the tool
 * results answer), and the streamed deltas back into Sift's chunks — text through the `<think>` splitter,
 * `reasoning_content` as thinking, tool-call pieces assembled into whole calls.
 */
import type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { ThinkSplitter } from './think-tags';
import type { LlmChatRequest, LlmChunk, LlmMessage, LlmToolCall } from './types';

/**
 * Turns streamed deltas into chunks: text through the `<think>` splitter, `reasoning_content` as thinking, tool-call
 * pieces gathered by index and given out whole when the choice finishes.
 */
export class StreamAssembly {
  private readonly think = new ThinkSplitter();
  private readonly calls = new Map<number, { name: string; arguments: string }>();
  private reason: string | null = null;
  private tokens: number | null = null;
  finished = false;

  *add(chunk: ChatCompletionChunk): Generator<LlmChunk> {
    if (typeof chunk.usage?.completion_tokens === 'number') this.tokens = chunk.usage.completion_tokens;
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = (choice.delta ?? {}) as ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown };
    const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
    if (typeof reasoning === 'string' && reasoning) yield { type: 'thinking', text: reasoning };
    if (typeof delta.content === 'string' && delta.content) yield* this.think.push(delta.content);
    for (const piece of delta.tool_calls ?? []) {
      const call = this.calls.get(piece.index) ?? { name: '', arguments: '' };
      call.name += piece.function?.name ?? '';
      call.arguments += piece.function?.arguments ?? '';
      this.calls.set(piece.index, call);
    }
    if (choice.finish_reason) {
      this.finished = true;
      this.reason = choice.finish_reason;
    }
  }

  *end(): Generator<LlmChunk> {
    yield* this.think.flush();
    if (this.calls.size > 0) {
      const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
      yield { type: 'tool_calls', calls: ordered.map((call) => ({ name: call.name, arguments: parsedArguments(call.arguments) })) };
    }
    yield { type: 'done', reason: this.reason, evalCount: this.tokens };
  }
}

/** Arguments arrive as JSON text: an object when it parses, else the raw text as the model wrote it (the turn
 *  recovers or answers it with a hint). Empty text is `{}`. */
function parsedArguments(text: string): unknown {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The request body. No `stream_options`: some compatible servers refuse fields they do not know, and the token
 *  count it would add is only reported, never needed (a server that sends usage anyway is read). */
export function chatBody(request: LlmChatRequest) {
  const options = request.options ?? {};
  const maxTokens = typeof options.num_predict === 'number' ? options.num_predict : undefined;
  const temperature = typeof options.temperature === 'number' ? options.temperature : undefined;
  return {
    model: request.model,
    messages: toOpenAiMessages(request.messages),
    stream: true as const,
    ...(request.tools?.length ? { tools: request.tools.map(toOpenAiTool) } : {}),
    ...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
  };
}

/**
 * The conversation in OpenAI's shape. Our calls carry no ids, so each assistant call gets one, and the tool results
 * that follow it (in call order, as the agent loop appends them) answer those ids in turn.
 */
export function toOpenAiMessages(messages: LlmMessage[]): ChatCompletionMessageParam[] {
  const pending: string[] = [];
  return messages.map((message, m): ChatCompletionMessageParam => {
    if (message.role === 'assistant' && message.toolCalls?.length) {
      const ids = message.toolCalls.map((_call, i) => `call_${m}_${i}`);
      pending.splice(0, pending.length, ...ids);
      const tool_calls = message.toolCalls.map((call, i) => ({
        id: ids[i]!, type: 'function' as const, function: { name: call.name, arguments: argumentsText(call) },
      }));
      return { role: 'assistant', content: message.content || null, tool_calls };
    }
    if (message.role === 'tool') return { role: 'tool', tool_call_id: pending.shift() ?? `call_${m}`, content: message.content };
    return { role: message.role, content: message.content };
  });
}

function argumentsText(call: LlmToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
}

function toOpenAiTool(tool: { name: string; description: string; parameters: object }): ChatCompletionTool {
  const parameters = tool.parameters as Record<string, unknown>;
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
}
