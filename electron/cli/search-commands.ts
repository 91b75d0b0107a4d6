/** The CLI's search commands: `search` (and later `eval`). */
import type { Passage, SearchResult } from '../../shared/models';
import { call, need, printJson, type Command } from './command';
import { UsageError } from './usage';

function where(p: Passage): string {
  const parts = [p.pagePath];
  if (p.provenance.pdfPages) parts.push(`p. ${p.provenance.pdfPages[0]}${p.provenance.pdfPages[1] !== p.provenance.pdfPages[0] ? `–${p.provenance.pdfPages[1]}` : ''}`);
  if (p.provenance.lines) parts.push(`lines ${p.provenance.lines[0]}–${p.provenance.lines[1]}`);
  if (p.provenance.headingPath.length) parts.push(p.provenance.headingPath.join(' › '));
  if (p.version) parts.push([p.version.status, p.version.label].filter(Boolean).join(' '));
  return parts.join(' · ');
}

function figures(p: Passage): string {
  const kw = p.keywordRank === null ? 'keyword –' : `keyword #${p.keywordRank} (bm25 ${p.keywordScore?.toFixed(2)})`;
  const vec = p.vectorRank === null ? 'vector –' : `vector #${p.vectorRank} (distance ${p.vectorDistance?.toFixed(3)})`;
  return `${p.hitReason}; ${kw}; ${vec}; rrf ${p.rrfScore === null ? '–' : p.rrfScore.toFixed(4)}`;
}

/** Search results for a terminal (the keyword-only note is not among them: it goes to stderr, see `search`). */
export function formatResults(r: SearchResult): string {
  const lines: string[] = [];
  for (const m of r.missingRefs) lines.push(`(no page ${m})`);
  for (const j of r.rejectedRefs) lines.push(`(ignored [[${j.raw}]]: ${j.reason})`);
  if (r.noExactMatch.length) {
    const words = r.noExactMatch.join(', ');
    lines.push(`(no exact match for ${words} in this knowledge base: passages below match only other words or parts)`);
  }
  if (r.passages.length === 0) lines.push('Nothing matched in this knowledge base.');
  r.passages.forEach((p, i) => {
    lines.push(`[${i + 1}] ${p.title} — ${where(p)}  [${p.start}, ${p.end})`);
    lines.push(`    ${p.text.replace(/\s+/g, ' ').trim().slice(0, 240)}`);
    lines.push(`    ${figures(p)}`);
  });
  lines.push(`${r.mode} search, ${r.timings.totalMs.toFixed(1)} ms`);
  return lines.join('\n');
}

/** Search commands, keyed by their words. */
export const searchCommands: Record<string, Command> = {
  search: {
    words: 1,
    async run({ sift, args, flags, io }) {
      const [kb, query] = need(args, ['kb', 'query']);
      const topK = flags['top-k'] === undefined ? 5 : Number(flags['top-k']);
      if (!Number.isInteger(topK) || topK < 1 || topK > 50) throw new UsageError(`--top-k must be a whole number from 1 to 50, got ${flags['top-k']}`);
      const mode = flags.mode ?? 'hybrid';
      if (mode !== 'hybrid' && mode !== 'keyword' && mode !== 'vector') throw new UsageError(`--mode must be hybrid, keyword or vector, got ${mode}`);
      const result = await call(sift, 'search.query', { kb: kb!, query: query!, topK, mode });
      // Said once, beside the results, so stdout stays just the results (or the JSON) for a pipe.
      if (result.keywordOnlyReason) io.err(`sift: keyword-only search: ${result.keywordOnlyReason}`);
      return flags.json ? printJson(io, result) : (io.out(formatResults(result)), 0);
    },
  },
};
