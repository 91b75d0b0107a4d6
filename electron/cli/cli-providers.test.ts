import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSift } from '../core';
import { startMockOpenAi, type MockOpenAi } from '../core/testing/openai-mock';
import { tempDir } from '../core/testing/temp';
import { run } from './testing/run';

const KEY = 'sk-cli-secret-4242';
let server: MockOpenAi;
const saved = { embedding: process.env.SIFT_EMBEDDING, sift: process.env.SIFT_API_KEY, openai: process.env.OPENAI_API_KEY };
beforeAll(async () => {
  process.env.SIFT_EMBEDDING = 'none';
  delete process.env.OPENAI_API_KEY;
  server = await startMockOpenAi({ apiKey: KEY });
});
afterEach(() => {
  delete process.env.SIFT_API_KEY;
});
afterAll(async () => {
  for (const [name, value] of [['SIFT_EMBEDDING', saved.embedding], ['SIFT_API_KEY', saved.sift], ['OPENAI_API_KEY', saved.openai]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await server.close();
});

/** A data folder with knowledge base "Ops" over one indexed note. */
async function dataWithKb(): Promise<string> {
  const data = tempDir();
  const docs = tempDir();
  fs.writeFileSync(path.join(docs, 'retry.md'), '# Retry policy\n\nThe client retries three times after E_CONN_RESET.\n');
  await run('--data-dir', data, 'kb', 'create', 'Ops');
  await run('--data-dir', data, 'folder', 'add', 'Ops', docs);
  await run('--data-dir', data, 'ingest', 'Ops');
  return data;
}

describe('sift ask with other providers', () => {
  it('--base-url URL --model M answers through an OpenAI-compatible server with the key from SIFT_API_KEY', async () => {
    const data = await dataWithKb();
    process.env.SIFT_API_KEY = KEY;
    server.onChat({ chunks: [{ content: 'Three times [1].' }] });
    const ask = await run('--data-dir', data, 'ask', 'Ops', 'How often does it retry?', '--base-url', server.url, '--model', 'qwen3:4b', '--json');
    expect(ask.code).toBe(0);
    expect(JSON.parse(ask.out)).toMatchObject({ answer: 'Three times [1].', status: 'complete', provider: 'base-url', references: [{ number: 1 }] });
    const sent = server.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!;
    expect(sent).toMatchObject({ authorization: `Bearer ${KEY}`, body: { model: 'qwen3:4b' } });
  });

  it('--provider NAME uses a provider of the settings, whose key file must be the owner\'s only', async () => {
    const data = await dataWithKb();
    const keyFile = path.join(tempDir(), 'lm.key');
    fs.writeFileSync(keyFile, `${KEY}\n`, { mode: 0o644 });
    fs.chmodSync(keyFile, 0o644);
    const sift = createSift({ dataDir: data });
    const provider = { name: 'box', kind: 'openai' as const, baseUrl: server.url, apiKeyRef: `file:${keyFile}`, defaultModel: 'qwen3:4b' };
    expect(await sift.invoke('settings.set', { patch: { providers: [provider] } })).toMatchObject({ ok: true });
    await sift.close();

    const refused = await run('--data-dir', data, 'ask', 'Ops', 'How often does it retry?', '--provider', 'box', '--json');
    const failed = JSON.parse(refused.out);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(`The key file ${keyFile} can be read by others (mode 644); Sift refuses it. Make it yours only: chmod 600 ${keyFile}`);

    fs.chmodSync(keyFile, 0o600);
    server.onChat({ chunks: [{ content: 'Three times [1].' }] });
    const ok = await run('--data-dir', data, 'ask', 'Ops', 'How often does it retry?', '--provider', 'box', '--json');
    expect(JSON.parse(ok.out)).toMatchObject({ answer: 'Three times [1].', provider: 'box' });

    const unknown = await run('--data-dir', data, 'ask', 'Ops', 'q', '--provider', 'nope');
    expect(unknown).toMatchObject({ code: 1, err: 'sift: There is no provider "nope" in Settings (there are: ollama, box).' });
    const both = await run('--data-dir', data, 'ask', 'Ops', 'q', '--provider', 'box', '--base-url', server.url);
    expect(both).toMatchObject({ code: 2, err: 'sift: use either --provider or --base-url, not both.' });
  });

  it('a refused key reads the same with --provider and --base-url, naming where the key comes from (issue #27 item 12)', async () => {
    const data = await dataWithKb();
    const sift = createSift({ dataDir: data });
    const provider = { name: 'box', kind: 'openai' as const, baseUrl: server.url, apiKeyRef: 'env', defaultModel: 'qwen3:4b' };
    expect(await sift.invoke('settings.set', { patch: { providers: [provider] } })).toMatchObject({ ok: true });
    await sift.close();
    process.env.SIFT_API_KEY = 'sk-wrong-0000';
    const viaProvider = await run('--data-dir', data, 'ask', 'Ops', 'How often?', '--provider', 'box');
    const viaUrl = await run('--data-dir', data, 'ask', 'Ops', 'How often?', '--base-url', server.url, '--model', 'qwen3:4b');
    const failure = (r: { err: string }) => r.err.split('\n').find((l) => l.startsWith('sift: the answer failed:'));
    const refused = `at ${server.url}: the API key was refused (HTTP 401). Check SIFT_API_KEY (or OPENAI_API_KEY).`;
    expect(failure(viaProvider)).toBe(`sift: the answer failed: box ${refused}`);
    expect(failure(viaUrl)).toBe(`sift: the answer failed: base-url ${refused}`);
    delete process.env.SIFT_API_KEY;
    const none = await run('--data-dir', data, 'ask', 'Ops', 'How often?', '--base-url', server.url, '--model', 'qwen3:4b');
    expect(failure(none)).toBe(`sift: the answer failed: base-url at ${server.url}: the server wants an API key (HTTP 401) and none was sent. Set SIFT_API_KEY (or OPENAI_API_KEY).`);
  });

  it('says before asking when the passages will leave the machine', async () => {
    const data = await dataWithKb();
    // A hosted address that resolves nowhere: the notice comes first, then the answer without a model.
    const ask = await run('--data-dir', data, 'ask', 'Ops', 'How often does it retry?', '--base-url', 'http://api.invalid/v1', '--model', 'm');
    expect(ask.err.split('\n')[0]).toBe('(the passages go to base-url at http://api.invalid/v1, off this machine)');
    expect(ask.out).toMatch(/^No language model is running \(base-url is not reachable at `http:\/\/api\.invalid\/v1`\)/);
  });
});
