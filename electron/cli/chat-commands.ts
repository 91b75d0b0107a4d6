/** The CLI's chat command: `sift ask` streams an answer and prints its references. */
import { randomUUID } from 'node:crypto';
import type { ChatMessage, Reference } from '../../shared/chat-models';
import type { EventName } from '../../shared/contract';
import { ollamaHostFromEnv } from '../core';
import { call, need, type Command } from './command';

function formatReference(r: Reference): string {
  const where = [r.pagePath];
  if (r.provenance.pdfPages) where.push(`p. ${r.provenance.pdfPages.join('–')}`);
  if (r.provenance.lines) where.push(`lines ${r.provenance.lines.join('–')}`);
  if (r.provenance.headingPath.length) where.push(r.provenance.headingPath.join(' › '));
  return `[${r.number}] ${r.title} — ${where.join(' · ')}`;
}

/** Chat commands, keyed by their words. */
export const chatCommands: Record<string, Command> = {
  ask: {
    words: 1,
    core: (flags) => ({ chat: { host: ollamaHostFromEnv(flags['ollama-host'] ?? process.env.OLLAMA_HOST), model: flags.model } }),
    async run({ sift, args, flags, io }) {
      const [kb, question] = need(args, ['kb', 'question']);
      const turnId = randomUUID();
      const events: { event: EventName; payload: unknown }[] = [];
      const finished = new Promise<{ ok: boolean; message: ChatMessage | null; error?: string }>((resolve) => {
        sift.onEvent((event, payload) => {
          if ((payload as { turnId?: string }).turnId !== turnId) return;
          events.push({ event: event as EventName, payload });
          if (event === 'answer.token' && !flags.json) (io.write ?? io.out)((payload as { text: string }).text);
          if (event === 'search.failed' && !flags.json) io.err(`(search failed: ${(payload as { message: string }).message})`);
          if (event === 'answer.done') resolve({ ok: true, message: (payload as { message: ChatMessage }).message });
          if (event === 'answer.failed') {
            const p = payload as { message: string; partial: ChatMessage | null };
            resolve({ ok: false, message: p.partial, error: p.message });
          }
        });
      });
      const sent = await call(sift, 'chat.send', { kb: kb!, message: question!, conversationId: flags.conversation, model: flags.model, turnId });
      const end = await finished;
      const turn = end.message?.turn ?? null;
      if (flags.json) {
        io.out(JSON.stringify({ conversationId: sent.conversationId, answer: end.message?.content ?? '', citations: turn?.citations ?? [], references: turn?.references ?? [], decision: turn?.decision ?? null, status: turn?.status ?? 'failed', error: end.error ?? null, events }, null, 2));
        return end.ok ? 0 : 1;
      }
      io.out('');
      if (turn && turn.decision !== 'answered') io.out(`(${turn.decision})`);
      if (turn?.references.length) io.out(`\nReferences:\n${turn.references.map(formatReference).join('\n')}`);
      if (!end.ok) io.err(`sift: the answer failed: ${end.error}`);
      io.err(`conversation ${sent.conversationId}`);
      return end.ok ? 0 : 1;
    },
  },
};
