/**
 * The pages of the knowledge bases an agent may see, as MCP resources `sift://KB_ID/wiki/PATH` (text/plain, the
 * page's canonical text). Served with the SDK's low-level handlers rather than its resource template, so that a page
 * that cannot be read is what the MCP specification says it is: −32002, resource not found, with the URI as data
 * (the template answers every miss with −32602 and every failure with −32603).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, McpError, ReadResourceRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { SiftError } from '../../shared/errors';
import type { KnowledgeBase, PageDetail, PageSummary } from '../../shared/models';

/** MCP's error code for a resource that does not exist (its specification, "Error Handling" of Resources). */
export const RESOURCE_NOT_FOUND = -32002;

/** What the resources read, narrowed to what the agent may see. */
export interface PageSource {
  /** The knowledge bases the agent may see. */
  list(): Promise<KnowledgeBase[]>;
  /** The id of a knowledge base the agent may see; throws `not_found` otherwise. */
  resolve(ref: string): Promise<string>;
  pages(kbId: string): Promise<PageSummary[]>;
  page(kbId: string, path: string): Promise<PageDetail>;
}

/** The resource URI of a page: `sift://KB_ID/wiki/…`. */
export function pageUri(kbId: string, pagePath: string): string {
  return `sift://${kbId}/${pagePath.split('/').map(encodeURIComponent).join('/')}`;
}

/** The knowledge base and page path of a page URI, or null when `uri` is not one. */
export function parsePageUri(uri: string): { kb: string; path: string } | null {
  const match = /^sift:\/\/([^/?#]+)\/(wiki\/[^?#]*)$/.exec(uri);
  if (!match) return null;
  try {
    return { kb: decodeURIComponent(match[1]!), path: match[2]!.split('/').map(decodeURIComponent).join('/') };
  } catch {
    return null; // a broken %-escape
  }
}

/** Serve `source`'s pages as resources of `server` (call before it connects). */
export function servePageResources(server: McpServer, source: PageSource): void {
  const low = server.server;
  low.registerCapabilities({ resources: {} });
  low.setRequestHandler(ListResourcesRequestSchema, async () => {
    const resources = [];
    for (const kb of await source.list()) {
      for (const page of await source.pages(kb.id)) {
        resources.push({ uri: pageUri(kb.id, page.path), name: page.title, description: `${kb.name}: ${page.path}`, mimeType: 'text/plain' });
      }
    }
    return { resources };
  });
  low.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{
      uriTemplate: 'sift://{kb}/{+path}', name: 'page', mimeType: 'text/plain',
      description: 'A page of a knowledge base, as its canonical text.',
    }],
  }));
  low.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    const at = parsePageUri(uri);
    if (!at) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} is not a Sift page (sift://KB_ID/wiki/PATH)`, { uri });
    try {
      const page = await source.page(await source.resolve(at.kb), at.path);
      return { contents: [{ uri, mimeType: 'text/plain', text: page.text }] };
    } catch (err) {
      if (err instanceof SiftError && (err.code === 'not_found' || err.code === 'invalid_argument')) {
        throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${err.message}`, { uri });
      }
      throw new McpError(ErrorCode.InternalError, err instanceof Error ? err.message : String(err));
    }
  });
}
