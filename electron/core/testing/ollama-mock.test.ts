import { afterEach, describe, expect, it } from 'vitest';
import { startMockOllama, type MockOllama, type MockOllamaOptions } from './ollama-mock';

let mock: MockOllama | null = null;
afterEach(async () => {
  await mock?.close();
  mock = null;
});

async function start(options?: MockOllamaOptions): Promise<MockOllama> {
  mock = await startMockOllama(options);
  return mock;
}

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${mock!.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
}

/** A JSON answer, loosely typed for assertions. */
async function json(res: Response | Promise<Response>): Promise<any> {
  return (await res).json();
}

/** The NDJSON lines of a streamed /api/chat answer, parsed. */
async function chatLines(body: unknown): Promise<any[]> {
  const res = await post('/api/chat', body);
  expect(res.headers.get('content-type')).toContain('application/x-ndjson');
  return (await res.text()).trim().split('\n').map((line) => JSON.parse(line));
}

describe('mock Ollama: models', () => {
  it('lists its models, answers /api/version, and records requests', async () => {
    await start({ models: [{ name: 'a:1b' }, { name: 'b:2b', contextLength: 4096 }] });
    const tags = await json(fetch(`${mock!.url}/api/tags`));
    expect(tags.models.map((m: { name: string }) => m.name)).toEqual(['a:1b', 'b:2b']);
    expect((await json(fetch(`${mock!.url}/api/version`))).version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(mock!.requests.map((r) => r.path)).toEqual(['/api/tags', '/api/version']);
  });

  it.each([
    { model: { name: 'qwen3:4b', contextLength: 8192 }, key: 'qwen3.context_length', value: 8192, numCtx: false },
    { model: { name: 'gemma3:1b', numCtx: 2048 }, key: 'gemma3.context_length', value: undefined, numCtx: true },
  ])('/api/show of $model.name', async ({ model, key, value, numCtx }) => {
    await start({ models: [model] });
    const shown = await json(post('/api/show', { model: model.name }));
    expect(shown.model_info[key]).toBe(value);
    expect(shown.parameters.includes('num_ctx 2048')).toBe(numCtx);
  });

  it.each(['/api/show', '/api/chat', '/api/embed'])('%s of an unknown model is 404 with Ollama\'s error text', async (path) => {
    await start();
    const res = await post(path, { model: 'x', input: 'a', messages: [] });
    expect(res.status).toBe(404);
    expect(await json(res)).toEqual({ error: 'model "x" not found, try pulling it first' });
  });

  it('accepts a name without tag as :latest, and 404s unknown paths', async () => {
    await start({ models: [{ name: 'mistral:latest' }] });
    expect((await post('/api/show', { model: 'mistral' })).status).toBe(200);
    expect((await fetch(`${mock!.url}/api/nothing`)).status).toBe(404);
  });
});

describe('mock Ollama: embeddings', () => {
  it('returns deterministic unit vectors of the configured dimension', async () => {
    await start({ embedDimension: 24 });
    const embed = async (input: unknown) => (await json(post('/api/embed', { model: 'qwen3:4b', input }))).embeddings;
    const [a, b, c] = await embed(['部署', 'deploy', '部署']);
    expect(a).toHaveLength(24);
    for (const v of [a, b]) expect(Math.hypot(...v)).toBeCloseTo(1, 9);
    expect(c).toEqual(a);
    expect(b).not.toEqual(a);
    expect(await embed('部署')).toEqual([a]);
  });
});

describe('mock Ollama: chat', () => {
  it('streams scripted chunks as NDJSON, then a done message', async () => {
    await start();
    mock!.onChat({ chunks: [{ thinking: 'hm' }, { content: 'hi' }, { toolCalls: [{ name: 't', arguments: 'raw' }] }] });
    const lines = await chatLines({ model: 'qwen3:4b', messages: [], think: true });
    expect(lines.map((l) => l.message)).toEqual([
      { role: 'assistant', content: '', thinking: 'hm' },
      { role: 'assistant', content: 'hi' },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 't', arguments: 'raw' } }] },
      { role: 'assistant', content: '' },
    ]);
    expect(lines.map((l) => l.done)).toEqual([false, false, false, true]);
    expect(lines[3]).toMatchObject({ done_reason: 'stop', eval_count: 3 });
    expect(mock!.requests[0]!.body.think).toBe(true);
  });

  it('answers in one JSON message when stream is false', async () => {
    await start();
    mock!.onChat({ chunks: [{ content: 'a' }, { content: 'b' }, { thinking: 't' }] });
    const whole = await json(post('/api/chat', { model: 'qwen3:4b', messages: [], stream: false }));
    expect(whole).toMatchObject({ done: true, message: { role: 'assistant', content: 'ab', thinking: 't' } });
  });

  it('uses queued replies first, then the standing function, then a default', async () => {
    await start();
    mock!.onChat((body) => ({ chunks: [{ content: `echo ${body.messages.length}` }] }));
    mock!.onChat({ chunks: [{ content: 'queued' }] });
    const text = async () => (await chatLines({ model: 'qwen3:4b', messages: [{ role: 'user', content: 'x' }] }))[0].message.content;
    expect(await text()).toBe('queued');
    expect(await text()).toBe('echo 1');
    await mock!.close();
    await start();
    expect(await text()).toBe('(mock reply)');
  });

  it('answers with a scripted HTTP error', async () => {
    await start();
    mock!.onChat({ chunks: [], status: 500, error: 'boom' });
    const res = await post('/api/chat', { model: 'qwen3:4b', messages: [] });
    expect(res.status).toBe(500);
    expect(await json(res)).toEqual({ error: 'boom' });
  });

  it('cuts the connection after the scripted number of chunks', async () => {
    await start();
    mock!.onChat({ chunks: [{ content: 'a' }, { content: 'b' }, { content: 'c' }], cutAfter: 2 });
    const res = await post('/api/chat', { model: 'qwen3:4b', messages: [] });
    const reader = res.body!.getReader();
    let received = '';
    const failure = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return null;
        received += new TextDecoder().decode(value);
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(received.trim().split('\n').map((l) => JSON.parse(l).message.content)).toEqual(['a', 'b']);
    expect(mock!.requests[0]!.closedByClient).toBe(false);
  });

  it('closes promptly while a stalled stream is open', async () => {
    await start();
    mock!.onChat({ chunks: [{ content: 'a' }], stall: true });
    const res = await post('/api/chat', { model: 'qwen3:4b', messages: [] });
    expect(res.status).toBe(200);
    expect(mock!.openChats).toBe(1);
    const pending = res.text().catch((error: unknown) => error);
    const started = Date.now();
    await mock!.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
    mock = null;
  });
});
