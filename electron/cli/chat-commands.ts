/** The CLI's chat command: `sift ask` streams an answer and prints its references. */
import { randomUUID } from 'node:crypto';
import { ReadableMarkdown } from '../../shared/markdown-text';
import type { ChatMessage, Decision, Reference } from '../../shared/chat-models';
import type { EventName } from '../../shared/contract';
import type { ProviderSettings } from '../../shared/settings';
import { ollamaHostFromEnv } from '../core';
import { isLoopback, keySourceOf } from '../core/llm/providers';
import { call, need, type Command, type CommandInput } from './command';
import { emptyKbLine } from './hints';
import { UsageError } from './usage';
import { headingPathToSay, numberedParts } from '../../shared/where';

function formatReference(r: Reference): string {
  const where = [r.pagePath];
  where.push(...numberedParts(r.provenance));
  if (r.provenance.lines) where.push(`lines ${r.provenance.lines.join('–')}`);
  const headings = headingPathToSay(r.provenance);
  if (headings.length) where.push(headings.join(' › '));
  return `[${r.number}] ${r.title} — ${where.join(' · ')}`;
}

/** The name `--base-url` gives its provider in answers. */
const CLI_PROVIDER = 'base-url';

/**
 * The provider the flags choose: `--provider NAME` (one of the settings' list, or "ollama"), or `--base-url URL` (an
 * OpenAI-compatible server; its key from SIFT_API_KEY, else OPENAI_API_KEY, when set). Neither: the settings decide.
 */
export function providerFlags(flags: CommandInput['flags'], env: NodeJS.ProcessEnv = process.env): { provider?: string; custom?: ProviderSettings & { keySource: string } } {
  const baseUrl = flags['base-url'];
  if (baseUrl !== undefined && flags.provider !== undefined) throw new UsageError('use either --provider or --base-url, not both.');
  if (baseUrl === undefined) return flags.provider !== undefined ? { provider: flags.provider } : {};
  if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) throw new UsageError(`--base-url "${baseUrl}" is not an http(s) URL; e.g. http://127.0.0.1:1234/v1.`);
  const apiKeyRef = env.SIFT_API_KEY || env.OPENAI_API_KEY ? ('env' as const) : null;
  // Where the key comes from, as a refused key's message says it: the variables, whether or not one is set.
  const keySource = keySourceOf('env');
  return { custom: { name: CLI_PROVIDER, kind: 'openai', baseUrl, apiKeyRef, defaultModel: flags.model ?? null, keySource } };
}

/** Chat commands, keyed by their words. */
/** What a turn that did not simply answer means, in the words the app shows under such an answer. */
const DECISION_NOTES: Record<Exclude<Decision, 'answered'>, string> = {
  refused: 'no answer: nothing in this knowledge base answers the question',
  clarification: 'the answer asks you to make the question more precise',
  no_answer: 'the model produced no answer',
};

export const chatCommands: Record<string, Command> = {
  ask: {
    words: 1,
    core: (flags) => ({
      chat: { host: ollamaHostFromEnv(flags['ollama-host'] ?? process.env.OLLAMA_HOST), model: flags.model, ...providerFlags(flags) },
    }),
    async run({ sift, args, flags, io }) {
      const [kb, question] = need(args, ['kb', 'question']);
      const active = await call(sift, 'providers.forKb', { kb: kb! });
      // Chosen by the person (a flag or the settings); said once per command, before anything is sent.
      if (active.hosted && !flags.json) io.err(`(the passages go to ${active.name} at ${active.baseUrl}, off this machine)`);
      const turnId = randomUUID();
      const events: { event: EventName; payload: unknown }[] = [];
      const readable = new ReadableMarkdown();
      const show = (text: string) => text && (io.write ?? io.out)(text);
      const finished = new Promise<{ ok: boolean; message: ChatMessage | null; error?: string }>((resolve) => {
        sift.onEvent((event, payload) => {
          if ((payload as { turnId?: string }).turnId !== turnId) return;
          events.push({ event: event as EventName, payload });
          // Markdown as a terminal shows it: escapes read, references decoded, code blocks as written.
          if (event === 'answer.token' && !flags.json) show(readable.write((payload as { text: string }).text));
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
        io.out(JSON.stringify({ conversationId: sent.conversationId, answer: end.message?.content ?? '', citations: turn?.citations ?? [], references: turn?.references ?? [], decision: turn?.decision ?? null, status: turn?.status ?? 'failed', provider: turn?.provider ?? null, error: end.error ?? null, events }, null, 2));
        return end.ok ? 0 : 1;
      }
      show(readable.end());
      io.out('');
      if (turn && turn.decision !== 'answered') io.out(`(${DECISION_NOTES[turn.decision]})`);
      if (turn?.references.length) io.out(`\nReferences:\n${turn.references.map(formatReference).join('\n')}`);
      const empty = turn?.references.length ? null : await emptyKbLine(sift, kb!);
      if (empty) io.err(`sift: ${empty}`);
      if (!end.ok) io.err(`sift: the answer failed: ${end.error}`);
      io.err(`conversation ${sent.conversationId}`);
      return end.ok ? 0 : 1;
    },
  },
};
