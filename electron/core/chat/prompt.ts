/**
 * What the model is told: the system prompt (with the tools described in words too, because small
 * local models often ignore tool schemas), the numbered passages in a hidden context block, and the
 * conversation history — all inside the context budget.
 */
import type { ChatMessage } from '../../../shared/chat-models';
import type { Passage } from '../../../shared/models';
import { headingPathToSay, numberedParts } from '../../../shared/where';
import type { LlmMessage, LlmTool } from '../llm/types';

/** Share of the context window given to retrieved passages. Default 20 % (5–60). */
export const DEFAULT_CONTEXT_PERCENT = 20;
/** Passage budget when the model's context window is unknown, in characters. */
export const DEFAULT_CONTEXT_CHARS = 4000;
/** Characters per token assumed when turning a window in tokens into characters (Chinese ≈ 1–1.5, English ≈ 4). */
export const CHARS_PER_TOKEN = 2;

/** The passage budget in characters for a context window of `windowTokens` (null when unknown). */
export function contextBudget(windowTokens: number | null, percent = DEFAULT_CONTEXT_PERCENT): number {
  if (!windowTokens) return DEFAULT_CONTEXT_CHARS;
  return Math.max(1000, Math.floor((windowTokens * CHARS_PER_TOKEN * percent) / 100));
}

/** The tools offered to the model. */
export const TOOLS: LlmTool[] = [
  {
    name: 'kb_search',
    description: 'Search the knowledge base for passages about a query. Returns numbered passages you can cite as [n].',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'what to look for' }, topK: { type: 'integer', minimum: 1, maximum: 10 },
        multiQuery: { type: 'integer', minimum: 1, maximum: 4, description: 'also search this many rephrasings (optional)' },
        hyde: { type: 'boolean', description: 'also search by a hypothetical answer passage (optional)' },
        rerank: { type: 'boolean', description: 'rerank the results by reading them (optional, slower)' },
      },
      required: ['query'],
    },
  },
  {
    name: 'read_page',
    description: 'Read part of a knowledge-base page by its path (wiki/…), from character start to end.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string' }, start: { type: 'integer', minimum: 0 }, end: { type: 'integer', minimum: 0 } },
      required: ['path'],
    },
  },
];

/** The glossary tool, offered when the knowledge base has a glossary (issue #15). */
export const GLOSSARY_TOOL: LlmTool = {
  name: 'lookup_glossary',
  description: 'Look a term up in the knowledge base\'s glossary. Returns its definition as a numbered passage you can cite as [n].',
  parameters: {
    type: 'object',
    properties: { term: { type: 'string', description: 'the term, abbreviation or name to look up' } },
    required: ['term'],
  },
};

/** What the system prompt adds when the glossary tool is offered (small models read the prompt, not the schema). */
export const GLOSSARY_TOOL_NOTE =
  'lookup_glossary(term) gives the knowledge base\'s own definition of a term (an abbreviation, a name) as a numbered passage; definitions of terms named in the question are already among the passages.';

/** How the retrieval went, which changes what the model is asked to do. */
export type RetrievalState = 'found' | 'empty' | 'failed' | 'none';

/**
 * The system prompt. `noExactMatch`: identifiers of the question the knowledge base never holds
 * (default none); the model is told so, lest it present passages about their parts as about them.
 */
export function systemPrompt(state: RetrievalState, searchError: string | null, noExactMatch: string[] = []): string {
  const lines = [
    'You are Sift, an assistant that answers from the user\'s own knowledge base (their notes, papers, runbooks and code).',
    'Answer in the language the user writes in. Be concise and precise.',
    'Passages from the knowledge base are given as [1], [2], …. Support every statement taken from a passage with its number in square brackets, e.g. "… is 30 seconds [2]." Cite only numbers you were given. When you quote, quote the passage word for word.',
    'Never invent sources, page names or numbers. Never ask the user to paste the article or document: everything available is in the passages or reachable with the tools.',
    'Tools: kb_search(query, topK?) searches the knowledge base again and returns more numbered passages; read_page(path, start?, end?) reads a page. Call a tool only when the passages are not enough.',
  ];
  if (state === 'empty') lines.push('The knowledge base has nothing relevant to this question. Say so plainly in one or two sentences; do not ask the user to paste anything.');
  if (state === 'failed') lines.push(`Searching the knowledge base failed (${searchError ?? 'unknown error'}). Tell the user that the search failed, then answer from general knowledge if you can, clearly marked as not from their knowledge base.`);
  if (noExactMatch.length > 0) lines.push(noExactMatchNote(noExactMatch));
  return lines.join('\n');
}

/** What the model is told when identifiers of the question occur nowhere in the knowledge base. */
export function noExactMatchNote(words: string[]): string {
  const list = words.map((w) => `"${w}"`).join(', ');
  return [
    `The knowledge base contains no exact occurrence of ${list};`,
    'the passages may mention only parts of it or similar names.',
    `Say first that ${list} was not found in the knowledge base,`,
    `and never present a passage about something else as if it were about ${list}.`,
  ].join(' ');
}

/** One passage as the model sees it: number, where it is from, the text. */
export function formatPassage(p: Passage, n: number, maxChars = Infinity): string {
  const where = [p.pagePath, p.title];
  const headings = headingPathToSay(p.provenance);
  if (headings.length) where.push(headings.join(' › '));
  where.push(...numberedParts(p.provenance));
  if (p.provenance.lines) where.push(`lines ${p.provenance.lines[0]}–${p.provenance.lines[1]}`);
  if (p.version) where.push(versionNote(p.version));
  const text = p.text.length > maxChars ? `${p.text.slice(0, maxChars)}…` : p.text;
  return `[${n}] (${where.join(' · ')})\n${text}`;
}

/**
 * The passages that fit the budget, in order: whole passages while they fit; the first one is
 * always kept (cut to the budget if it alone is larger).
 */
export function fitPassages(passages: Passage[], budgetChars: number): Passage[] {
  const kept: Passage[] = [];
  let used = 0;
  for (const p of passages) {
    if (kept.length > 0 && used + p.text.length > budgetChars) break;
    kept.push(p);
    used += p.text.length;
  }
  return kept;
}

/**
 * The status of a passage's version as the model reads it: `current version v2`, `SUPERSEDED version (2023版),
 * replaced by wiki/…`, `EXPIRED version v1 (expired 2023-12-31)`, or `undated (other versions of this document exist)`.
 */
export function versionNote(v: NonNullable<Passage['version']>): string {
  const label = v.label ? ` ${v.label}` : '';
  const days = [v.effective && `effective ${v.effective}`, v.expires && `expires ${v.expires}`].filter(Boolean).join(', ');
  const when = days ? ` (${days})` : '';
  const by = v.supersededBy ? `, replaced by ${v.supersededBy}` : '';
  if (v.status === 'superseded') return `SUPERSEDED version${label}${when}${by}`;
  if (v.status === 'expired') return `EXPIRED version${label}${when}${by}`;
  if (v.status === 'undated') return 'undated (other versions of this document exist)';
  return `current version${label}${when}`;
}

/** What the model is told when some passages come from superseded or expired versions. */
export const OLD_VERSIONS_NOTE =
  'Some passages come from SUPERSEDED or EXPIRED versions of a document. Answer from the current version ' +
  'unless the question asks about an earlier one, and say so when you cite an old version.';

/** The user's message with the hidden context block of numbered passages before it. */
export function userMessageWithContext(question: string, passages: Passage[], budgetChars: number): string {
  if (passages.length === 0) return question;
  const block = passages.map((p, i) => formatPassage(p, i + 1, budgetChars)).join('\n\n');
  const old = passages.some((p) => p.version?.status === 'superseded' || p.version?.status === 'expired');
  const note = old ? `${OLD_VERSIONS_NOTE}\n\n` : '';
  return `<knowledge_base_passages>\n${block}\n</knowledge_base_passages>\n\n${note}Question: ${question}`;
}

/**
 * Earlier messages of the conversation, newest kept first, within `budgetChars` (the oldest are
 * dropped). Only the visible text is sent: the hidden context of earlier turns is not repeated.
 */
export function historyMessages(history: ChatMessage[], budgetChars: number): LlmMessage[] {
  const out: LlmMessage[] = [];
  let used = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (used + m.content.length > budgetChars) break;
    used += m.content.length;
    out.unshift({ role: m.role, content: m.content });
  }
  return out;
}
