/** The CLI's page-digest command: `digest KB [--on|--off]`. */
import type { DigestStatus } from '../../shared/models';
import { ollamaHostFromEnv, type Sift } from '../core';
import { call, need, printJson, type Command, type CommandIo } from './command';
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

/** The page being written now, as a progress line: `digesting 2/5 wiki/b.md`. */
function progressLine(s: DigestStatus): string | null {
  if (s.state !== 'running' || s.currentPage === null) return null;
  const counted = s.currentPage.startsWith('wiki/_digest/') ? 'overview' : `${s.pagesDone + 1}/${s.pagesTotal}`;
  return `digesting ${counted} ${s.currentPage}`;
}

/**
 * Say on stderr which page is being digested while `kbId`'s run goes (each is a model call of seconds): an updating
 * line on a terminal, one line per page otherwise (a log). Returns the function that stops it.
 */
function showProgress(sift: Sift, kbId: string, io: CommandIo): () => void {
  const tty = process.stderr.isTTY;
  let last = '';
  const stop = sift.onEvent((event, payload) => {
    const s = payload as DigestStatus;
    const line = event === 'digests.progress' && s.kbId === kbId ? progressLine(s) : null;
    if (line === null || line === last) return;
    last = line;
    if (tty) process.stderr.write(`\r\x1b[2K${line.slice(0, (process.stderr.columns || 80) - 1)}`);
    else io.err(line);
  });
  return () => {
    stop();
    if (tty && last) process.stderr.write('\r\x1b[2K');
  };
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
      const kbId = (await call(sift, 'kb.list', {})).find((k) => k.id === kb || k.name === kb)?.id;
      const stopProgress = kbId ? showProgress(sift, kbId, io) : () => undefined;
      const status = await sift.digest(kb!).finally(stopProgress);
      if (flags.json) printJson(io, status);
      else io.out(formatDigestSummary(status));
      return status.state === 'done' ? 0 : 1;
    },
  },
};
