/**
 * Writing one digest: the numbered passages the model reads, the instruction, and the check of its reply.
 * The reply is validated as an answer is (chat/answer-check.ts): every `[n]` must name a passage given, a
 * quotation attributed to `[n]` must be in passage n, and every key point must cite one. A reply that
 * fails is not stored; the reason is reported instead.
 */
import type Database from 'better-sqlite3';
import type { Passage } from '../../../shared/models';
import { parseCitationMarkers } from '../../../shared/citations';
import { checkCitations, decide } from '../chat/answer-check';
import { formatPassage } from '../chat/prompt';
import type { LlmMessage } from '../llm/types';
import { buildPassage, loadPages } from '../search/passages';

/** Characters of a page the model reads for its digest. Default 6,000 (whole chunks; at least the first). */
export const PAGE_CHARS = 6000;
/** Characters of the page digests the model reads for the overview. Default 12,000. */
export const OVERVIEW_CHARS = 12_000;

type Span = { start: number; end: number };

/** The opening chunks of a page as passages, within `chars` characters (the first chunk always). */
export function pagePassages(db: Database.Database, pageId: number, chars = PAGE_CHARS): Passage[] {
  const page = loadPages(db, [pageId]).get(pageId);
  if (!page) return [];
  const spans = db.prepare(`SELECT start, end FROM chunks WHERE page_id = ? ORDER BY idx`).all(pageId) as Span[];
  const passages: Passage[] = [];
  let used = 0;
  for (const s of spans) {
    if (passages.length > 0 && used + (s.end - s.start) > chars) break;
    passages.push(buildPassage(page, s.start, s.end, [], 'body'));
    used += s.end - s.start;
  }
  return passages;
}

/** Each page digest's key points (its text before the sources list) as one passage, within `chars` characters. */
export function digestPassages(db: Database.Database, pageIds: number[], chars = OVERVIEW_CHARS): Passage[] {
  const pages = loadPages(db, pageIds);
  const passages: Passage[] = [];
  let used = 0;
  for (const id of pageIds) {
    const page = pages.get(id);
    if (!page) continue;
    const end = page.headings.find((h) => h.text === SOURCES)?.start ?? page.text.length;
    const passage = buildPassage(page, 0, end, [], 'body');
    if (passages.length > 0 && used + passage.text.length > chars) break;
    passages.push(passage);
    used += passage.text.length;
  }
  return passages;
}

const PAGE_INSTRUCTION = [
  'You write the digest of one page of the person\'s notes: its 3 to 6 key points as a Markdown bullet list.',
  'Every point is one short sentence and ends with the number of the passage it comes from in square brackets,',
  'like [2]. Use only the numbered passages. Write in the language of the page. No introduction, no heading,',
  'nothing after the list.',
].join(' ');

const OVERVIEW_INSTRUCTION = [
  'You write the overview of a whole knowledge base from the digests of its pages: up to 8 bullet points naming its',
  'main topics. Every point is one short sentence and ends with the numbers of the digests it draws on in square',
  'brackets, like [1][3]. Use only the numbered digests. No introduction, no heading, nothing after the list.',
].join(' ');

const PAGE_ASK = 'Write the digest of this page.';
const OVERVIEW_ASK = 'Write the overview of this knowledge base.';

/** The messages asking for a page's digest. */
export function pageMessages(title: string, path: string, passages: Passage[]): LlmMessage[] {
  const block = passages.map((p, i) => formatPassage(p, i + 1)).join('\n\n');
  return [
    { role: 'system', content: PAGE_INSTRUCTION },
    { role: 'user', content: `<page path="${path}" title="${title}">\n${block}\n</page>\n\n${PAGE_ASK}` },
  ];
}

/** The messages asking for the knowledge base's overview. */
export function overviewMessages(passages: Passage[]): LlmMessage[] {
  const block = passages.map((p, i) => formatPassage(p, i + 1)).join('\n\n');
  return [
    { role: 'system', content: OVERVIEW_INSTRUCTION },
    { role: 'user', content: `<page_digests>\n${block}\n</page_digests>\n\n${OVERVIEW_ASK}` },
  ];
}

/** A checked reply: its key points, or why it is refused. */
export type CheckedDigest = { ok: true; points: string[] } | { ok: false; reason: string };

const BULLET = /^\s*(?:[-*•]|\d+[.)])\s+(.*\S)\s*$/;

/**
 * Check a model's digest reply against the passages it was given (passage i is `[i + 1]`): at least one
 * key point; every citation names a given passage; every quotation is found in the passage it is
 * attributed to; every key point cites a passage. The decision must be `answered`, as for an answer.
 */
export function checkDigest(reply: string, passages: Passage[]): CheckedDigest {
  const points = reply.split('\n').map((line) => BULLET.exec(line)?.[1]).filter((p): p is string => p !== undefined);
  if (points.length === 0) return { ok: false, reason: 'the reply has no key points (a bullet list was asked for)' };
  const { citations } = checkCitations(reply, passages);
  const invalid = citations.find((c) => !c.valid);
  if (invalid) {
    return { ok: false, reason: `it cites [${invalid.number}], but only ${passages.length} passages were given` };
  }
  const misquoted = citations.find((c) => c.quoteVerified === false);
  if (misquoted) return { ok: false, reason: `a quotation attributed to [${misquoted.number}] is not in that passage` };
  const uncited = points.findIndex((p) => parseCitationMarkers(p).length === 0);
  if (uncited !== -1) return { ok: false, reason: `key point ${uncited + 1} cites no passage` };
  if (decide(reply, citations, false) !== 'answered') {
    return { ok: false, reason: 'the reply does not summarise the passages' };
  }
  return { ok: true, points };
}

/** The heading of a digest's sources list, which the overview leaves out of what it reads. */
const SOURCES = 'Sources';

/**
 * A digest page's Markdown: a heading, the key points as written (their `[n]` kept), and the sources list
 * saying which passage each number is (page, heading path, character span), for people and for search.
 */
export function digestMarkdown(title: string, points: string[], passages: Passage[]): string {
  const cited = new Set(points.flatMap((p) => parseCitationMarkers(p).flatMap((m) => m.numbers)));
  const sources = [...cited].sort((a, b) => a - b).map((n) => {
    const p = passages[n - 1]!;
    const where = [p.pagePath, ...(p.provenance.headingPath.length ? [p.provenance.headingPath.join(' › ')] : [])];
    return `- [${n}] ${where.join(' · ')} (characters ${p.start}–${p.end})`;
  });
  return `# ${title}\n\n${points.map((p) => `- ${p}`).join('\n')}\n\n## ${SOURCES}\n\n${sources.join('\n')}\n`;
}
