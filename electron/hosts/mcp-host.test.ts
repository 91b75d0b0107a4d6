/**
 * The MCP server driven by the SDK's own client over stdio, exactly as a desktop MCP client runs it
 * (`sift mcp --kb …` as a child process): discovery, every tool, the page resources, a knowledge base
 * the agent was not given, and a forged evidence id.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Ajv, { type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence, ManifestRow, Passage } from '../../shared/models';
import { SIFT_BIN, makeKb, openCore, writeFiles } from '../core/ingest/testing/fixtures';

let data: string;
let root: string;
let client: Client;
let docsId: string;
const dirs: string[] = [];
/** Every tool's output schema, compiled by a strict Ajv (set by the first test). */
const outputs = new Map<string, ValidateFunction>();

/** A folder that lives for the whole file (the server runs across tests). */
function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-mcp-'));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  data = scratch();
  root = scratch();
  writeFiles(root, {
    'retry.md': '# Retry policy\n\nThe client retries three times after E_CONN_RESET, waiting 200 ms between tries.\n',
    'emoji.md': '# Moods 😀\n\nThe 😀 face means the rollout went well; 𠀋 is a rare character.\n',
    '运维/网关.md': '# 网关超时处理手册\n\n网关超时之后，先检查上游服务的连接池，再看重试次数。\n',
  });
  const sift = openCore(data);
  docsId = await makeKb(sift, 'Docs', [root]);
  await sift.ingest(docsId);
  await makeKb(sift, 'Private', [scratch()]);
  await sift.close();

  client = new Client({ name: 'sift-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SIFT_BIN, '--data-dir', data, 'mcp', '--kb', 'Docs'],
    cwd: path.dirname(SIFT_BIN),
    env: { PATH: process.env.PATH ?? '', HOME: scratch(), SIFT_EMBEDDING: 'none' },
    stderr: 'pipe',
  });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A tool's structured payload; fails the test when the tool reported an error. */
async function callTool<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const text = (result.content[0] as { type: string; text: string }).text;
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  const valid = outputs.get(name);
  if (valid && !valid(result.structuredContent)) expect.fail(`${name}: ${JSON.stringify(valid.errors)}`);
  return result.structuredContent as T;
}

async function toolError(name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
}

describe('sift mcp over stdio', () => {
  it('lists its read-only tools with input schemas made from the contract', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['ask', 'get_context', 'list_knowledge_bases', 'list_pages', 'read_page', 'search']);
    for (const t of tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    const search = tools.find((t) => t.name === 'search')!;
    expect(search.inputSchema.required).toEqual(expect.arrayContaining(['kb', 'query']));
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['top_k', 'mode', 'scope']));
  });

  it('every tool has input and output schemas a strict JSON Schema validator accepts (issue #27 item 11)', async () => {
    const { tools } = await client.listTools();
    const ajv = new Ajv({ strict: true, allErrors: true });
    for (const t of tools) {
      expect(() => ajv.compile(t.inputSchema), `${t.name} input`).not.toThrow();
      expect(t.outputSchema, `${t.name} output`).toBeDefined();
      outputs.set(t.name, ajv.compile(t.outputSchema!));
    }
    expect(JSON.stringify(tools)).not.toMatch(/"format"/);
    for (const name of ['search', 'get_context', 'read_page']) {
      expect(tools.find((t) => t.name === name)!.description, name).toMatch(/UTF-16 code units/);
    }
  });

  it('spans are UTF-16 code-unit offsets, as the descriptions say', async () => {
    const page = await callTool<{ text: string; length: number }>('read_page', { kb: 'Docs', path: 'wiki/emoji.md' });
    expect(page.length).toBe(page.text.length); // 😀 and 𠀋 count two each
    const at = page.text.indexOf('😀 face');
    const span = await callTool<{ text: string }>('read_page', { kb: 'Docs', path: 'wiki/emoji.md', start: at, end: at + 7 });
    expect(span.text).toBe('😀 face');
  });

  it('a page that cannot be read is -32002, resource not found (issue #27 item 11)', async () => {
    const codeOf = (uri: string) => client.readResource({ uri }).then(() => null, (err: unknown) => err);
    for (const uri of [`sift://${docsId}/wiki/nope.md`, 'sift://Private/wiki/anything.md', 'https://example.com/x', `sift://${docsId}/%E0`]) {
      const err = await codeOf(uri);
      expect(err, uri).toBeInstanceOf(McpError);
      expect((err as McpError).code, uri).toBe(-32002);
    }
  });

  it('shows only the knowledge bases it was given', async () => {
    const { knowledgeBases } = await callTool<{ knowledgeBases: { id: string; name: string }[] }>('list_knowledge_bases', {});
    expect(knowledgeBases.map((k) => k.name)).toEqual(['Docs']);
    expect(await toolError('search', { kb: 'Private', query: 'anything' })).toMatch(/^not_found: .*"Private"/);
    expect(await toolError('list_pages', { kb: 'nope' })).toMatch(/^not_found/);
  });

  it('searches, and the evidence checks out: span, sha256, context', async () => {
    const result = await callTool<{ passages: Passage[] }>('search', { kb: 'Docs', query: 'E_CONN_RESET', top_k: 3 });
    const passage = result.passages[0]!;
    expect(passage).toMatchObject({ pagePath: 'wiki/retry.md', title: 'Retry policy' });
    expect(createHash('sha256').update(passage.text, 'utf8').digest('hex')).toBe(passage.contentHash);

    const context = await callTool<Evidence>('get_context', { kb: 'Docs', evidence_id: passage.evidenceId, window: 20 });
    const span = context.text.slice(context.start - context.windowStart, context.end - context.windowStart);
    expect(createHash('sha256').update(span, 'utf8').digest('hex')).toBe(context.contentHash);
    expect(span).toContain('E_CONN_RESET');

    const chinese = await callTool<{ passages: Passage[] }>('search', { kb: docsId, query: '网关', mode: 'keyword' });
    expect(chinese.passages[0]?.pagePath).toBe('wiki/运维/网关.md');
  });

  it('refuses a forged evidence id with a clear error', async () => {
    expect(await toolError('get_context', { kb: 'Docs', evidence_id: 'forged-123' })).toMatch(/^(not_found|invalid_argument): /);
  });

  it('reads pages and spans, and lists them with their fingerprints', async () => {
    const page = await callTool<{ text: string; start: number; end: number; length: number }>('read_page', { kb: 'Docs', path: 'wiki/retry.md' });
    expect(page.text).toContain('three times after E_CONN_RESET');
    expect(page.end).toBe(page.length);
    const span = await callTool<{ text: string }>('read_page', { kb: 'Docs', path: 'wiki/retry.md', start: 2, end: 14 });
    expect(span.text).toBe('Retry policy');

    const { pages } = await callTool<{ pages: ManifestRow[] }>('list_pages', { kb: 'Docs' });
    expect(pages.map((p) => p.page)).toEqual(['wiki/emoji.md', 'wiki/retry.md', 'wiki/运维/网关.md']);
    expect(pages[0]).toMatchObject({ status: 'indexed', parser: 'markdown', chunks: 1 });
    expect(pages[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('offers every page as a resource sift://KB/wiki/PATH', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain(`sift://${docsId}/wiki/retry.md`);
    const chinese = uris.find((u) => u.includes(encodeURIComponent('网关')))!;
    const read = await client.readResource({ uri: chinese });
    expect((read.contents[0] as { text: string }).text).toContain('网关超时之后');
  });
});

describe('sift mcp --kb', () => {
  it('fails with a clear message for a knowledge base that does not exist, instead of serving nothing', async () => {
    const run = (args: string[]) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [SIFT_BIN, '--data-dir', data, 'mcp', ...args], { timeout: 20_000, env: { ...process.env, SIFT_EMBEDDING: 'none' } },
        (_err, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }));
      child.stdin?.end();
    });
    const missing = await run(['--kb', 'Docs', '--kb', 'Nope']);
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toMatch(/^sift: no knowledge base has the id or name "Nope"\. See them with: sift kb list/);
  }, 30_000);
});
