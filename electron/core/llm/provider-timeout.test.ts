/**
 * A provider's own wait for an answer to start (issue #27 item 12): a server that loads its model on the first
 * request sends its response headers late; the 10 s default is a setting of each provider, checked when saved.
 * Against the OpenAI-compatible test server on 127.0.0.1, which holds its headers back as such a server does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { createSift, type Sift } from '../sift';
import { startMockOpenAi, type MockOpenAi } from '../testing/openai-mock';
import { tempDir } from '../testing/temp';
import { makeClient, type ActiveProvider } from './providers';
import type { LlmClient } from './types';

let server: MockOpenAi | null = null;
let sift: Sift | null = null;
afterEach(async () => {
  await server?.close();
  await sift?.close();
  server = sift = null;
});

async function answer(client: LlmClient): Promise<string> {
  let text = '';
  for await (const chunk of client.chat({ model: 'qwen3:4b', messages: [{ role: 'user', content: 'hello' }] })) {
    if (chunk.type === 'token') text += chunk.text;
  }
  return text;
}

describe('a provider\'s wait for an answer to start', () => {
  it('is the provider\'s setting when it has one, else the host\'s', async () => {
    server = await startMockOpenAi();
    const box: ActiveProvider = { name: 'box', kind: 'openai', baseUrl: server.url, apiKeyRef: null, defaultModel: null, builtin: false };
    const host = { connectTimeoutMs: 1000 };
    server.onChat({ chunks: [{ content: 'loaded' }], headersDelayMs: 1500 });
    const impatient = await answer(makeClient(box, null, host)).catch((e: unknown) => e);
    expect(impatient).toBeInstanceOf(SiftError);
    expect((impatient as SiftError).message).toBe(`box at ${server.url} did not start answering within 1000 ms (connect limit).`);

    server.onChat({ chunks: [{ content: 'loaded' }], headersDelayMs: 1500 });
    expect(await answer(makeClient({ ...box, connectTimeoutMs: 4000 }, null, host))).toBe('loaded');
  });

  it('is checked when saved: whole milliseconds from 1 second to 10 minutes', async () => {
    sift = createSift({ dataDir: tempDir(), embedding: { provider: 'none' } });
    const provider = { name: 'box', kind: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', apiKeyRef: null, defaultModel: null };
    const save = (connectTimeoutMs: unknown) => sift!.invoke('settings.set', { patch: { providers: [{ ...provider, connectTimeoutMs }] } });
    expect(await save(120_000)).toMatchObject({ ok: true, value: { providers: [{ name: 'box', connectTimeoutMs: 120_000 }] } });
    expect(await save(null)).toMatchObject({ ok: true });
    for (const [bad, said] of [[500, 'must be at least 1 second'], [700_000, 'must be at most 10 minutes'], [1500.5, 'must be a whole number of milliseconds']] as const) {
      const refused = await save(bad);
      expect(refused.ok, String(bad)).toBe(false);
      expect(JSON.stringify(refused)).toContain(said);
    }
    const kept = await sift.invoke('settings.get', {});
    expect(kept).toMatchObject({ ok: true, value: { providers: [{ name: 'box' }] } });
  });
});
