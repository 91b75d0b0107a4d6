import { afterEach, describe, expect, it, vi } from 'vitest';
import { TurnDiscarded } from './turn';
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
      const errors = logged.mock.calls.map((c) => String(c[1])).sort();
      expect(errors).toEqual(['Error: FOREIGN KEY constraint failed', 'Error: thrown at once']);
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
