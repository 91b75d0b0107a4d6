import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../base/events';
import { createLlmClient } from '../llm/ollama-client';
import { appMigrations } from '../store/migrations/app';
import { openDatabase } from '../store/open';
import { startMockOllama, type MockOllama } from '../testing/ollama-mock';
import { tempDir } from '../testing/temp';
import { runTurn, TurnDiscarded, type ChatSettings } from './turn';

describe('runTurn', () => {
  let ollama: MockOllama | null = null;
  afterEach(async () => {
    vi.restoreAllMocks();
    await ollama?.close();
    ollama = null;
  });

  const settings: ChatSettings = {
    searchBudget: 3, maxRounds: 4, maxBadArguments: 2, maxAnswerTokens: 8192, maxAnswerChars: 65536,
    numCtx: 8192, contextPercent: 20, topK: 8, maxTurnMs: 10_000,
  };

  async function turnDeps() {
    ollama = await startMockOllama();
    const dir = tempDir();
    const appDb = openDatabase(path.join(dir, 'sift.sqlite'), appMigrations, 'the app database');
    const events = new EventBus();
    const seen: { event: string; payload: unknown }[] = [];
    events.onAny((event, payload) => seen.push({ event, payload }));
    const llm = createLlmClient({ host: ollama.url });
    const logsDir = path.join(dir, 'logs');
    return { deps: { appDb, events, llm, logsDir, settings, search: null, readPage: null }, seen };
  }

  const request = (conversationId: string) => ({
    turnId: 't1', kbId: null, conversationId, message: 'Hello there, how are you?', history: [],
  });

  it('resolves, and ends the turn with answer.failed, when storing the answer throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { deps, seen } = await turnDeps();
    ollama!.onChat({ chunks: [{ content: 'Fine, thanks.' }] });
    // No such conversation: storing the answer breaks the foreign key, as when it was deleted mid-answer.
    const stored = await runTurn(request('gone'), deps, new AbortController().signal);
    expect(stored).toBeNull();
    const last = seen.at(-1)!;
    expect(last.event).toBe('answer.failed');
    const message = expect.stringContaining('FOREIGN KEY');
    expect(last.payload).toMatchObject({ turnId: 't1', code: 'internal', message, partial: null });
    deps.appDb.close();
  });

  it('stores nothing and ends with answer.failed code cancelled when discarded', async () => {
    const { deps, seen } = await turnDeps();
    ollama!.onChat({ chunks: Array.from({ length: 100 }, () => ({ content: 'word ' })), delayMs: 20 });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new TurnDiscarded('The conversation was deleted.')), 200);
    const stored = await runTurn(request('gone'), deps, abort.signal);
    expect(stored).toBeNull();
    expect(seen.at(-1)).toEqual({
      event: 'answer.failed',
      payload: { turnId: 't1', code: 'cancelled', message: 'The conversation was deleted.', partial: null },
    });
    deps.appDb.close();
  });
});
