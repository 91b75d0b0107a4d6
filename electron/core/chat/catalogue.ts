/**
 * The answer to a catalogue question ("which of my notes mention X?"): the pages search found for X,
 * one line each, with the best passage of each page quoted and cited. Built by code from the search
 * results, so every page listed is one that matched and every citation opens its passage.
 */
import type { Citation } from '../../../shared/chat-models';
import { quoteInline, withoutHeadingMarks } from '../../../shared/markdown-text';
import type { Passage } from '../../../shared/models';
import { markdownProse } from './extractive';

/** Pages a catalogue answer lists at most. */
export const CATALOGUE_PAGES = 12;
/** Longest quote of a page's best passage, in characters. */
const QUOTE_MAX = 160;

/** The first (best-ranked) passage of each page, in rank order, at most `limit` pages. */
export function bestPassagePerPage(passages: Passage[], limit = CATALOGUE_PAGES): Passage[] {
  const seen = new Set<string>();
  const best: Passage[] = [];
  for (const p of passages) {
    if (seen.has(p.pagePath)) continue;
    seen.add(p.pagePath);
    best.push(p);
    if (best.length === limit) break;
  }
  return best;
}

/** How many pages hold the topic, for the answer's first sentence. */
export interface CatalogueCount {
  /** Pages that hold the topic whole (a true count, not the length of the list). */
  count: number;
  /** When none does: the topic's parts and how many pages hold one of them (the pages listed then). */
  parts?: string[];
  partCount?: number;
}

/** The quote of `text` for a list line, heading marks left out: from a little before the first occurrence of
 *  one of `needles` (the topic, or its parts) when that lies beyond the quote's reach, so the line shows it. */
function quoteAround(passage: Passage, needles: string[]): string {
  const text = /\.(?:md|markdown|mdx)$/i.test(passage.pagePath) ? markdownProse(passage.text) : withoutHeadingMarks(passage.text);
  const lower = text.toLowerCase();
  const at = Math.min(...needles.map((n) => lower.indexOf(n.toLowerCase())).filter((i) => i >= 0), Number.MAX_SAFE_INTEGER);
  if (at === Number.MAX_SAFE_INTEGER || at < QUOTE_MAX - 40) return quoteInline(text, QUOTE_MAX);
  const space = text.lastIndexOf(' ', at - 40);
  const from = space > 0 ? space + 1 : at - 40;
  return `…${quoteInline(text.slice(from), QUOTE_MAX)}`;
}

/** The answer's first sentence. */
function heading(what: string, shown: number, counted: CatalogueCount, zh: boolean): string {
  if (counted.count === 0) {
    const parts = counted.parts ?? [];
    const named = parts.map((p) => `“${quoteInline(p)}”`).join(zh ? '、' : ', ');
    const n = counted.partCount ?? shown;
    const showing = n > shown ? (zh ? `，显示其中 ${shown} 个` : `, showing ${shown}`) : '';
    return zh
      ? `没有页面原样提到“${what}”；有 ${n} 个页面提到它的一部分（${named}${showing}）：\n\n`
      : `No page mentions “${what}” as written; ${n} ${n === 1 ? 'page mentions' : 'pages mention'} parts of it (${named}${showing}):\n\n`;
  }
  const n = counted.count;
  if (zh) {
    const showing = n > shown ? `显示其中 ${shown} 个，` : '';
    return `知识库中有 ${n} 个页面提到“${what}”（${showing}按相关度排列，每页引用最相关的一段）：\n\n`;
  }
  const showing = n > shown ? `showing ${shown}, ` : '';
  return `${n} ${n === 1 ? 'page mentions' : 'pages mention'} “${what}” (${showing}most relevant first, each with its best passage):\n\n`;
}

/**
 * The catalogue answer for `topic` over `pages` (one passage per page, numbered from 1), in Chinese when
 * `zh`: a sentence saying how many pages hold the topic (`counted`, true of the whole knowledge base, with
 * how many are shown when fewer; or that none holds it whole and how many hold parts of it), then each
 * page's title, path and quoted passage with its `[n]`. The citations are made with the text, one per page.
 */
export function catalogueAnswer(topic: string, pages: Passage[], zh: boolean, counted: CatalogueCount = { count: pages.length }): { text: string; citations: Citation[] } {
  const what = quoteInline(topic);
  let text = heading(what, pages.length, counted, zh);
  const citations: Citation[] = [];
  pages.forEach((p, i) => {
    const number = i + 1;
    text += `${i > 0 ? '\n' : ''}${number}. **${quoteInline(p.title)}** (\`${p.pagePath}\`) — ${quoteAround(p, counted.count > 0 ? [topic] : counted.parts ?? [])} `;
    const markerStart = text.length;
    text += `[${number}]`;
    citations.push({ number, valid: true, markerStart, markerEnd: text.length, quote: null, quoteVerified: null });
  });
  return { text, citations };
}
