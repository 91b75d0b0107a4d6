/**
 * MCP over Streamable HTTP at `/mcp` on the loopback host, driven by the SDK's own client: the same
 * tools as over stdio, behind the host's token and origin rules, and `ask` answering through the real
 * turn (the Ollama mock, then no model) while storing nothing.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import Ajv from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import type { Citation, Reference } from '../../shared/chat-models';
import { startChatBench, type ChatBench } from '../core/chat/testing/chat-fixture';
import { startHttpHost, type HttpHost } from './http-host';

let bench: ChatBench | null = null;
let host: HttpHost | null = null;
let client: Client | null = null;
afterEach(async () => {
  await client?.close();
  await host?.close();
  await bench?.close();
  client = host = bench = null;
});

async function connect(token: string, scheme = 'Bearer'): Promise<Client> {
  const c = new Client({ name: 'sift-http-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${host!.origin}/mcp`), {
    requestInit: { headers: { authorization: `${scheme} ${token}` } },
  });
  await c.connect(transport);
  return c;
}

interface Asked {
  answer: string;
  decision: string;
  status: string;
  citations: Citation[];
  references: Reference[];
}

async function ask(question: string): Promise<Asked> {
  const result = (await client!.callTool({ name: 'ask', arguments: { kb: 'Docs', question } })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  // What ask returns validates against the output schema it publishes, under a strict validator (issue #27 item 11).
  const { tools } = await client!.listTools();
  const valid = new Ajv({ strict: true, allErrors: true }).compile(tools.find((t) => t.name === 'ask')!.outputSchema!);
  if (!valid(result.structuredContent)) expect.fail(JSON.stringify(valid.errors));
  return result.structuredContent as unknown as Asked;
}

describe('MCP over Streamable HTTP', () => {
  it('serves the tools behind the token, and ask answers with checked citations, storing nothing', async () => {
    bench = await startChatBench();
    host = await startHttpHost(bench.sift);
    client = await connect(host.token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['search', 'get_context', 'read_page', 'list_pages', 'ask']));

    bench.ollama.onChat({ chunks: [{ content: 'It retries three times [1].' }] });
    const answered = await ask('How often does the client retry?');
    expect(answered).toMatchObject({ answer: 'It retries three times [1].', decision: 'answered', status: 'complete' });
    expect(answered.citations).toMatchObject([{ number: 1, valid: true }]);
    expect(answered.references[0]).toMatchObject({ number: 1, pagePath: 'wiki/runbook.md' });

    const conversations = await bench.sift.invoke('conversations.list', { kb: 'Docs' });
    expect(conversations).toEqual({ ok: true, value: [] });
  });

  it('without a model, ask gives the extractive answer with a citation for every passage', async () => {
    bench = await startChatBench({ ollamaDown: true });
    host = await startHttpHost(bench.sift);
    client = await connect(host.token);
    const answered = await ask('E_CONN_RESET 超时');
    expect(answered.status).toBe('llm_unavailable');
    expect(answered.answer).toMatch(/^没有正在运行的语言模型/);
    expect(answered.citations.length).toBeGreaterThan(0);
    expect(answered.citations.every((c) => c.valid)).toBe(true);
    expect(answered.references.map((r) => r.number)).toEqual(answered.citations.map((c) => c.number));
  });

  it('refuses a wrong token, a foreign origin and a form post', async () => {
    bench = await startChatBench();
    host = await startHttpHost(bench.sift);
    await expect(connect('not-the-token')).rejects.toThrow(/unauthorized.*lacks the Sift host token/);
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${host!.origin}/mcp`, { method: 'POST', headers: { accept: 'application/json, text/event-stream', ...headers }, body });
    const bearer = { authorization: `Bearer ${host.token}` };
    const foreign = await post({ ...bearer, 'content-type': 'application/json', origin: 'http://127.0.0.1:1' }, JSON.stringify(init));
    expect(foreign.status).toBe(403);
    const form = await post({ ...bearer, 'content-type': 'text/plain' }, JSON.stringify(init));
    expect(form.status).toBe(415);
    const ok = await post({ ...bearer, 'content-type': 'application/json' }, JSON.stringify(init));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'sift' } } });
    const stream = await fetch(`${host.origin}/mcp`, { headers: bearer });
    expect(stream.status).toBe(405);
  });

  it('takes the scheme in any case, and a 401 says how to authenticate (issue #27 item 11)', async () => {
    bench = await startChatBench();
    host = await startHttpHost(bench.sift);
    client = await connect(host.token, 'bearer');
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const post = (authorization?: string) => fetch(`${host!.origin}/mcp`, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(init),
    });
    expect((await post(`BEARER ${host.token}`)).status).toBe(200);
    for (const refused of [await post(), await post('Bearer wrong'), await post(`Basic ${host.token}`)]) {
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="sift"');
    }
    const api = await fetch(`${host.origin}/api/invoke`, { method: 'POST', body: '{}' });
    expect(api.status).toBe(401);
    expect(api.headers.get('www-authenticate')).toBe('Bearer realm="sift"');
  });
});
