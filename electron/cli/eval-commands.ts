/** The CLI's evaluation command: `sift eval DATASET`, retrieval quality of a dataset in a throw-away knowledge base. */
import { SiftError } from '../../shared/errors';
import { embeddingConfigFromEnv } from '../core';
import { DEFAULT_SPLIT, judgedQueries, loadDataset } from '../core/eval/dataset';
import { SCORE_NAMES, type QueryScores } from '../core/eval/metrics';
import { runEval, type EvalReport } from '../core/eval/runner';
import { dataPaths, resolveDataDir } from '../core/base/paths';
import { need, printJson, table, type Command, type CommandInput } from './command';
import { parseEnhanceList } from './enhance-flags';
import { ollamaHostFromEnv } from '../core/config/settings';
import { UsageError } from './usage';

/** The flags `eval` reads; `--split` is its own, and `--data-dir` decides whether downloads are kept. */
type EvalFlags = CommandInput['flags'] & { split?: string; 'data-dir'?: string };

const HEADERS: Record<(typeof SCORE_NAMES)[number], string> = {
  hitAt5: 'Hit@5', recallAt5: 'Recall@5', recallAt20: 'Recall@20', mrrAt10: 'MRR@10', ndcgAt10: 'nDCG@10',
};

const figures = (s: QueryScores) => SCORE_NAMES.map((name) => s[name].toFixed(3));
const millis = (ms: number | null) => (ms === null ? '–' : `${ms.toFixed(1)} ms`);

/** An evaluation report for a terminal: what ran, the figures overall and per category, latency, warnings. */
export function formatReport(r: EvalReport): string {
  const lines = [
    `${r.dataset} (${r.format} format, split ${r.split}) — ${r.ranMode ?? r.mode} search, top ${r.topK}${r.embeddingModel ? `, ${r.embeddingModel}` : ''}`,
  ];
  if (r.keywordOnlyReason) lines.push(`keyword-only although ${r.mode} was asked: ${r.keywordOnlyReason}`);
  if (r.enhance) lines.push(`enhance    ${describeEnhance(r.enhance)}`);
  lines.push(`documents  ${r.documents.indexed} indexed, ${r.documents.failed} failed`);
  lines.push(`queries    ${r.queries.evaluated} evaluated, ${r.queries.skipped} skipped (no relevant document in qrels/${r.split}.tsv)`);
  lines.push('');
  const rows = [['', 'QUERIES', ...SCORE_NAMES.map((n) => HEADERS[n])], ['all', String(r.queries.evaluated), ...figures(r.overall)]];
  for (const c of r.categories) rows.push([c.name, String(c.queries), ...figures(c.scores)]);
  lines.push(table(rows));
  lines.push('');
  lines.push(`latency    p50 ${millis(r.latencyMs.p50)}, p95 ${millis(r.latencyMs.p95)} per query`);
  lines.push(`elapsed    indexing ${(r.elapsedMs.ingest / 1000).toFixed(1)} s, searching ${(r.elapsedMs.search / 1000).toFixed(1)} s`);
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

/** An EnhanceRequest as the `--enhance` list that asks for it. */
function describeEnhance(e: NonNullable<EvalReport['enhance']>): string {
  const parts = [e.rewrite !== undefined && `rewrite=${e.rewrite}`, e.multiQuery !== undefined && `multi-query=${e.multiQuery}`,
    e.hyde !== undefined && `hyde=${e.hyde}`, e.rerank !== undefined && `rerank=${e.rerank ?? 'none'}`];
  return parts.filter(Boolean).join(', ') || 'settings defaults';
}

/** `--top-k` and `--mode` for eval, or a usage error. */
function readFlags(flags: EvalFlags): { topK: number; mode: 'hybrid' | 'keyword' | 'vector'; split: string } {
  const topK = flags['top-k'] === undefined ? 20 : Number(flags['top-k']);
  if (!Number.isInteger(topK) || topK < 1 || topK > 50) throw new UsageError(`--top-k must be a whole number from 1 to 50, got ${flags['top-k']}`);
  const mode = flags.mode ?? 'hybrid';
  if (mode !== 'hybrid' && mode !== 'keyword' && mode !== 'vector') throw new UsageError(`--mode must be hybrid, keyword or vector, got ${mode}`);
  return { topK, mode, split: flags.split ?? DEFAULT_SPLIT };
}

/** Evaluation commands, keyed by their words. */
export const evalCommands: Record<string, Command> = {
  eval: {
    words: 1,
    async run({ args, flags, io }) {
      const [dir] = need(args, ['dataset']);
      const { topK, mode, split } = readFlags(flags as EvalFlags);
      const namedDataDir = (flags as EvalFlags)['data-dir'] ?? process.env.SIFT_DATA_DIR;
      const dataset = loadDataset(dir!, split);
      if (judgedQueries(dataset).length === 0) {
        throw new SiftError('invalid_argument', `eval: no query of ${dataset.dir} has a relevant document in qrels/${split}.tsv`);
      }
      const progress = process.stderr.isTTY ? (line: string) => io.err(line) : undefined;
      const report = await runEval(dataset, {
        mode,
        topK,
        embedding: embeddingConfigFromEnv(),
        // The model the app and other commands downloaded is reused. One downloaded now is kept only in a data
        // folder the person named: eval must not write into their everyday one (it opens no core there either).
        modelsDir: dataPaths(resolveDataDir(namedDataDir)).models,
        modelsReadOnly: !namedDataDir,
        onProgress: progress,
        enhance: flags.enhance === undefined ? undefined : parseEnhanceList(flags.enhance),
        chat: { host: ollamaHostFromEnv(flags['ollama-host'] ?? process.env.OLLAMA_HOST), model: flags.model },
      });
      return flags.json ? printJson(io, report) : (io.out(formatReport(report)), 0);
    },
  },
};
