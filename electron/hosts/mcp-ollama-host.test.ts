/**
 * `sift mcp` answers `ask` with the Ollama that OLLAMA_HOST names, like every other command (issue #27 item 3): it
 * used to ignore the variable and fall back to the extractive answer whenever Ollama was not on its default port.
 * A real `sift mcp` child process, the SDK's client over stdio, and a mock Ollama on a free port of 127.0.0.1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SIFT_BIN, makeKb, openCore, writeFiles } from '../core/ingest/testing/fixtures';
import { startMockOllama, type MockOllama } from '../core/testing/ollama-mock';

let client: Client | null = null;
let ollama: MockOllama | null = null;
const dirs: string[] = [];
afterEach(async () => {
  await client?.close();
  await ollama?.close();
  client = ollama = null;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-mcp-host-'));
  dirs.push(dir);
  return dir;
}

describe('sift mcp', () => {
  it('asks the Ollama named by OLLAMA_HOST', async () => {
    ollama = await startMockOllama();
    ollama.onChat({ chunks: [{ content: 'Three times [1].' }] });
    const data = scratch();
    const root = scratch();
    writeFiles(root, { 'retry.md': '# Retry policy\n\nThe client retries three times after E_CONN_RESET.\n' });
    const sift = openCore(data);
    await sift.ingest(await makeKb(sift, 'Docs', [root]));
    await sift.close();

    client = new Client({ name: 'sift-test', version: '1.0.0' });
    const host = new URL(ollama.url).host; // host:port, as people write OLLAMA_HOST
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SIFT_BIN, '--data-dir', data, 'mcp', '--kb', 'Docs'],
      cwd: path.dirname(SIFT_BIN),
      env: { PATH: process.env.PATH ?? '', HOME: scratch(), SIFT_EMBEDDING: 'none', OLLAMA_HOST: host },
      stderr: 'pipe',
    });
    await client.connect(transport);
    const result = (await client.callTool({ name: 'ask', arguments: { kb: 'Docs', question: 'How often does the client retry after E_CONN_RESET?' } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect((result.structuredContent as { answer: string }).answer).toBe('Three times [1].');
    expect(ollama.requests.some((r) => r.path === '/api/chat')).toBe(true);
  }, 60_000);
});
