/** The CLI's search commands: `search` (and later `eval`). */
import type { Passage, SearchEnhancement, SearchResult } from '../../shared/models';
import { ollamaHostFromEnv } from '../core/config/settings';
import { call, need, printJson, type Command } from './command';
import { enhanceOfFlags } from './enhance-flags';
import { emptyKbLine } from './hints';
import { UsageError } from './usage';
import { headingPathToSay, numberedParts } from '../../shared/where';

function where(p: Passage): string {
  const parts = [p.pagePath];
  parts.push(...numberedParts(p.provenance));
  if (p.provenance.lines) parts.push(`lines ${p.provenance.lines[0]}–${p.provenance.lines[1]}`);
  const headings = headingPathToSay(p.provenance);
  if (headings.length) parts.push(headings.join(' › '));
  if (p.version) parts.push([p.version.status, p.version.label].filter(Boolean).join(' '));
  return parts.join(' · ');
}

function figures(p: Passage): string {
  const kw = p.keywordRank === null ? 'keyword –' : `keyword #${p.keywordRank} (bm25 ${p.keywordScore?.toFixed(2)})`;
  const vec = p.vectorRank === null ? 'vector –' : `vector #${p.vectorRank} (distance ${p.vectorDistance?.toFixed(3)})`;
  const base = `${p.hitReason}; ${kw}; ${vec}; rrf ${p.rrfScore === null ? '–' : p.rrfScore.toFixed(4)}`;
  const probes = p.probes?.length ? `; probes ${p.probes.map((h) => `q${h.probe + 1} ${h.stage} #${h.rank}`).join(', ')}` : '';
  const rerank = p.rerankPosition ? `; rerank #${p.rerankPosition}${p.rerankScore == null ? '' : ` (${p.rerankScore.toFixed(3)})`}` : '';
  return base + probes + rerank;
}

/** What the enhancements did, for a terminal: the probes (q1 … as the passages name them), rerank, notes. */
function enhanceLines(e: SearchEnhancement): string[] {
  const lines = e.probes.map((p, i) => `q${i + 1} ${p.kind}: ${p.text.replace(/\s+/g, ' ').slice(0, 160)}`);
  if (e.rewrittenFrom !== null) lines.push(`(rewritten from: ${e.rewrittenFrom})`);
  if (e.rerank) lines.push(`rerank ${e.rerank.kind}: ${e.rerank.candidates} candidates, ${e.rerank.ms} ms${e.rerank.fallback ? `, fused order kept: ${e.rerank.fallback}` : ''}`);
  for (const note of e.notes) lines.push(`(${note})`);
  return lines;
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
  if (r.enhance) lines.push(...enhanceLines(r.enhance));
  if (r.passages.length === 0) lines.push('Nothing matched in this knowledge base.');
  r.passages.forEach((p, i) => {
    lines.push(`[${i + 1}] ${p.title} — ${where(p)}  [${p.start}, ${p.end})`);
    // From its focus, where its words on the query begin (the whole text stays in --json).
    const shown = p.text.slice(p.focus ?? 0).replace(/\s+/g, ' ').trim().slice(0, 240);
    lines.push(`    ${p.focus ? '…' : ''}${shown}`);
    if (p.alsoIn?.length) lines.push(`    also in: ${p.alsoIn.map((e) => e.pagePath).join(', ')}`);
    lines.push(`    ${figures(p)}`);
  });
  lines.push(`${r.mode} search, ${r.timings.totalMs.toFixed(1)} ms`);
  return lines.join('\n');
}

/** Search commands, keyed by their words. */
export const searchCommands: Record<string, Command> = {
  search: {
    words: 1,
    // The chat model writes the enhancements (--rewrite, --multi-query, --hyde, --rerank llm).
    core: (flags) => ({ chat: { host: ollamaHostFromEnv(flags['ollama-host'] ?? process.env.OLLAMA_HOST), model: flags.model } }),
    async run({ sift, args, flags, io }) {
      const [kb, query] = need(args, ['kb', 'query']);
      const topK = flags['top-k'] === undefined ? 5 : Number(flags['top-k']);
      if (!Number.isInteger(topK) || topK < 1 || topK > 50) throw new UsageError(`--top-k must be a whole number from 1 to 50, got ${flags['top-k']}`);
      const mode = flags.mode ?? 'hybrid';
      if (mode !== 'hybrid' && mode !== 'keyword' && mode !== 'vector') throw new UsageError(`--mode must be hybrid, keyword or vector, got ${mode}`);
      const enhance = enhanceOfFlags(flags);
      const history = flags.history;
      const result = await call(sift, 'search.query', { kb: kb!, query: query!, topK, mode, enhance, history });
      // Said once, beside the results, so stdout stays just the results (or the JSON) for a pipe.
      if (result.keywordOnlyReason) io.err(`sift: keyword-only search: ${result.keywordOnlyReason}`);
      const empty = result.passages.length === 0 ? await emptyKbLine(sift, kb!) : null;
      if (empty) io.err(`sift: ${empty}`);
      return flags.json ? printJson(io, result) : (io.out(formatResults(result)), 0);
    },
  },
};
