/**
 * Exporting answers as Markdown with their sources kept: every valid `[n]` becomes a footnote
 * holding the quoted passage, its page path and its page number or heading. Invalid citations stay
 * plain text — an export never turns a number the model made up into a source.
 */
import type { ChatMessage, Conversation } from '../../../shared/chat-models';
import { closeOpenFences } from '../../../shared/citations';
import { quoteInline, withoutHeadingMarks } from '../../../shared/markdown-text';
import type { Passage } from '../../../shared/models';
import { questionText } from '../chat/title';
import { safeMarkdownLinks } from './links';
import { neutralRawHtml } from './raw-html';

/** Longest quote in a footnote, in characters. */
const QUOTE_MAX = 600;

/** The language of an export: one per document, so its own words never mix English and Chinese. */
export type ExportLanguage = 'en' | 'zh-CN';

/** The words an export adds around the conversation, per language. */
const WORDS = {
  en: {
    exported: (date: string, kb: string) => `_Exported from Sift on ${date} · knowledge base “${kb}”_`,
    stopped: '_(stopped before the end)_',
    interrupted: '_(cut off: Sift was shutting down while this answer was written)_',
    unresolved: (n: number) => `\\[${n}: unresolved\\]`,
    page: (a: number, b: number) => (a === b ? `p. ${a}` : `pp. ${a}–${b}`),
    lines: (a: number, b: number) => `lines ${a}–${b}`,
    slide: (a: number, b: number) => (a === b ? `slide ${a}` : `slides ${a}–${b}`),
    chapter: (a: number, b: number) => (a === b ? `chapter ${a}` : `chapters ${a}–${b}`),
    rows: (a: number, b: number) => (a === b ? `row ${a}` : `rows ${a}–${b}`),
    sheet: (name: string) => `sheet ${name}`,
    comma: ', ',
    thought: (s: number) => `**The model's reasoning** (${s} s)`,
    version: { current: 'current version', superseded: 'superseded version', expired: 'expired version', undated: 'undated version' },
  },
  'zh-CN': {
    exported: (date: string, kb: string) => `_由 Sift 导出于 ${date} · 知识库“${kb}”_`,
    stopped: '_（回答在结束前被停止）_',
    interrupted: '_（回答被中断：撰写时 Sift 正在关闭）_',
    unresolved: (n: number) => `\\[${n}：无效引用\\]`,
    page: (a: number, b: number) => (a === b ? `第 ${a} 页` : `第 ${a}–${b} 页`),
    lines: (a: number, b: number) => `第 ${a}–${b} 行`,
    slide: (a: number, b: number) => (a === b ? `第 ${a} 张幻灯片` : `第 ${a}–${b} 张幻灯片`),
    chapter: (a: number, b: number) => (a === b ? `第 ${a} 章` : `第 ${a}–${b} 章`),
    rows: (a: number, b: number) => (a === b ? `第 ${a} 行` : `第 ${a}–${b} 行`),
    sheet: (name: string) => `工作表 ${name}`,
    comma: '，',
    thought: (s: number) => `**模型的推理过程**（${s} 秒）`,
    version: { current: '现行版本', superseded: '已被取代的版本', expired: '已失效的版本', undated: '未注明版本' },
  },
} satisfies Record<ExportLanguage, unknown>;

/**
 * The one language of an export: Chinese when a question it covers is written in Chinese (or, with
 * no question, an answer is), else English.
 */
export function exportLanguage(messages: ChatMessage[]): ExportLanguage {
  const han = (m: ChatMessage) => /\p{Script=Han}/u.test(m.content);
  const questions = messages.filter((m) => m.role === 'user');
  return (questions.length ? questions.some(han) : messages.some(han)) ? 'zh-CN' : 'en';
}

/** Where a passage is, for a footnote: `Title — \`wiki/path\`, p. 3` or `…, Heading › Sub`, then its version when
 *  it has one (`…, superseded version v1`) (default English). */
export function sourceLine(p: Passage, lang: ExportLanguage = 'en'): string {
  const words = WORDS[lang];
  const parts = [`\`${p.pagePath}\``];
  const pdf = p.provenance.pdfPages;
  const headings = p.provenance.headingPath.map((h) => quoteInline(h));
  const prov = p.provenance;
  if (pdf) parts.push(words.page(pdf[0], pdf[1]));
  if (prov.slides) parts.push(words.slide(prov.slides[0], prov.slides[1]));
  if (prov.chapters) parts.push(words.chapter(prov.chapters[0], prov.chapters[1]));
  if (prov.sheet) parts.push(words.sheet(quoteInline(prov.sheet)));
  if (prov.rows) parts.push(words.rows(prov.rows[0], prov.rows[1]));
  if (!pdf && !prov.rows && !prov.sheet && headings.length) parts.push(headings.join(' › '));
  if (p.provenance.lines) parts.push(words.lines(p.provenance.lines[0], p.provenance.lines[1]));
  if (p.version) {
    const label = p.version.label ? ` ${quoteInline(p.version.label)}` : '';
    parts.push(`${words.version[p.version.status]}${label}`);
  }
  return `${quoteInline(p.title)} — ${parts.join(words.comma)}`;
}

/** Footnote ids handed out across one export, so two answers never share a label. */
export class FootnoteCounter {
  private next = 1;
  /** A fresh footnote id. */
  take(): number {
    return this.next++;
  }
}

/**
 * One answer with its citations turned into footnote references, and the footnote definitions. A
 * citation no passage stands behind stays as text, marked unresolved (default language English).
 */
export function footnotedAnswer(
  message: ChatMessage,
  counter: FootnoteCounter,
  lang: ExportLanguage = 'en',
): { body: string; notes: string[] } {
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
      // A passage's own heading marks would show as `## ` inside the quote.
      notes.push(`[^${id}]: “${quoteInline(withoutHeadingMarks(p.text), QUOTE_MAX)}”\n    ${sourceLine(p, lang)}`);
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
    body += m.numbers.map(({ n, valid }) => (valid ? `[^${idOf(n)}]` : WORDS[lang].unresolved(n))).join('');
    at = m.end;
  }
  body += message.content.slice(at);
  // A fence the answer never closed would run over everything after it, footnotes included.
  body = closeOpenFences(body);
  if (turn.status === 'cancelled') body += `\n\n${WORDS[lang].stopped}`;
  if (turn.status === 'interrupted') body += `\n\n${WORDS[lang].interrupted}`;
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
  /** Put each answer's reasoning (when the model showed some) before it, as a quotation. Default false: an export
   *  holds answers, not the model's scratch work. */
  includeThinking?: boolean;
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

/** The export's title: one answer's own question, else the conversation's title. */
export function exportTitle(source: ExportSource): string {
  const question = source.messageId ? selectMessages(source).find((m) => m.role === 'user') : undefined;
  return (question && questionText(question.content)) || source.conversation.title;
}

/** The whole export as Markdown with footnotes. */
export function toMarkdown(source: ExportSource): string {
  const counter = new FootnoteCounter();
  const messages = selectMessages(source);
  const lang = exportLanguage(messages);
  const parts = [`# ${exportTitle(source)}`, WORDS[lang].exported(source.exportedAt.slice(0, 10), source.kbName)];
  const notes: string[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      // One answer's question is already its title.
      if (!source.messageId) parts.push(`## ${questionText(m.content)}`);
      continue;
    }
    const thinking = m.turn?.thinking;
    if (source.includeThinking && thinking?.text.trim()) parts.push(thinkingBlock(thinking, lang));
    const answer = footnotedAnswer(m, counter, lang);
    parts.push(answer.body.trim());
    notes.push(...answer.notes);
  }
  if (notes.length) parts.push(notes.join('\n\n'));
  return safeMarkdownLinks(neutralRawHtml(`${parts.join('\n\n')}\n`));
}

/** An answer's reasoning as a quotation under a heading line with its duration. */
function thinkingBlock(thinking: { text: string; ms: number }, lang: ExportLanguage): string {
  const seconds = Math.max(1, Math.round(thinking.ms / 1000));
  const lines = [WORDS[lang].thought(seconds), '', ...thinking.text.trim().split('\n')];
  return lines.map((line) => (line ? `> ${line}` : '>')).join('\n');
}
