/**
 * Evidence from the whole section around a chunk: bm25 of the query's terms over the section's
 * text, so a section that discusses the question across several chunks is not judged by its best
 * 500 characters alone (a chunk cut mid-argument scores half of what the section deserves). The
 * keyword stage fuses this section score with the chunk's own rank.
 */
import type Database from 'better-sqlite3';
import { tokenize } from '../text/tokenize';

/** bm25 term-frequency saturation. Default 1.2 (the usual 1.2–2.0). */
export const SECTION_K1 = 1.2;
/** bm25 length normalisation. Default 0.75 (0 none – 1 full). */
export const SECTION_B = 0.75;
/**
 * Most characters of a section read for its evidence, centred on the chunk that found it. Keeps the
 * cost of a query bounded when a page has no headings (one section of a whole book). 3000 scored
 * SciFact as 6000 did (most abstracts are shorter).
 */
export const SECTION_WINDOW = 3000;
/**
 * Sections read per query, those of the best chunks first; chunks of the others keep their own score
 * and so rank below them. Bounds the tokenizing a query costs (20 × 3000 characters at most).
 */
export const SECTIONS_READ = 20;

/** A chunk the keyword stage found, with where it lies. */
export interface PlacedHit {
  chunkId: number;
  score: number;
  sectionId: number;
  pageId: number;
  start: number;
  end: number;
}

/** Inverse document frequency of each term, from the chunk-level vocabulary (a fair proxy at section level). */
function inverseFrequencies(db: Database.Database, terms: string[]): Map<string, number> {
  const chunks = db.prepare(`SELECT count(*) FROM chunks`).pluck().get() as number;
  const frequency = db.prepare(`SELECT doc FROM chunks_vocab WHERE term = ?`).pluck();
  const idf = new Map<string, number>();
  for (const term of terms) {
    const df = (frequency.get(term) as number | undefined) ?? 0;
    idf.set(term, Math.log(1 + (chunks - df + 0.5) / (df + 0.5)));
  }
  return idf;
}

/** The text read for each section: the whole section, or a window of it around its best chunk. */
function sectionTexts(db: Database.Database, hits: PlacedHit[]): Map<number, string> {
  const section = db.prepare(`SELECT start, end FROM sections WHERE id = ?`);
  const text = db.prepare(`SELECT substr(text, ? + 1, ?) FROM pages WHERE id = ?`).pluck();
  const texts = new Map<number, string>();
  for (const hit of hits) {
    if (texts.has(hit.sectionId)) continue;
    if (texts.size >= SECTIONS_READ) break;
    const span = section.get(hit.sectionId) as { start: number; end: number } | undefined;
    if (!span) continue;
    const middle = (hit.start + hit.end) >> 1;
    const from = Math.max(span.start, Math.min(middle - SECTION_WINDOW / 2, span.end - SECTION_WINDOW));
    const to = Math.min(span.end, from + SECTION_WINDOW);
    texts.set(hit.sectionId, (text.get(from, to - from, hit.pageId) as string | undefined) ?? '');
  }
  return texts;
}

/**
 * bm25 of `terms` over the sections of `hits` (one score per section id; the average section
 * length is that of these sections, which is all the comparison among them needs).
 */
export function sectionScores(db: Database.Database, terms: string[], hits: PlacedHit[]): Map<number, number> {
  const texts = sectionTexts(db, hits);
  const idf = inverseFrequencies(db, terms);
  const counts = new Map<number, { length: number; tf: Map<string, number> }>();
  for (const [id, text] of texts) {
    const tokens = tokenize(text);
    const tf = new Map<string, number>();
    for (const token of tokens) if (idf.has(token)) tf.set(token, (tf.get(token) ?? 0) + 1);
    counts.set(id, { length: tokens.length, tf });
  }
  let total = 0;
  for (const c of counts.values()) total += c.length;
  const average = Math.max(1, total / Math.max(1, counts.size));
  const scores = new Map<number, number>();
  for (const [id, { length, tf }] of counts) {
    let score = 0;
    const norm = SECTION_K1 * (1 - SECTION_B + (SECTION_B * length) / average);
    for (const [term, n] of tf) score += idf.get(term)! * ((n * (SECTION_K1 + 1)) / (n + norm));
    scores.set(id, score);
  }
  return scores;
}
