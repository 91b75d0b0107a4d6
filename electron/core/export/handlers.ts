/** The export operations: render a conversation or one answer as Markdown or HTML, or save it (also as PDF). */
import type Database from 'better-sqlite3';
import type { Handlers } from '../../../shared/contract';
import { SiftError } from '../../../shared/errors';
import { getConversation, listMessages } from '../chat/conversations';
import type { CoreContext } from '../store/context';
import { now } from '../store/context';
import { writeInside, sanitizeFileName } from './files';
import { markdownToHtmlDocument } from './html';
import { exportLanguage, exportTitle, selectMessages, toMarkdown, type ExportSource } from './markdown';
import type { PdfRenderer } from './pdf';
import { fixPdfRadicals } from './pdf-unicode';

/** Everything an export needs, read from the app database. */
function sourceOf(
  db: Database.Database,
  conversationId: string,
  messageId: string | undefined,
  includeThinking = false,
): ExportSource {
  const conversation = getConversation(db, conversationId);
  const kbName = (db.prepare(`SELECT name FROM knowledge_bases WHERE id = ?`).pluck().get(conversation.kbId) as string | undefined) ?? conversation.kbId;
  const messages = listMessages(db, conversationId);
  const source: ExportSource = { conversation, kbName, messages, messageId, exportedAt: now(), includeThinking };
  const chosen = selectMessages(source);
  if (messageId && !chosen.some((m) => m.id === messageId && m.role === 'assistant')) {
    throw new SiftError('not_found', `conversation ${conversationId} has no answer with id ${messageId}`);
  }
  return source;
}

/** `md` or `html` text of an export. */
export function renderExport(source: ExportSource, format: 'md' | 'html'): string {
  const markdown = toMarkdown(source);
  if (format === 'md') return markdown;
  return markdownToHtmlDocument(markdown, exportTitle(source), exportLanguage(selectMessages(source)));
}

/** A PDF of an export, its Chinese text copying as the characters shown (pdf-unicode.ts). */
export async function renderPdfExport(source: ExportSource, renderPdf: PdfRenderer): Promise<Buffer> {
  return fixPdfRadicals(await renderPdf(renderExport(source, 'html')));
}

/** Handlers for `export.render` and `export.save`. */
export function exportHandlers(ctx: CoreContext, renderPdf: PdfRenderer): Pick<Handlers, 'export.render' | 'export.save'> {
  return {
    async 'export.render'({ conversationId, messageId, format, includeThinking }) {
      const source = sourceOf(ctx.appDb, conversationId, messageId, includeThinking);
      return {
        fileName: sanitizeFileName(source.conversation.title, format),
        mimeType: format === 'md' ? 'text/markdown; charset=utf-8' : 'text/html; charset=utf-8',
        content: renderExport(source, format),
      };
    },
    async 'export.save'({ conversationId, messageId, format, folder, fileName, includeThinking }) {
      const source = sourceOf(ctx.appDb, conversationId, messageId, includeThinking);
      const name = sanitizeFileName(fileName ?? source.conversation.title, format);
      const content = format === 'pdf' ? await renderPdfExport(source, renderPdf) : renderExport(source, format);
      return { path: writeInside(folder, name, content) };
    },
  };
}
