/**
 * The shapes of conversations and chat turns: messages, the passages a turn used, the citations
 * found in the answer (validated by code, never trusted from the model), and the references list.
 */
import { z } from 'zod';
import { Passage, Provenance, SearchDepth, SearchEnhancement, Timestamp } from './models';
import { SaidMap } from './said';

/** One `[n]` in an answer, checked against the turn's passages. */
export const Citation = z.object({
  /** The number as written, 1-based. */
  number: z.number().int(),
  /** True when `number` names one of the turn's passages; invalid ones are never links. */
  valid: z.boolean(),
  /** The marker's span in the answer text. */
  markerStart: z.number().int(),
  markerEnd: z.number().int(),
  /** A quotation the answer attributes to this citation, if any. */
  quote: z.string().nullable(),
  /** Whether that quotation occurs in the passage (whitespace-normalised); null without a quote. */
  quoteVerified: z.boolean().nullable(),
});
export type Citation = z.infer<typeof Citation>;

/** One entry of the references list under an answer: built from a cited passage by code. */
export const Reference = z.object({
  number: z.number().int(),
  title: z.string(),
  pagePath: z.string(),
  provenance: Provenance,
  /** The passage text (the quote shown under the answer). */
  quote: z.string(),
  /** The passage's `focus` and `openFence`: where a preview of the quote starts, and the fence of the code
   *  block it starts inside. */
  focus: z.number().int().positive().optional(),
  openFence: z.string().optional(),
  evidenceId: z.string(),
  start: z.number().int(),
  end: z.number().int(),
});
export type Reference = z.infer<typeof Reference>;

/**
 * How the turn ended up: it answered, found nothing relevant, asked the person to clarify, or
 * produced no answer text at all (e.g. every round of the model was a tool call).
 */
export const Decision = z.enum(['answered', 'refused', 'clarification', 'no_answer']);
export type Decision = z.infer<typeof Decision>;

/** One thing a running turn did so far, as its events said it: searches, tool calls, the start of the answer. */
export const TurnStep = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('searching'), query: z.string(),
    /** The message the query was rewritten from, and how it went when not by the model. */
    rewrittenFrom: z.string().optional(),
    note: z.string().optional(),
  }),
  z.object({
    kind: z.literal('found'), count: z.number().int(), paths: z.array(z.string()),
    /** A catalogue's true count of pages holding the topic, when it lists fewer of them than that. */
    total: z.number().int().optional(),
    /** Identifier-like words of the query that occur nowhere in the knowledge base. */
    noExactMatch: z.array(z.string()).optional(),
  }),
  z.object({ kind: z.literal('empty'), noExactMatch: z.array(z.string()).optional() }),
  z.object({ kind: z.literal('search-failed'), message: z.string() }),
  z.object({ kind: z.literal('tool'), name: z.string() }),
  z.object({
    kind: z.literal('tool-result'), name: z.string(), ok: z.boolean(), summary: z.string(),
    /** The summary's code and parameters, when it is one of the core's messages. */
    said: SaidMap.optional(),
  }),
  z.object({ kind: z.literal('answering') }),
]);
export type TurnStep = z.infer<typeof TurnStep>;

/** What a turn did, stored with the assistant's message. */
export const TurnInfo = z.object({
  turnId: z.string(),
  /**
   * complete; cancelled (stopped by a person, partial answer kept); failed (partial kept); llm_unavailable
   * (extractive answer); truncated (cut at the maximum answer length or turn time, partial kept); incomplete (parts
   * of the model's stream could not be read and were dropped); interrupted (Sift itself was shutting down, partial
   * kept). `warnings` says why.
   */
  status: z.enum(['complete', 'cancelled', 'failed', 'llm_unavailable', 'truncated', 'incomplete', 'interrupted']),
  searched: z.boolean(),
  /** Why the turn did or did not search (trigger policy). */
  trigger: z.string(),
  /** Numbered passages: passage i is `[i + 1]`. */
  passages: z.array(Passage),
  citations: z.array(Citation),
  references: z.array(Reference),
  decision: Decision,
  searchError: z.string().nullable(),
  model: z.string().nullable(),
  /** The provider whose model answered ("ollama" for the built-in one); absent without a model, and on messages
   *  stored before it existed. */
  provider: z.string().optional(),
  timings: z.object({ totalMs: z.number(), searchMs: z.number().nullable(), firstTokenMs: z.number().nullable() }),
  /** What went wrong without failing the turn, for people (answer cut, unreadable model output, no answer).
   *  Absent on messages stored before it existed. */
  warnings: z.array(z.string()).optional(),
  /** The automatic search's query: rewritten from the message (`via` the model, or the previous question's key
   *  `terms` without one) or the message itself (`via` null). Absent on messages stored before it existed. */
  query: z.object({ text: z.string(), rewrittenFrom: z.string().nullable(), via: z.enum(['model', 'terms']).nullable() }).optional(),
  /** The depth the person chose for this message, when they chose one. */
  depth: SearchDepth.optional(),
  /** Stage figures of the automatic search's enhancements, when any was asked for. */
  enhance: SearchEnhancement.optional(),
  /** The model's reasoning (`reasoning_content`, `reasoning`, Ollama's `thinking` or `<think>` blocks) and how long it
   *  reasoned, ms; absent when it showed none. Shown folded under the answer; exported only when asked. */
  thinking: z.object({ text: z.string(), ms: z.number() }).optional(),
  /** What the turn did, as its events said it (searches, tools, the start of the answer), so a reloaded thread shows
   *  the same line above the answer as it did live. Absent on messages stored before it existed. */
  steps: z.array(TurnStep).optional(),
  /** The code and parameters of each core message above (warnings, search error, enhancement notes), by its English
   *  text, for the UI to say in its language (shared/said.ts). */
  said: SaidMap.optional(),
});
export type TurnInfo = z.infer<typeof TurnInfo>;

/** A message of a conversation. */
export const ChatMessage = z.object({
  id: z.string(),
  conversationId: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: Timestamp,
  /** Assistant messages: what the turn did. */
  turn: TurnInfo.nullable(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** A conversation of one knowledge base. */
export const Conversation = z.object({
  id: z.string(),
  kbId: z.string(),
  title: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  messageCount: z.number().int(),
});
export type Conversation = z.infer<typeof Conversation>;

/** Whether the Ollama server answers, and what it offers. */
export const LlmStatus = z.object({
  reachable: z.boolean(),
  host: z.string(),
  version: z.string().nullable(),
  models: z.array(z.string()),
  /** The model chat turns use (configured, or the first installed), or null. */
  model: z.string().nullable(),
  /** What is wrong and what to do, when something is. */
  message: z.string().nullable(),
  /** The provider's name when it is not the built-in Ollama. */
  provider: z.string().optional(),
  /** `message`'s code and parameters (shared/said.ts). */
  said: SaidMap.optional(),
});
export type LlmStatus = z.infer<typeof LlmStatus>;


/**
 * A turn still being answered, as a client that (re)opens its conversation needs it to keep streaming: the
 * answer so far and the steps so far. Later events of the same `turnId` continue it.
 */
export const RunningTurn = z.object({
  turnId: z.string(),
  /** The question's stored message. */
  userMessageId: z.string(),
  /** The answer streamed so far. */
  text: z.string(),
  /** The model's reasoning streamed so far (absent when none). */
  thinking: z.string().optional(),
  steps: z.array(TurnStep),
});
export type RunningTurn = z.infer<typeof RunningTurn>;
