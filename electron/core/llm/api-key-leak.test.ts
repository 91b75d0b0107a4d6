/**
 * An API key goes to the server it belongs to and nowhere else: not into the database, the logs, the retrieval log, an
 * export, the settings, an event or the console — whether the key is stored (encrypted), given to "Test connection",
 * refused by the server, or typed by mistake where only its source belongs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeTestModel } from '../embed/testing/test-model';
import { encryptedFileSecrets } from '../config/secrets';
import { createSift, type Sift } from '../sift';
import { startMockOpenAi, type MockOpenAi } from '../testing/openai-mock';
import { tempDir } from '../testing/temp';
import { testCipher } from '../testing/test-cipher';

const KEY = 'sk-live-Zq8pW3nV7xT1kL9m';
const WRONG = 'sk-wrong-Hj4Rb6Yc2Ud8Fe0g';

let sift: Sift | null = null;
let server: MockOpenAi | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await sift?.close();
  await server?.close();
  sift = server = null;
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : [full];
  });
}

/** Send a message and wait for its turn to end; resolves with the ending event's payload. */
async function turn(s: Sift, kb: string, message: string): Promise<Record<string, unknown>> {
  const turnId = crypto.randomUUID();
  const ended = new Promise<Record<string, unknown>>((resolve) => {
    const stop = s.onEvent((event, payload) => {
      const p = payload as Record<string, unknown>;
      if (p.turnId === turnId && (event === 'answer.done' || event === 'answer.failed')) {
        stop();
        resolve(p);
      }
    });
  });
  const sent = await s.invoke('chat.send', { kb, message, turnId });
  if (!sent.ok) throw new Error(sent.error.message);
  return ended;
}

describe('an API key', () => {
  it('never appears in the database, the logs, the retrieval log, an export, the settings, events or the console', async () => {
    const printed: string[] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    }
    server = await startMockOpenAi({ apiKey: KEY });
    const dataDir = tempDir();
    const modelDir = tempDir();
    await writeTestModel(modelDir);
    const docs = tempDir();
    fs.writeFileSync(path.join(docs, 'retry.md'), '# Retry policy\n\nThe client retries three times after E_CONN_RESET.\n');
    sift = createSift({
      dataDir,
      embedding: { provider: 'transformers', modelId: 'sift-test/tiny-embedder', localModelDir: modelDir, allowDownload: false },
      secrets: encryptedFileSecrets(path.join(dataDir, 'secrets.json'), testCipher()),
    });
    const events: string[] = [];
    sift.onEvent((event, payload) => events.push(`${event} ${JSON.stringify(payload)}`));

    // "Test connection" with a wrong key, then the right one typed into the form; then the key stored.
    const wrong = await sift.invoke('providers.test', { provider: { name: 'box', kind: 'openai', baseUrl: server.url, apiKeyRef: null, defaultModel: null }, apiKey: WRONG });
    expect(wrong).toMatchObject({ ok: true, value: { ok: false, message: expect.stringMatching(/the API key was refused \(HTTP 401\)/) } });
    const right = await sift.invoke('providers.test', { provider: { name: 'box', kind: 'openai', baseUrl: server.url, apiKeyRef: null, defaultModel: null }, apiKey: KEY });
    expect(right).toMatchObject({ ok: true, value: { ok: true, models: ['qwen3:4b'] } });
    expect(await sift.invoke('providers.setKey', { name: 'box', apiKey: KEY })).toEqual({ ok: true, value: { name: 'box', apiKeyRef: 'stored' } });
    // The key pasted where only its source belongs is refused, and the refusal does not repeat it.
    const pasted = await sift.invoke('settings.set', { patch: { providers: [{ name: 'box', kind: 'openai', baseUrl: server.url, apiKeyRef: KEY, defaultModel: null }] } });
    expect(pasted.ok).toBe(false);
    expect(JSON.stringify(pasted)).not.toContain(KEY);
    const provider = { name: 'box', kind: 'openai' as const, baseUrl: server.url, apiKeyRef: 'stored', defaultModel: 'qwen3:4b' };
    expect(await sift.invoke('settings.set', { patch: { providers: [provider], defaultProvider: 'box' } })).toMatchObject({ ok: true });

    const kb = await sift.invoke('kb.create', { name: 'Ops' });
    const kbId = (kb as { ok: true; value: { id: string } }).value.id;
    await sift.invoke('folder.add', { kb: kbId, path: docs });
    await sift.ingest(kbId);
    server.onChat({ chunks: [{ content: 'Three times [1].' }] });
    const answered = await turn(sift, kbId, 'How often does the client retry?');
    expect(answered).toMatchObject({ message: { content: 'Three times [1].', turn: { provider: 'box' } } });
    expect(server.requests.filter((r) => r.path === '/v1/chat/completions').every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
    const conversationId = (answered.message as { conversationId: string }).conversationId;

    // A refused key fails the turn with a message that does not repeat it.
    sift.handlers['providers.setKey']({ name: 'box', apiKey: WRONG });
    const refused = await turn(sift, kbId, 'And after E_CONN_RESET?');
    expect(refused).toMatchObject({ code: 'llm_error', message: expect.stringMatching(/the API key was refused/) });

    const exports = await Promise.all((['md', 'html'] as const).map((format) => sift!.invoke('export.render', { conversationId, format })));
    const settings = await sift.invoke('settings.get', {});
    const status = await sift.invoke('llm.status', {});
    await sift.close();
    sift = null;

    const files = filesUnder(dataDir);
    expect(files.some((f) => f.includes(`${path.sep}logs${path.sep}retrieval${path.sep}`))).toBe(true);
    expect(files.some((f) => f.endsWith('sift.sqlite'))).toBe(true);
    for (const secret of [KEY, WRONG]) {
      for (const file of files) expect(fs.readFileSync(file).includes(secret), file).toBe(false);
      for (const shown of [...exports, settings, status]) expect(JSON.stringify(shown)).not.toContain(secret);
      expect(events.filter((e) => e.includes(secret))).toEqual([]);
      expect(printed.filter((line) => line.includes(secret))).toEqual([]);
    }
  }, 60_000);
});
