/** The CLI's page-digest command: `digest KB [--on|--off]`. */
import type { DigestStatus } from '../../shared/models';
import { ollamaHostFromEnv } from '../core';
import { call, need, printJson, type Command } from './command';
import { UsageError } from './usage';

/** The summary printed when a digest run ends. */
export function formatDigestSummary(s: DigestStatus): string {
  const lines = [`digests   ${s.state}${s.model ? ` with ${s.model}` : ''}`];
  if (s.message) lines.push(s.message);
  if (s.state !== 'off' && s.state !== 'skipped') {
    lines.push(`pages     ${s.pagesDone}/${s.pagesTotal} digested (${s.unchanged} unchanged)`);
    lines.push(`written   ${s.generated}, removed ${s.removed}, stored ${s.stored}`);
  }
  for (const p of s.problems) lines.push(`${p.status.padEnd(8)} ${p.path}: ${p.reason}`);
  return lines.join('\n');
}

/** Page-digest commands, keyed by their words. */
export const digestCommands: Record<string, Command> = {
  digest: {
    words: 1,
    core: (flags) => {
      const host = ollamaHostFromEnv(flags['ollama-host'] ?? process.env.OLLAMA_HOST);
      return { chat: { host, model: flags.model } };
    },
    async run({ sift, args, flags, io }) {
      const [kb] = need(args, ['kb']);
      if (flags.on && flags.off) throw new UsageError('choose one of --on and --off. See sift --help.');
      if (flags.on || flags.off) {
        const status = await call(sift, 'digests.setEnabled', { kb: kb!, enabled: flags.on === true });
        if (flags.json && flags.off) return printJson(io, status);
        if (flags.off) return (io.out(`page digests are off; ${status.removed} removed`), 0);
      }
      const status = await sift.digest(kb!);
      if (flags.json) printJson(io, status);
      else io.out(formatDigestSummary(status));
      return status.state === 'done' ? 0 : 1;
    },
  },
};
