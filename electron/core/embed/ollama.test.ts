/** The Ollama embedder against a real HTTP server on 127.0.0.1 that answers `/api/embed` as scripted per test. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { createOllamaEmbedder } from './ollama';

interface EmbedCall {
  model: string;
  input: string[];
}

type Reply = (call: EmbedCall) => { status?: number; body: unknown } | 'hang';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** An Ollama stand-in: records every /api/embed call and answers with `reply`. */
async function fakeOllama(reply: Reply): Promise<{ host: string; calls: EmbedCall[] }> {
  const calls: EmbedCall[] = [];
  const server = http.createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    if (req.method !== 'POST' || req.url !== '/api/embed') {
      res.writeHead(404).end('404 page not found');
      return;
    }
    const call = JSON.parse(raw) as EmbedCall;
    calls.push(call);
    const answer = reply(call);
    if (answer === 'hang') return;
    const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { host: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

/** Each text becomes [length, 1, 0] scaled by 2, so normalisation is visible. */
const byLength: Reply = ({ input }) => ({ body: { model: 'm', embeddings: input.map((t) => [2 * t.length, 2, 0]) } });

async function failure(promise: Promise<unknown>): Promise<SiftError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SiftError);
  return error as SiftError;
}

describe('createOllamaEmbedder', () => {
  it('probes the dimension once, then embeds normalised vectors in batches, in order', async () => {
    const ollama = await fakeOllama(byLength);
    const embedder = await createOllamaEmbedder({ host: ollama.host, model: 'nomic-embed-text', batchSize: 2 });
    expect(embedder.id).toBe('ollama:nomic-embed-text');
    expect(embedder.dimension).toBe(3);
    expect(ollama.calls).toHaveLength(1);

    const vectors = await embedder.embedPassages(['a', 'bb', 'ccc', 'dddd', 'e']);
    expect(ollama.calls.slice(1).map((c) => c.input)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['e']]);
    expect(ollama.calls.every((c) => c.model === 'nomic-embed-text')).toBe(true);
    expect(vectors.map((v) => v[0]! / v[1]!)).toEqual([1, 2, 3, 4, 1].map((n) => expect.closeTo(n, 5)));
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(await embedder.embedPassages([])).toEqual([]);
    await embedder.close();
  });

  it('sends no prefix by default and the configured prefixes when set', async () => {
    const ollama = await fakeOllama(byLength);
    const plain = await createOllamaEmbedder({ host: ollama.host, model: 'm' });
    await plain.embedQuery('q');
    await plain.embedPassages(['p']);
    const prefixed = await createOllamaEmbedder({ host: ollama.host, model: 'm', queryPrefix: 'search_query: ', passagePrefix: 'search_document: ' });
    await prefixed.embedQuery('q');
    await prefixed.embedPassages(['p']);
    const inputs = ollama.calls.map((c) => c.input[0]);
    expect(inputs.filter((t) => t !== 'dimension probe' && t !== 'search_query: dimension probe')).toEqual([
      'q',
      'p',
      'search_query: q',
      'search_document: p',
    ]);
  });

  it('unreachable host: llm_unavailable telling the user to run `ollama serve`', async () => {
    const ollama = await fakeOllama(byLength);
    const server = servers.pop() as http.Server;
    await new Promise((resolve) => server.close(resolve));
    const error = await failure(createOllamaEmbedder({ host: ollama.host, model: 'm' }));
    expect(error.code).toBe('llm_unavailable');
    expect(error.message).toContain(`Ollama is not reachable at ${ollama.host}`);
    expect(error.message).toContain('`ollama serve`');
  });

  it.each([
    ['HTTP 404', 404, { error: 'model "nomic-embed-text" not found, try pulling it first' }],
    ['an error body saying not found', 500, { error: 'model "nomic-embed-text" not found' }],
  ])('model missing (%s): model_unavailable telling the user to pull it', async (_name, status, body) => {
    const ollama = await fakeOllama(() => ({ status, body }));
    const error = await failure(createOllamaEmbedder({ host: ollama.host, model: 'nomic-embed-text' }));
    expect(error.code).toBe('model_unavailable');
    expect(error.message).toContain('run `ollama pull nomic-embed-text`');
  });

  it.each([
    ['a server error', () => ({ status: 500, body: { error: 'this model does not support embeddings' } }), /does not support embeddings/],
    ['a reply that is not JSON', () => ({ body: 'oops' }), /not JSON/],
    ['too few embeddings', () => ({ body: { embeddings: [] } }), /without 1 embeddings/],
    ['a non-numeric vector', () => ({ body: { embeddings: [['x']] } }), /without 1 embeddings/],
  ] as [string, Reply, RegExp][])('%s: llm_error with the reason', async (_name, reply, message) => {
    const ollama = await fakeOllama(reply);
    const error = await failure(createOllamaEmbedder({ host: ollama.host, model: 'm' }));
    expect(error.code).toBe('llm_error');
    expect(error.message).toMatch(message);
  });

  it('a vector of another length after the probe: llm_error, not a silently mixed index', async () => {
    let calls = 0;
    const ollama = await fakeOllama(({ input }) => ({ body: { embeddings: input.map(() => (calls++ === 0 ? [1, 0, 0] : [1, 0])) } }));
    const embedder = await createOllamaEmbedder({ host: ollama.host, model: 'm' });
    expect((await failure(embedder.embedQuery('q'))).message).toMatch(/2-long vector where 3 was expected/);
  });

  it('a server that never answers: timeout after timeoutMs', async () => {
    const ollama = await fakeOllama(() => 'hang');
    const started = Date.now();
    const error = await failure(createOllamaEmbedder({ host: ollama.host, model: 'm', timeoutMs: 200 }));
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('200 ms');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it.each([
    [{ host: 'ftp://x', model: 'm' }],
    [{ host: 'not a url', model: 'm' }],
    [{ model: ' ' }],
    [{ model: 'm', timeoutMs: 0 }],
    [{ model: 'm', batchSize: 0 }],
  ])('refuses %j with invalid_argument before any request', async (options) => {
    expect((await failure(createOllamaEmbedder(options))).code).toBe('invalid_argument');
  });
});
