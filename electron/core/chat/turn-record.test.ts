/**
 * What a stored turn remembers for a reloaded thread (issue #27): its steps ("Found N pages", then how it ended), and
 * how it truly ended — a turn cut off because Sift shut down is `interrupted`, never "stopped" by the person.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../shared/chat-models';
import { startChatBench, type ChatBench } from './testing/chat-fixture';

let bench: ChatBench | null = null;
afterEach(async () => {
  await bench?.close();
  bench = null;
});

const slow = { chunks: Array.from({ length: 60 }, (_, i) => ({ content: `Sentence ${i + 1} [1]. ` })), delayMs: 40 };

describe('a stored turn', () => {
  it('keeps the steps its events said, in order', async () => {
    bench = await startChatBench();
    bench.server.onChat({ chunks: [{ content: 'The default timeout is 30 seconds [1].' }] });
    const out = await bench.ask('What is the default timeout for E_CONN_RESET?');
    const steps = out.message!.turn!.steps!;
    expect(steps.map((s) => s.kind)).toEqual(['searching', 'found', 'answering']);
    expect(steps[1]).toMatchObject({ kind: 'found', count: expect.any(Number) });
  });

  it('cut off by Sift shutting down is stored as interrupted; stopped by the person, as cancelled', async () => {
    bench = await startChatBench();
    bench.server.onChat(slow);
    const stopped = await bench.ask('What is the retry policy?', {
      during: async (turnId) => {
        await new Promise((r) => setTimeout(r, 400));
        await bench!.sift.invoke('chat.cancel', { turnId });
      },
    });
    expect(stopped.message!.turn!.status).toBe('cancelled');

    bench.server.onChat(slow);
    let stored: ChatMessage | null = null;
    const shut = bench.ask('And the timeout?', {
      during: async () => {
        await new Promise((r) => setTimeout(r, 400));
        await bench!.sift.close();
      },
    });
    stored = (await shut).message;
    expect(stored!.content).toContain('Sentence 1 [1].');
    expect(stored!.turn!.status).toBe('interrupted');
    expect(stored!.turn!.warnings ?? []).toEqual([]);
  });
});
