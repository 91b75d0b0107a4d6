/**
 * Sift as an MCP server: the grounding tool other agents (Claude Desktop, Cursor, VS Code, scripts)
 * call to search a person's folders and check the evidence. Built on the official MCP TypeScript SDK;
 * every tool maps to one operation of the contract, its input schema is made from that operation's
 * zod schema, and its result goes out both as JSON text and as `structuredContent`.
 *
 * It holds no logic of its own and changes no data: the tools read knowledge bases, pages and
 * evidence. `kbs` narrows what an agent may see to the knowledge bases the person named.
 */
import type http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { operations, type OpArgs, type OpName, type OpResult } from '../../shared/contract';
import { SiftError } from '../../shared/errors';
import type { KnowledgeBase, PageDetail } from '../../shared/models';
import type { Sift } from '../core';
import { VERSION } from '../core/base/version';
import { servePageResources } from './mcp-resources';
import { OUTPUTS, SPAN_UNITS, type ToolName } from './mcp-schemas';

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Knowledge bases (ids or exact names) the agent may use; empty or omitted: all of them. */
  kbs?: string[];
}

/** Longest page text `read_page` returns in one call, in characters; an agent pages on with `start`. */
export const READ_PAGE_MAX = 20_000;

const search = operations['search.query'].args.shape;
const evidence = operations['evidence.get'].args.shape;

/** Tool inputs, made from the contract's schemas (snake_case names, as MCP tools usually have). */
const inputs = {
  search: {
    kb: search.kb.describe('knowledge base id or exact name (see list_knowledge_bases)'),
    query: search.query.describe('what to look for; identifiers like E_CONN_RESET and Chinese words work; an error message pasted whole, or words in double quotes, finds the passages that hold them in a row first'),
    top_k: search.topK.describe('passages to return, 1–50 (default 5)'),
    mode: search.mode.describe('hybrid (default), keyword or vector'),
    scope: z.object({
      pages: z.array(z.string()).optional().describe('page paths, wiki/…'),
      folders: z.array(z.string()).optional().describe('folders of the knowledge base, as they were added'),
      // Each member described, so the JSON Schema says anyOf (a strict validator refuses a union `type` list).
      metadata: z.record(z.string(), z.union([
        z.string().describe('a text value'), z.number().describe('a number'), z.boolean().describe('true or false'),
      ])).optional().describe('front-matter fields and the values a page must have'),
    }).optional().describe('limit to pages (wiki/… paths), folders, or metadata values'),
  },
  getContext: {
    kb: evidence.kb,
    evidence_id: evidence.evidenceId.describe('a passage evidenceId from search'),
    window: evidence.window.describe('characters of context on each side, 0–5000 (default 400)'),
  },
  readPage: {
    kb: search.kb,
    path: operations['pages.get'].args.shape.path.describe('a page path from search or list_pages, wiki/…'),
    start: z.number().int().min(0).optional().describe('first UTF-16 code unit (default 0)'),
    end: z.number().int().min(0).optional().describe(`end, in UTF-16 code units (default start + ${READ_PAGE_MAX})`),
  },
  listPages: { kb: search.kb },
  ask: {
    kb: search.kb,
    question: operations['chat.ask'].args.shape.question.describe('the question, in any language'),
    model: operations['chat.ask'].args.shape.model.describe('Ollama model; default the configured one'),
  },
};

/** Create the MCP server over `sift`; connect it to a transport (stdio or Streamable HTTP). */
export function createMcpServer(sift: Sift, options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'sift', version: VERSION });
  const allowed = (options.kbs ?? []).filter((k) => k.trim() !== '');
  const kbsOf = async (): Promise<KnowledgeBase[]> => {
    const all = await must(sift, 'kb.list', {});
    return allowed.length === 0 ? all : all.filter((kb) => allowed.includes(kb.id) || allowed.includes(kb.name));
  };
  /** The knowledge base's id when the agent may use it; `not_found` otherwise (the same for both). */
  const kbId = async (ref: string): Promise<string> => {
    const kb = (await kbsOf()).find((k) => k.id === ref || k.name === ref);
    if (!kb) throw new SiftError('not_found', `no knowledge base has the id or name "${ref}"`);
    return kb.id;
  };
  const readOnly = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    'list_knowledge_bases',
    {
      description: 'The knowledge bases (folders of a person\'s notes, papers, code) Sift can search.',
      outputSchema: OUTPUTS.list_knowledge_bases,
      annotations: readOnly,
    },
    async () => tool('list_knowledge_bases', async () => ({ knowledgeBases: await kbsOf() })),
  );
  server.registerTool(
    'search',
    {
      description:
        'Search a knowledge base (keywords and meaning). Each passage has an evidenceId, its page path, exact '
        + 'character span, sha256 of its text, where it sits (headings, PDF pages, lines) and why it was found. '
        + 'noExactMatch lists identifier-like query terms that occur nowhere in the knowledge base. ' + SPAN_UNITS,
      inputSchema: inputs.search,
      outputSchema: OUTPUTS.search,
      annotations: readOnly,
    },
    async (a) => tool('search', async () => must(sift, 'search.query', { kb: await kbId(a.kb), query: a.query, topK: a.top_k, mode: a.mode, scope: a.scope })),
  );
  server.registerTool(
    'get_context',
    {
      description: 'A passage found by search, with text around it. contentHash is sha256 (of the UTF-8 bytes) of '
        + `the passage span of text. ${SPAN_UNITS}`,
      inputSchema: inputs.getContext,
      outputSchema: OUTPUTS.get_context,
      annotations: readOnly,
    },
    async (a) => tool('get_context', async () => must(sift, 'evidence.get', { kb: await kbId(a.kb), evidenceId: a.evidence_id, window: a.window })),
  );
  server.registerTool(
    'read_page',
    {
      description: `Read a page's canonical text, or a span of it (at most ${READ_PAGE_MAX} UTF-16 code units a call). ${SPAN_UNITS}`,
      inputSchema: inputs.readPage,
      outputSchema: OUTPUTS.read_page,
      annotations: readOnly,
    },
    async (a) => tool('read_page', async () => readPage(sift, await kbId(a.kb), a.path, a.start, a.end)),
  );
  server.registerTool(
    'list_pages',
    {
      description: 'Every file of a knowledge base: source path, page, size, time, sha256, parser, chunks, vector status.',
      inputSchema: inputs.listPages,
      outputSchema: OUTPUTS.list_pages,
      annotations: readOnly,
    },
    async (a) => tool('list_pages', async () => ({ pages: await must(sift, 'pages.manifest', { kb: await kbId(a.kb) }) })),
  );

  server.registerTool(
    'ask',
    {
      description:
        'Answer a question from a knowledge base with Sift\'s own pipeline: search, a local model (or, without one, the '
        + 'best passages quoted), [n] citations checked by code. Returns the answer, its citations and references '
        + '(each with page, span and sha256), the passages it was given and the decision (answered, refused, '
        + `clarification, no_answer). Stores nothing. ${SPAN_UNITS}`,
      inputSchema: inputs.ask,
      outputSchema: OUTPUTS.ask,
      annotations: readOnly,
    },
    async (a) => tool('ask', async () => askResult(await must(sift, 'chat.ask', { kb: await kbId(a.kb), question: a.question, model: a.model }))),
  );

  servePageResources(server, { list: kbsOf, resolve: kbId, pages: (kb) => must(sift, 'pages.list', { kb }), page: (kb, path) => must(sift, 'pages.get', { kb, path }) });
  return server;
}

/** What `ask` returns: the answer and what checks it, without the turn's timings. */
function askResult(asked: OpResult<'chat.ask'>) {
  const { turn } = asked;
  return {
    answer: asked.answer, decision: turn.decision, status: turn.status, model: turn.model,
    citations: turn.citations, references: turn.references, passages: turn.passages,
    ...(turn.warnings ? { warnings: turn.warnings } : {}),
  };
}

/**
 * Answer one Streamable HTTP request to `/mcp` (stateless: a server and transport per request). The caller
 * has checked the token and origin and read the JSON body; GET (a server-sent stream) and DELETE (sessions)
 * are not offered.
 */
export async function handleMcpHttp(
  sift: Sift, req: http.IncomingMessage, res: http.ServerResponse, body: unknown, options: McpServerOptions = {},
): Promise<void> {
  const server = createMcpServer(sift, options);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

async function readPage(sift: Sift, kb: string, pagePath: string, start = 0, end?: number) {
  const page = await must(sift, 'pages.get', { kb, path: pagePath });
  const from = Math.min(start, page.text.length);
  const to = Math.min(page.text.length, end ?? from + READ_PAGE_MAX, from + READ_PAGE_MAX);
  const stop = Math.max(from, to);
  const text = page.text.slice(from, stop);
  return {
    path: page.path, title: page.title, kind: page.kind, length: page.text.length, start: from, end: stop, text,
    headings: page.headings, parts: partsOf(page, from, stop), ocr: ocrOf(page, from, stop),
  };
}

/** What OCR read in `[from, to)`: the OCR'd pages the range overlaps, each with its lines in the range and their text. */
function ocrOf(page: PageDetail, from: number, to: number) {
  if (!page.ocr) return null;
  const inRange = (l: { start: number; end: number }) => l.start < Math.max(to, from + 1) && l.end > from;
  const pages = page.ocr.pages
    .map((p) => ({ ...p, lines: p.lines.filter(inRange).map((l) => ({ ...l, text: page.text.slice(l.start, l.end) })) }))
    .filter((p) => p.lines.length > 0);
  return { model: page.ocr.model, confidence: page.ocr.confidence, lowConfidence: page.ocr.lowConfidence, pages };
}

/** What a numbered span of each kind of page is (see page-model's PageSpan). */
const PART_KIND: Record<string, string> = { sheet: 'rows', slides: 'slide', epub: 'chapter' };

/**
 * The numbered parts of `[from, to)`: PDF pages, slides, chapters (`number` is its number), or a sheet's
 * row runs (`number` is the run's first row; one row a line). Offsets are into the whole page text.
 */
function partsOf(page: PageDetail, from: number, to: number) {
  const overlapping = (page.pdfPages ?? []).filter((p) => p.start < Math.max(to, from + 1) && p.end > from);
  return overlapping.map((p) => ({ kind: PART_KIND[page.kind] ?? 'page', number: p.page, start: p.start, end: p.end }));
}

/** Call an operation; a failure becomes a thrown SiftError with the contract's code. */
async function must<N extends OpName>(sift: Sift, op: N, args: OpArgs<N>): Promise<OpResult<N>> {
  const result = await sift.invoke(op, args);
  if (!result.ok) throw new SiftError(result.error.code, result.error.message);
  return result.value as OpResult<N>;
}

/**
 * A tool's answer: the payload, as its output schema has it, as JSON text and as `structuredContent`, or an error result that
 * names its code (an agent can act on `not_found` or `invalid_argument`; it never sees a stack).
 */
async function tool(name: ToolName, run: () => Promise<object>): Promise<CallToolResult> {
  try {
    // Exactly the published output schema: fields it does not name are left out (an agent's strict check allows none).
    const value = OUTPUTS[name].parse(await run()) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
  } catch (err) {
    const code = err instanceof SiftError ? err.code : 'internal';
    const message = err instanceof Error ? err.message : String(err);
    return { isError: true, content: [{ type: 'text', text: `${code}: ${message}` }] };
  }
}
