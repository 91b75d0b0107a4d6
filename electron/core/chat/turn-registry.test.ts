import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../events';
import { createLlmClient } from '../llm/ollama-client';
import { appMigrations } from '../store/migrations/app';
import { openDatabase } from '../store/open';
import { startMockOllama, type MockOllama } from '../testing/ollama-mock';
import { tempDir } from '../testing/temp';
import { runTurn, TurnDiscarded, type ChatSettings } from './turn';
import { TurnRegistry } from './turn-registry';

const OWNER = { conversationId: 'c1', kbId: 'kb1' };

/** A turn that runs until its signal is aborted, then ends with the signal's reason. */
function untilAborted(seen: { reason?: unknown }) {
  return (signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => {
        seen.reason = signal.reason;
        setTimeout(resolve, 30);
      });
    });
}

describe('TurnRegistry', () => {
  afterEach(() => vi.restoreAllMocks());

  it('logs a turn that rejects or throws instead of leaving an unhandled rejection', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const turns = new TurnRegistry();
      turns.start('t1', OWNER, async () => {
        throw new Error('FOREIGN KEY constraint failed');
      });
      turns.start('t2', OWNER, () => {
        throw new Error('thrown at once');
      });
      await turns.close();
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
      expect(logged.mock.calls.map((c) => String(c[1])).sort()).toEqual(['Error: FOREIGN KEY constraint failed', 'Error: thrown at once']);
      expect(turns.runningFor('c1')).toBeNull();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('rejects a duplicate running id with conflict, and the first stays cancellable', async () => {
    const turns = new TurnRegistry();
    const seen: { reason?: unknown } = {};
    turns.start('t1', OWNER, untilAborted(seen));
    expect(() => turns.start('t1', OWNER, async () => {})).toThrow(expect.objectContaining({ code: 'conflict' }));
    expect(turns.cancel('t1')).toBe(true);
    await turns.close();
    expect(seen.reason).toBeDefined();
  });

  it('knows each conversation’s running turn', async () => {
    const turns = new TurnRegistry();
    turns.start('t1', OWNER, untilAborted({}));
    turns.start('t2', { conversationId: 'c2', kbId: 'kb1' }, untilAborted({}));
    expect(turns.runningFor('c1')).toBe('t1');
    expect(turns.runningFor('c2')).toBe('t2');
    expect(turns.runningFor('c3')).toBeNull();
    await turns.close();
    expect(turns.runningFor('c1')).toBeNull();
  });

  it('cancels the turns of a conversation or a knowledge base with a reason and waits for them to end', async () => {
    const turns = new TurnRegistry();
    const a: { reason?: unknown } = {};
    const b: { reason?: unknown } = {};
    const other: { reason?: unknown } = {};
    turns.start('t1', OWNER, untilAborted(a));
    turns.start('t2', { conversationId: 'c2', kbId: 'kb1' }, untilAborted(b));
    turns.start('t3', { conversationId: 'c3', kbId: 'kb2' }, untilAborted(other));
    const gone = new TurnDiscarded('deleted');
    expect(await turns.cancelConversation('c1', gone)).toBe(1);
    expect(a.reason).toBe(gone);
    expect(turns.runningFor('c1')).toBeNull();
    expect(await turns.cancelKnowledgeBase('kb1', gone)).toBe(1);
    expect(b.reason).toBe(gone);
    expect(turns.runningFor('c3')).toBe('t3');
    expect(other.reason).toBeUndefined();
    await turns.close();
  });
});

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
    return { deps: { appDb, events, llm, logsDir: path.join(dir, 'logs'), settings, search: null, readPage: null }, seen };
  }

  const request = (conversationId: string) => ({ turnId: 't1', kbId: null, conversationId, message: 'Hello there, how are you?', history: [] });

  it('resolves, and ends the turn with answer.failed, when storing the answer throws', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { deps, seen } = await turnDeps();
    ollama!.onChat({ chunks: [{ content: 'Fine, thanks.' }] });
    // No such conversation: storing the answer breaks the foreign key, as when it was deleted mid-answer.
    const stored = await runTurn(request('gone'), deps, new AbortController().signal);
    expect(stored).toBeNull();
    const last = seen.at(-1)!;
    expect(last.event).toBe('answer.failed');
    expect(last.payload).toMatchObject({ turnId: 't1', code: 'internal', message: expect.stringContaining('FOREIGN KEY'), partial: null });
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
