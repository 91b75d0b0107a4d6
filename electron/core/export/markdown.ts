/**
 * Exporting answers as Markdown with their sources kept: every valid `[n]` becomes a footnote
 * holding the quoted passage, its page path and its page number or heading. Invalid citations stay
 * plain text — an export never turns a number the model made up into a source.
 */
import type { ChatMessage, Conversation } from '../../../shared/chat-models';
import { closeOpenFences } from '../../../shared/citations';
import { quoteInline } from '../../../shared/markdown-text';
import type { Passage } from '../../../shared/models';
import { safeMarkdownLinks } from './links';

/** Longest quote in a footnote, in characters. */
const QUOTE_MAX = 600;

/** Where a passage is, for a footnote: `Title — \`wiki/path\`, p. 3` or `…, Heading › Sub`. */
export function sourceLine(p: Passage): string {
  const parts = [`\`${p.pagePath}\``];
  const pdf = p.provenance.pdfPages;
  const headings = p.provenance.headingPath.map((h) => quoteInline(h));
  if (pdf) parts.push(pdf[0] === pdf[1] ? `p. ${pdf[0]}` : `pp. ${pdf[0]}–${pdf[1]}`);
  else if (headings.length) parts.push(headings.join(' › '));
  if (p.provenance.lines) parts.push(`lines ${p.provenance.lines[0]}–${p.provenance.lines[1]}`);
  return `${quoteInline(p.title)} — ${parts.join(', ')}`;
}

/** Footnote ids handed out across one export, so two answers never share a label. */
export class FootnoteCounter {
  private next = 1;
  /** A fresh footnote id. */
  take(): number {
    return this.next++;
  }
}

/** One answer with its citations turned into footnote references, and the footnote definitions. */
export function footnotedAnswer(message: ChatMessage, counter: FootnoteCounter): { body: string; notes: string[] } {
  const turn = message.turn;
  if (!turn) return { body: message.content, notes: [] };
  const ids = new Map<number, number>();
  const notes: string[] = [];
  const idOf = (n: number): number => {
    let id = ids.get(n);
    if (id === undefined) {
      id = counter.take();
      ids.set(n, id);
      const p = turn.passages[n - 1]!;
      notes.push(`[^${id}]: “${quoteInline(p.text, QUOTE_MAX)}”\n    ${sourceLine(p)}`);
    }
    return id;
  };
  const byMarker = new Map<number, { end: number; numbers: { n: number; valid: boolean }[] }>();
  for (const c of turn.citations) {
    const m = byMarker.get(c.markerStart) ?? { end: c.markerEnd, numbers: [] };
    m.numbers.push({ n: c.number, valid: c.valid });
    byMarker.set(c.markerStart, m);
  }
  let body = '';
  let at = 0;
  for (const [start, m] of [...byMarker].sort((a, b) => a[0] - b[0])) {
    body += message.content.slice(at, start);
    body += m.numbers.map(({ n, valid }) => (valid ? `[^${idOf(n)}]` : `\\[${n}\\]`)).join('');
    at = m.end;
  }
  body += message.content.slice(at);
  // A fence the answer never closed would run over everything after it, footnotes included.
  body = closeOpenFences(body);
  if (turn.status === 'cancelled') body += '\n\n_(stopped before the end)_';
  return { body, notes };
}

/** What to export: a conversation, or one answer of it (with the question before it). */
export interface ExportSource {
  conversation: Conversation;
  kbName: string;
  messages: ChatMessage[];
  /** Export only this assistant message. */
  messageId?: string;
  /** ISO date of the export (a parameter so exports are reproducible in tests). */
  exportedAt: string;
}

/** The messages an export covers: all, or the chosen answer and the question right before it. */
export function selectMessages(source: ExportSource): ChatMessage[] {
  if (!source.messageId) return source.messages;
  const i = source.messages.findIndex((m) => m.id === source.messageId);
  if (i < 0) return [];
  const answer = source.messages[i]!;
  const question = answer.role === 'assistant' && source.messages[i - 1]?.role === 'user' ? [source.messages[i - 1]!] : [];
  return [...question, answer];
}

/** The whole export as Markdown with footnotes. */
export function toMarkdown(source: ExportSource): string {
  const counter = new FootnoteCounter();
  const parts = [`# ${source.conversation.title}`, `_Exported from Sift on ${source.exportedAt.slice(0, 10)} · knowledge base “${source.kbName}”_`];
  const notes: string[] = [];
  for (const m of selectMessages(source)) {
    if (m.role === 'user') {
      parts.push(`## ${m.content.replace(/\s+/g, ' ').trim()}`);
      continue;
    }
    const answer = footnotedAnswer(m, counter);
    parts.push(answer.body.trim());
    notes.push(...answer.notes);
  }
  if (notes.length) parts.push(notes.join('\n\n'));
  return safeMarkdownLinks(`${parts.join('\n\n')}\n`);
}
