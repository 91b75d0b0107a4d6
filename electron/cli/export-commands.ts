/** The CLI's conversation and export commands. */
import path from 'node:path';
import { call, need, printJson, table, type Command } from './command';
import { UsageError } from './usage';

/** Conversation and export commands, keyed by their words. */
export const exportCommands: Record<string, Command> = {
  conversations: {
    words: 1,
    async run({ sift, args, flags, io }) {
      const [kb] = need(args, ['kb']);
      const list = await call(sift, 'conversations.list', { kb: kb! });
      const full = await Promise.all(list.map((c) => call(sift, 'conversations.get', { id: c.id })));
      if (flags.json) {
        return printJson(io, full.map(({ conversation, messages }) => ({ ...conversation, messages: messages.map((m) => ({ id: m.id, role: m.role, createdAt: m.createdAt, preview: m.content.slice(0, 80) })) })));
      }
      if (list.length === 0) {
        io.out('No conversations yet. Ask something with: sift ask KB "QUESTION"');
        return 0;
      }
      for (const { conversation, messages } of full) {
        io.out(`${conversation.id}  ${conversation.title}  (${conversation.updatedAt.slice(0, 16).replace('T', ' ')})`);
        io.out(table(messages.map((m) => [`  ${m.id}`, m.role, m.content.replace(/\s+/g, ' ').slice(0, 60)])));
      }
      return 0;
    },
  },
  export: {
    words: 1,
    async run({ sift, args, flags, io }) {
      const [conversationId] = need(args, ['conversation']);
      const format = flags.format ?? 'md';
      if (format !== 'md' && format !== 'html' && format !== 'pdf') throw new UsageError(`--format must be md, html or pdf, got ${format}`);
      const messageId = flags.message;
      if (!flags.out) {
        if (format === 'pdf') throw new UsageError('a PDF needs --out FILE');
        const rendered = await call(sift, 'export.render', { conversationId: conversationId!, messageId, format });
        (io.write ?? io.out)(rendered.content);
        return 0;
      }
      const out = path.resolve(flags.out);
      const saved = await call(sift, 'export.save', { conversationId: conversationId!, messageId, format, folder: path.dirname(out), fileName: path.basename(out) });
      io.out(`wrote ${saved.path}`);
      return 0;
    },
  },
};
