import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSift, type Sift } from '../sift';
import { startMockOpenAi, type MockOpenAi } from '../testing/openai-mock';
import { tempDir } from '../testing/temp';
import { createOpenAiEmbedder } from './openai';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function mock(options: Parameters<typeof startMockOpenAi>[0] = {}): Promise<MockOpenAi> {
  const started = await startMockOpenAi({ models: [{ id: 'embed-small' }], ...options });
  open.push(started);
  return started;
}

const length = (v: Float32Array) => Math.hypot(...v);

describe('the OpenAI-compatible embedder', () => {
  it('probes the dimension, embeds in batches with the key, and normalises', async () => {
    const server = await mock({ apiKey: 'sk-embed', embedDimension: 24 });
    const embedder = await createOpenAiEmbedder({ baseUrl: server.url, apiKey: 'sk-embed', model: 'embed-small', batchSize: 2 });
    expect(embedder).toMatchObject({ id: 'openai:embed-small', dimension: 24 });
    const vectors = await embedder.embedPassages(['a', 'b', 'c']);
    expect(vectors.map((v) => v.length)).toEqual([24, 24, 24]);
    expect(length(vectors[0]!)).toBeCloseTo(1, 5);
    expect(Array.from(await embedder.embedQuery('a'))).toEqual(Array.from(vectors[0]!));
    const calls = server.requests.filter((r) => r.path === '/v1/embeddings');
    expect(calls.map((r) => r.body.input)).toEqual([['dimension probe'], ['a', 'b'], ['c'], ['a']]);
    expect(calls.every((r) => r.authorization === 'Bearer sk-embed')).toBe(true);
  });

  it('says the key was refused, waits out one short 429, and names an unknown model', async () => {
    const server = await mock({ apiKey: 'sk-right' });
    await expect(createOpenAiEmbedder({ baseUrl: server.url, apiKey: 'sk-wrong', model: 'embed-small', name: 'Box' })).rejects.toThrow(
      /Box at http:\/\/127\.0\.0\.1:\d+\/v1: the API key was refused \(HTTP 401\)/,
    );
    server.failEmbeddings(429, 0);
    const embedder = await createOpenAiEmbedder({ baseUrl: server.url, apiKey: 'sk-right', model: 'embed-small' });
    expect(embedder.dimension).toBe(16);
    server.failEmbeddings(429, 600);
    await expect(embedder.embedQuery('x')).rejects.toThrow(/limiting requests \(HTTP 429\); try again in 600 s/);
    await expect(createOpenAiEmbedder({ baseUrl: server.url, apiKey: 'sk-right', model: 'nope' })).rejects.toMatchObject({ code: 'model_unavailable' });
  });
});

describe('OpenAI-compatible embeddings for a knowledge base', () => {
  it('indexes with the provider chosen in the settings, records model and dimension, and re-embeds on a new dimension', async () => {
    const small = await mock({ embedDimension: 8 });
    const large = await mock({ embedDimension: 16 });
    const docs = tempDir();
    fs.writeFileSync(path.join(docs, 'retry.md'), '# Retry\n\nThe client retries three times after E_CONN_RESET.\n');
    const sift: Sift = createSift({ dataDir: tempDir() });
    open.push(sift);
    const provider = { name: 'box', kind: 'openai' as const, baseUrl: small.url, apiKeyRef: null, defaultModel: null };
    const embedding = { provider: 'openai' as const, remoteProvider: 'box', remoteModel: 'embed-small' };
    expect(await sift.invoke('settings.set', { patch: { providers: [provider], embedding } })).toMatchObject({ ok: true });
    const kb = await sift.invoke('kb.create', { name: 'Ops' });
    const kbId = (kb as { ok: true; value: { id: string } }).value.id;
    await sift.invoke('folder.add', { kb: kbId, path: docs });
    const first = await sift.ingest(kbId);
    expect(first).toMatchObject({ embeddingModel: 'openai:embed-small', chunksEmbedded: first.chunks });
    expect(small.requests.filter((r) => r.path === '/v1/embeddings').length).toBeGreaterThan(1);
    const found = await sift.invoke('search.query', { kb: kbId, query: 'E_CONN_RESET', mode: 'vector' });
    expect(found).toMatchObject({ ok: true, value: { passages: [{ pagePath: 'wiki/retry.md' }] } });

    // The same model id behind a server that now answers 16-long vectors: every chunk is embedded again.
    const moved = await sift.invoke('settings.set', { patch: { providers: [{ ...provider, baseUrl: large.url }] } });
    expect(moved).toMatchObject({ ok: true });
    // The settings change starts the re-embedding in the background.
    const status = async () => ((await sift.invoke('ingest.status', { kb: kbId })) as { ok: true; value: typeof first }).value;
    await expect.poll(async () => {
      const now = await status();
      return now.state === 'done' && now.chunksEmbedded === now.chunks && large.requests.some((r) => r.path === '/v1/embeddings');
    }, { timeout: 20_000 }).toBe(true);
    expect(await status()).toMatchObject({ embeddingModel: 'openai:embed-small', chunksEmbedded: first.chunks });
    expect(large.requests.filter((r) => r.path === '/v1/embeddings' && r.body.input[0] !== 'dimension probe').length).toBeGreaterThan(0);
    const vectorHit = await sift.invoke('search.query', { kb: kbId, query: 'E_CONN_RESET', mode: 'vector' });
    expect(vectorHit).toMatchObject({ ok: true, value: { passages: [{ pagePath: 'wiki/retry.md' }] } });
  }, 60_000);
});
