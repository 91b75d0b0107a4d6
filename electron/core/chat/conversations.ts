/** Conversations and their messages in the app database (deleted with their knowledge base). */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ChatMessage, Conversation, TurnInfo } from '../../../shared/chat-models';
import { SiftError } from '../../../shared/errors';
import { now } from '../store/context';
import { conversationTitle } from './title';

interface ConversationRow {
  id: string;
  kb_id: string;
  title: string;
  created_at: string;
  updated_at: string;
  message_count: number;
}

interface MessageRow {
  id: string;
  conversation_id: string;
  role: 'user' | 'assistant';
  content: string;
  created_at: string;
  turn: string | null;
}

const SELECT = `SELECT c.*, (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id) AS message_count FROM conversations c`;

function toConversation(r: ConversationRow): Conversation {
  return { id: r.id, kbId: r.kb_id, title: r.title, createdAt: r.created_at, updatedAt: r.updated_at, messageCount: r.message_count };
}

function toMessage(r: MessageRow): ChatMessage {
  return {
    id: r.id,
    conversationId: r.conversation_id,
    role: r.role,
    content: r.content,
    createdAt: r.created_at,
    turn: r.turn ? (JSON.parse(r.turn) as TurnInfo) : null,
  };
}

/** Conversations of a knowledge base, most recently active first. */
export function listConversations(db: Database.Database, kbId: string): Conversation[] {
  return (db.prepare(`${SELECT} WHERE c.kb_id = ? ORDER BY c.updated_at DESC, c.id`).all(kbId) as ConversationRow[]).map(toConversation);
}

/** One conversation, or `not_found`. */
export function getConversation(db: Database.Database, id: string): Conversation {
  const row = db.prepare(`${SELECT} WHERE c.id = ?`).get(id) as ConversationRow | undefined;
  if (!row) throw new SiftError('not_found', `no conversation with id ${id}`);
  return toConversation(row);
}

/** Start a conversation. The title defaults to "New conversation" until the first message names it. */
export function createConversation(db: Database.Database, kbId: string, title?: string): Conversation {
  const id = randomUUID();
  const at = now();
  db.prepare(`INSERT INTO conversations (id, kb_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`).run(id, kbId, title?.trim() || 'New conversation', at, at);
  return getConversation(db, id);
}

/** Rename a conversation. */
export function renameConversation(db: Database.Database, id: string, title: string): Conversation {
  getConversation(db, id);
  db.prepare(`UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?`).run(title, now(), id);
  return getConversation(db, id);
}

/** Delete a conversation with its messages. */
export function deleteConversation(db: Database.Database, id: string): void {
  getConversation(db, id);
  db.prepare(`DELETE FROM conversations WHERE id = ?`).run(id);
}

/** Every message of a conversation, oldest first. */
export function listMessages(db: Database.Database, conversationId: string): ChatMessage[] {
  return (db.prepare(`SELECT * FROM messages WHERE conversation_id = ? ORDER BY created_at, rowid`).all(conversationId) as MessageRow[]).map(toMessage);
}

/** One message, or `not_found`. */
export function getMessage(db: Database.Database, id: string): ChatMessage {
  const row = db.prepare(`SELECT * FROM messages WHERE id = ?`).get(id) as MessageRow | undefined;
  if (!row) throw new SiftError('not_found', `no message with id ${id}`);
  return toMessage(row);
}

/** Append a message; a conversation still called "New conversation" is named after its first question. */
export function addMessage(db: Database.Database, conversationId: string, role: 'user' | 'assistant', content: string, turn: TurnInfo | null): ChatMessage {
  const id = randomUUID();
  const at = now();
  db.transaction(() => {
    db.prepare(`INSERT INTO messages (id, conversation_id, role, content, created_at, turn) VALUES (?, ?, ?, ?, ?, ?)`).run(
      id, conversationId, role, content, at, turn ? JSON.stringify(turn) : null,
    );
    db.prepare(`UPDATE conversations SET updated_at = ? WHERE id = ?`).run(at, conversationId);
    if (role === 'user') {
      const title = conversationTitle(content);
      db.prepare(`UPDATE conversations SET title = ? WHERE id = ? AND title = 'New conversation'`).run(title, conversationId);
    }
  })();
  return getMessage(db, id);
}
