/**
 * SIGTERM to `sift serve` while an `ask` is being answered (issue #27 item 3): the open request is cancelled and
 * the process exits at once, instead of the HTTP server waiting for the answer to finish (up to a minute) before
 * it would close. Against a real process, a real HTTP request and a mock Ollama whose answer takes a minute.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../shared/client';
import { createHttpTransport } from '../../shared/http-transport';
import { startSift, type SiftProcess } from '../../e2e/sift-process';
import { startMockOllama, type MockOllama } from '../core/testing/ollama-mock';

let ollama: MockOllama | null = null;
let sift: SiftProcess | null = null;
let closeTransport: (() => void) | null = null;
afterEach(async () => {
  closeTransport?.();
  await sift?.stop();
  await ollama?.close();
  sift = ollama = closeTransport = null;
});

describe('SIGTERM to sift serve', () => {
  it('cancels an open ask and exits within a few seconds, not after the answer', async () => {
    ollama = await startMockOllama();
    ollama.onChat(() => ({ chunks: Array.from({ length: 120 }, (_, i) => ({ content: `word${i} ` })), delayMs: 500 }));
    sift = await startSift({ ollamaUrl: ollama.url, env: { SIFT_EMBEDDING: 'none' } });
    const url = new URL(sift.url);
    const transport = createHttpTransport({ baseUrl: url.origin, token: url.searchParams.get('token')! });
    closeTransport = () => transport.close();
    const client = createClient(transport);
    const kb = await client.call('kb.create', { name: 'Docs' });

    const asked = client.call('chat.ask', { kb: kb.id, question: 'Tell me a long story about retries.' }).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error: String(error) }),
    );
    const chatRequests = () => ollama!.requests.filter((r) => r.path === '/api/chat').length;
    for (let i = 0; chatRequests() === 0; i++) {
      if (i > 200) throw new Error('the ask never reached the model');
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 500)); // a few words into the answer

    const started = performance.now();
    await sift.stop(); // SIGTERM; after 10 s it would be SIGKILL
    const ms = performance.now() - started;
    sift = null;
    expect(ms).toBeLessThan(5000);
    // The request was answered (with what the turn had when it was interrupted), or at least not left hanging.
    const settled = await Promise.race([asked, new Promise((r) => setTimeout(() => r('hanging'), 2000))]);
    expect(settled).not.toBe('hanging');
    console.info(`SIGTERM with an open ask: exited in ${ms.toFixed(0)} ms; the ask got ${JSON.stringify(settled).slice(0, 160)}`);
  }, 60_000);
});
