/**
 * Ready-to-paste MCP client configurations for Sift: the stdio one desktop clients launch (`sift mcp`) and,
 * in browser mode, the Streamable HTTP one for the running host (its `/mcp` URL and token).
 */

/** A client configuration as JSON text, for Claude Desktop / Cursor style `mcpServers` files. */
export function stdioConfig(cliPath: string): string {
  return JSON.stringify({ mcpServers: { sift: { command: 'node', args: [cliPath, 'mcp'] } } }, null, 2);
}

/** The Streamable HTTP configuration for the host at `origin`, authorised by `token`. */
export function httpConfig(origin: string, token: string): string {
  const server = { type: 'http', url: `${origin}/mcp`, headers: { Authorization: `Bearer ${token}` } };
  return JSON.stringify({ mcpServers: { sift: server } }, null, 2);
}
