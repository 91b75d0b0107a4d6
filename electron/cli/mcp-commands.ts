/**
 * `sift mcp`: Sift as an MCP server on standard input and output, the way desktop MCP clients
 * (Claude Desktop, Cursor, VS Code) launch a tool. Standard output carries only the protocol;
 * everything else goes to standard error.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ollamaHostFromEnv } from '../core/config/settings';
import { createMcpServer } from '../hosts/mcp-host';
import { SiftError } from '../../shared/errors';
import { call, type Command } from './command';
import { UsageError } from './usage';

/** MCP commands, keyed by their words. */
export const mcpCommands: Record<string, Command> = {
  mcp: {
    words: 1,
    // `ask` answers with the Ollama that OLLAMA_HOST (or --ollama-host) names, as every other command does.
    core: (flags) => ({ chat: { host: ollamaHostFromEnv(flags['ollama-host'] ?? process.env.OLLAMA_HOST) } }),
    async run({ sift, args, flags, io }) {
      if (args.length > 0) throw new UsageError(`sift mcp takes no arguments (name knowledge bases with --kb), got "${args.join(' ')}"`);
      // A knowledge base named wrong would leave the agent with nothing to see and no word why.
      const kbs = await call(sift, 'kb.list', {});
      for (const ref of flags.kb ?? []) {
        if (!kbs.some((k) => k.id === ref || k.name === ref)) throw new SiftError('not_found', `no knowledge base has the id or name "${ref}"`);
      }
      const server = createMcpServer(sift, { kbs: flags.kb ?? [] });
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = resolve;
        process.stdin.once('end', resolve);
      });
      await server.connect(transport);
      io.err(`sift mcp: serving ${flags.kb?.length ? flags.kb.join(', ') : 'every knowledge base'} on stdio`);
      await closed;
      await server.close();
      return 0;
    },
  },
};
