/** Scripted answers of the mock Ollama for end-to-end tests and the development host. */
import type { MockChatReply } from '../electron/core/testing/ollama-mock';

/** Split text into streamed tokens: one word (with its trailing space) or one CJK character each. */
export function tokens(text: string): { content: string }[] {
  return (text.match(/[\p{Script=Han}。，、]|[^\s\p{Script=Han}。，、]+\s*|\s+/gu) ?? []).map((content) => ({ content }));
}

/** The answer the citing reply streams: two valid citations, one in Chinese, and one that names no passage. */
export const CITING_ANSWER =
  'The gateway gives up on an upstream call after **30 seconds** [1] and logs `E_CONN_RESET` before retrying once [2]. 部署前需要安装 Docker [1]。 See also [9].';

/** A reply that streams {@link CITING_ANSWER} token by token, `delayMs` apart (default 30). */
export function citingReply(delayMs = 30): MockChatReply {
  return { chunks: tokens(CITING_ANSWER), delayMs };
}

/**
 * The model's standalone rewrite of a follow-up (issue #15): a question asked into a conversation with history is
 * first rewritten by one short request, so a test queues this before the follow-up's answer.
 */
export function rewriteReply(query: string): MockChatReply {
  return { chunks: [{ content: query }] };
}

/** A long reply for stopping mid-stream: numbered sentences, `delayMs` apart (default 120). */
export function slowReply(delayMs = 120): MockChatReply {
  const sentences = Array.from({ length: 40 }, (_, i) => `Sentence ${i + 1} of a long answer [1].`);
  return { chunks: tokens(sentences.join(' ')), delayMs };
}
