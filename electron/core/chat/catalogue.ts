/**
 * The answer to a catalogue question ("which of my notes mention X?"): the pages search found for X,
 * one line each, with the best passage of each page quoted and cited. Built by code from the search
 * results, so every page listed is one that matched and every citation opens its passage.
 */
import type { Citation } from '../../../shared/chat-models';
import { quoteInline } from '../../../shared/markdown-text';
import type { Passage } from '../../../shared/models';

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

/**
 * The catalogue answer for `topic` over `pages` (one passage per page, numbered from 1), in Chinese when
 * `zh`: a sentence saying how many pages matched, then each page's title, path and quoted best passage
 * with its `[n]`. The citations are made with the text, one per page.
 */
export function catalogueAnswer(topic: string, pages: Passage[], zh: boolean): { text: string; citations: Citation[] } {
  const what = quoteInline(topic);
  let text = zh
    ? `知识库中有 ${pages.length} 个页面提到“${what}”（按相关度排列，每页引用最相关的一段）：\n\n`
    : `${pages.length} ${pages.length === 1 ? 'page mentions' : 'pages mention'} “${what}” (most relevant first, each with its best passage):\n\n`;
  const citations: Citation[] = [];
  pages.forEach((p, i) => {
    const number = i + 1;
    text += `${i > 0 ? '\n' : ''}${number}. **${quoteInline(p.title)}** (\`${p.pagePath}\`) — ${quoteInline(p.text, QUOTE_MAX)} `;
    const markerStart = text.length;
    text += `[${number}]`;
    citations.push({ number, valid: true, markerStart, markerEnd: text.length, quote: null, quoteVerified: null });
  });
  return { text, citations };
}
