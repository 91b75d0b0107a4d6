/**
 * A model server that quotes the API key back in an error ("Incorrect API key provided: sk-…", HTTP 400 or 500)
 * must not get it past Sift (issue #27 item 2): not into the `answer.failed` event, the stored message, the
 * retrieval log or the MCP `ask` result. The resolved key is removed wherever it appears, and so is any other
 * key-shaped text the server sends. Driven through a real OpenAI-compatible server on 127.0.0.1 and the real MCP
 * server (the SDK's client over its in-memory transport).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { encryptedFileSecrets } from '../core/config/secrets';
import { redactSecrets } from '../core/base/redact';
import { createSift, type Sift } from '../core/sift';
import { startMockOpenAi, type MockOpenAi } from '../core/testing/openai-mock';
import { tempDir } from '../core/testing/temp';
import { testCipher } from '../core/testing/test-cipher';
import { createMcpServer } from './mcp-host';

/** The key the provider is configured with: the server accepts it, then quotes it in its error. */
const KEY = 'sk-live-Zq8pW3nV7xT1kL9m';
/** Another key-shaped string the server quotes (not ours, still a secret of someone's). */
const OTHER = 'sk-proj-Ab12Cd34Ef56Gh78Ij90';

let sift: Sift | null = null;
let server: MockOpenAi | null = null;
let client: Client | null = null;
afterEach(async () => {
  await client?.close();
  await sift?.close();
  await server?.close();
  sift = server = client = null;
});

async function coreWithProvider(dataDir: string): Promise<{ sift: Sift; kb: string }> {
  server = await startMockOpenAi({ apiKey: KEY });
  const docs = tempDir();
  fs.writeFileSync(path.join(docs, 'retry.md'), '# Retry policy\n\nThe client retries three times after E_CONN_RESET.\n');
  const core = createSift({ dataDir, embedding: { provider: 'none' }, secrets: encryptedFileSecrets(path.join(dataDir, 'secrets.json'), testCipher()) });
  sift = core;
  expect((await core.invoke('providers.setKey', { name: 'box', apiKey: KEY })).ok).toBe(true);
  const provider = { name: 'box', kind: 'openai' as const, baseUrl: server.url, apiKeyRef: 'stored', defaultModel: 'qwen3:4b' };
  expect((await core.invoke('settings.set', { patch: { providers: [provider], defaultProvider: 'box' } })).ok).toBe(true);
  const created = await core.invoke('kb.create', { name: 'Ops' });
  if (!created.ok) throw new Error(created.error.message);
  const kb = (created.value as { id: string }).id;
  await core.invoke('folder.add', { kb, path: docs });
  await core.ingest(kb);
  return { sift: core, kb };
}

/** Send a message and wait for its turn to end; resolves with the ending event's name and payload. */
async function turn(s: Sift, kb: string, message: string): Promise<{ event: string; payload: Record<string, unknown> }> {
  const turnId = crypto.randomUUID();
  const ended = new Promise<{ event: string; payload: Record<string, unknown> }>((resolve) => {
    const stop = s.onEvent((event, payload) => {
      const p = payload as Record<string, unknown>;
      if (p.turnId === turnId && (event === 'answer.done' || event === 'answer.failed')) {
        stop();
        resolve({ event, payload: p });
      }
    });
  });
  const sent = await s.invoke('chat.send', { kb, message, turnId });
  if (!sent.ok) throw new Error(sent.error.message);
  return ended;
}

function retrievalLog(dataDir: string): string {
  const dir = path.join(dataDir, 'logs', 'retrieval');
  return fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('');
}

describe('a provider error that quotes the API key', () => {
  for (const status of [400, 500]) {
    it(`is reported without the key (HTTP ${status}): answer.failed, the stored turn, the retrieval log, MCP ask`, async () => {
      const dataDir = tempDir();
      const { sift: core, kb } = await coreWithProvider(dataDir);
      const echo = `Incorrect API key provided: ${KEY}. You can find your API key at https://example.com/keys (also tried ${OTHER}).`;
      server!.onChat(() => ({ chunks: [], status, error: echo }));

      const { event, payload } = await turn(core, kb, 'How often does the client retry?');
      expect(event).toBe('answer.failed');
      expect(payload.message).toMatch(new RegExp(`answered HTTP ${status}: Incorrect API key provided: \\[redacted\\]`));
      const shown = JSON.stringify(payload);
      expect(shown).not.toContain(KEY);
      expect(shown).not.toContain(OTHER);

      client = new Client({ name: 'sift-test', version: '1.0.0' });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(core).connect(serverSide);
      await client.connect(clientSide);
      const asked = (await client.callTool({ name: 'ask', arguments: { kb: 'Ops', question: 'And after E_CONN_RESET?' } })) as CallToolResult;
      const askText = JSON.stringify(asked);
      expect(askText).toMatch(/Incorrect API key provided: \[redacted\]/);
      expect(askText).not.toContain(KEY);
      expect(askText).not.toContain(OTHER);

      const conversations = JSON.stringify(await core.invoke('conversations.list', { kb }));
      expect(conversations).not.toContain(KEY);
      const log = retrievalLog(dataDir);
      expect(log).toMatch(/Incorrect API key provided: \[redacted\]/);
      expect(log).not.toContain(KEY);
      expect(log).not.toContain(OTHER);
    }, 60_000);
  }
});

describe('redactSecrets', () => {
  it.each([
    ['Incorrect API key provided: sk-live-Zq8pW3nV7xT1kL9m.', 'Incorrect API key provided: [redacted].'],
    ['Incorrect API key provided: sk-live-Zq************kL9m.', 'Incorrect API key provided: [redacted].'],
    ['sent Authorization: Bearer abcdefghijklmnop', 'sent Authorization: Bearer [redacted]'],
    ['GET /v1/models?api_key=abc123456789&x=1 failed', 'GET /v1/models?api_key=[redacted]&x=1 failed'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123 refused', 'token [redacted] refused'],
    ['my key mykeyXYZ1234 of no known shape', 'my key [redacted] of no known shape'],
  ])('%s', (text, redacted) => expect(redactSecrets(text, ['mykeyXYZ1234'])).toBe(redacted));

  it('leaves ordinary messages alone', () => {
    for (const text of ['Ollama is not reachable at http://127.0.0.1:9', 'see risk-management-plan and task-list-2024', 'the token budget: 4000', '']) {
      expect(redactSecrets(text)).toBe(text);
    }
  });
});
