/**
 * The retrieval log: one JSON line per chat turn in `<data dir>/logs/retrieval/YYYY-MM-DD.jsonl`,
 * so a person (or a developer) can see afterwards what each question searched and found.
 */
import fs from 'node:fs';
import path from 'node:path';

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
  results: { path: string; hitReason: string; score: number | null; start: number; end: number }[];
  contextChars: number;
  error: string | null;
  timings: { totalMs: number; searchMs: number | null; firstTokenMs: number | null };
}

/** Append one entry (creating the folder); a failure to log never fails the turn. */
export function appendRetrievalLog(logsDir: string, entry: RetrievalLogEntry): void {
  try {
    const dir = path.join(logsDir, 'retrieval');
    fs.mkdirSync(dir, { recursive: true });
    fs.appendFileSync(path.join(dir, `${entry.time.slice(0, 10)}.jsonl`), `${JSON.stringify(entry)}\n`);
  } catch (err) {
    console.error('[sift] could not write the retrieval log:', err);
  }
}
