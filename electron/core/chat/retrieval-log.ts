/**
 * The retrieval log: one JSON line per chat turn in `<data dir>/logs/retrieval/YYYY-MM-DD.jsonl`,
 * so a person (or a developer) can see afterwards what each question searched and found.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Passage, SearchEnhancement } from '../../../shared/models';
import { ensurePrivateDir, PRIVATE_FILE_MODE, tightenFile } from '../store/private';

/** One line of the retrieval log. */
export interface RetrievalLogEntry {
  time: string;
  conversationId: string;
  kbId: string | null;
  /** The first 120 characters of the question. */
  messagePreview: string;
  triggered: boolean;
  trigger: string;
  explicitRefs: string[];
  /** `probes` and `rerankPosition`/`rerankScore`: an enhanced search's figures (absent on a plain one). */
  results: {
    path: string; hitReason: string; score: number | null; start: number; end: number;
    probes?: { probe: number; stage: string; rank: number }[]; rerankPosition?: number | null; rerankScore?: number | null;
  }[];
  contextChars: number;
  error: string | null;
  timings: { totalMs: number; searchMs: number | null; firstTokenMs: number | null };
  /** The query the automatic search ran, and the message it was rewritten from (`rewrittenVia` model or terms). */
  query?: string;
  rewrittenFrom?: string | null;
  rewrittenVia?: 'model' | 'terms' | null;
  /** The depth the person chose for the message. */
  depth?: string;
  /** The search enhancements' probes, rerank, notes and times. */
  enhance?: { probes: { kind: string; text: string }[]; applied: unknown; rerank: unknown; notes: string[]; ms: unknown };
}

/** Append one entry (creating the folder); a failure to log never fails the turn. */
export function appendRetrievalLog(logsDir: string, entry: RetrievalLogEntry): void {
  try {
    const dir = path.join(logsDir, 'retrieval');
    ensurePrivateDir(dir);
    const file = path.join(dir, `${entry.time.slice(0, 10)}.jsonl`);
    // The questions people ask are as private as their notes: owner-only, also for a day's file made before.
    fs.appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: PRIVATE_FILE_MODE });
    tightenFile(file);
  } catch (err) {
    console.error('[sift] could not write the retrieval log:', err);
  }
}

/** A passage as one retrieval-log result: where, why, its score, and the enhanced search's figures when there are. */
export function logResult(p: Passage) {
  const base = { path: p.pagePath, hitReason: p.hitReason, score: p.rrfScore, start: p.start, end: p.end };
  const probes = p.probes ? { probes: p.probes } : {};
  const rerank = p.rerankPosition !== undefined ? { rerankPosition: p.rerankPosition, rerankScore: p.rerankScore ?? null } : {};
  return { ...base, ...probes, ...rerank };
}

/** The enhancements' figures for the log: probes by kind (HyDE text shortened), rerank, notes and times. */
export function logEnhance(e: SearchEnhancement) {
  const probes = e.probes.map((p) => ({ kind: p.kind, text: p.kind === 'hyde' ? p.text.slice(0, 120) : p.text }));
  return { probes, applied: e.applied, rerank: e.rerank, notes: e.notes, ms: e.ms };
}
