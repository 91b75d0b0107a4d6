/**
 * Conversations and chat turns. A turn's id is chosen here before `chat.send`, so its events
 * (which may arrive before the send's answer) are matched from the first one. While a turn runs,
 * its streamed text and retrieval steps live in `turns`; once it ends, the stored message joins
 * the conversation's messages and the steps stay for the status bar.
 */
import { create } from 'zustand';
import type { ChatMessage, Conversation, Decision, TurnInfo } from '../../../shared/chat-models';
import { client } from '../client';
import { i18n } from '../i18n';
import { useLlm } from './llm';

/** One thing a turn did, in the order it happened. */
export type TurnStep =
  | { kind: 'searching'; query: string }
  | { kind: 'found'; count: number; paths: string[]; noExactMatch?: string[] }
  | { kind: 'empty'; noExactMatch?: string[] }
  | { kind: 'search-failed'; message: string }
  | { kind: 'tool'; name: string }
  | { kind: 'tool-result'; name: string; ok: boolean; summary: string }
  | { kind: 'answering' }
  | { kind: 'done'; status: TurnInfo['status']; decision: Decision }
  | { kind: 'failed'; message: string };

/** A turn started from this window. */
export interface LiveTurn {
  turnId: string;
  kbId: string | null;
  /** Null until `chat.send` answers for a new conversation. */
  conversationId: string | null;
  question: string;
  /** True once the question is in the conversation's messages (as `userMessageId`). */
  questionStored: boolean;
  userMessageId: string | null;
  /** True once the answer (complete or partial) is in the conversation's messages. */
  answerStored: boolean;
  /** The answer so far. */
  text: string;
  steps: TurnStep[];
  running: boolean;
  stopping: boolean;
  /** Why the turn failed, when it did. */
  error: string | null;
}

interface ChatState {
  conversations: Record<string, Conversation[]>;
  /** The open conversation per knowledge base; null means a new one, created by the first question. */
  current: Record<string, string | null>;
  messages: Record<string, ChatMessage[]>;
  turns: Record<string, LiveTurn>;
  /** The latest turn started from this window (the status bar shows its steps). */
  activeTurnId: string | null;
  loadConversations(kbId: string): Promise<void>;
  open(kbId: string, conversationId: string): Promise<void>;
  startNew(kbId: string): void;
  /** Rename a conversation; returns an error message, or null. */
  rename(kbId: string, id: string, title: string): Promise<string | null>;
  /** Delete a conversation; returns an error message, or null. */
  remove(kbId: string, id: string): Promise<string | null>;
  /** Ask a question in the open conversation; returns an error message, or null once the turn runs. */
  send(kbId: string, text: string): Promise<string | null>;
  /** Stop a running turn; its partial answer is kept. */
  cancel(turnId: string): Promise<void>;
}

/** The chat store. */
export const useChat = create<ChatState>((set, get) => ({
  conversations: {},
  current: {},
  messages: {},
  turns: {},
  activeTurnId: null,

  async loadConversations(kbId) {
    const result = await client.invoke('conversations.list', { kb: kbId });
    if (result.ok) set((s) => ({ conversations: { ...s.conversations, [kbId]: result.value } }));
  },

  async open(kbId, conversationId) {
    set((s) => ({ current: { ...s.current, [kbId]: conversationId } }));
    const result = await client.invoke('conversations.get', { id: conversationId });
    if (result.ok) set((s) => ({ messages: { ...s.messages, [conversationId]: mergeMessages(s.messages[conversationId], result.value.messages) } }));
  },

  startNew(kbId) {
    set((s) => ({ current: { ...s.current, [kbId]: null } }));
  },

  async rename(kbId, id, title) {
    const result = await client.invoke('conversations.rename', { id, title });
    if (!result.ok) return result.error.message;
    await get().loadConversations(kbId);
    return null;
  },

  async remove(kbId, id) {
    for (const turn of Object.values(get().turns)) if (turn.conversationId === id && turn.running) await get().cancel(turn.turnId);
    const result = await client.invoke('conversations.delete', { id });
    if (!result.ok) return result.error.message;
    if (get().current[kbId] === id) get().startNew(kbId);
    await get().loadConversations(kbId);
    return null;
  },

  async send(kbId, text) {
    const conversationId = get().current[kbId] ?? null;
    const turnId = crypto.randomUUID();
    const turn: LiveTurn = {
      turnId, kbId, conversationId, question: text, questionStored: false, userMessageId: null, answerStored: false, text: '', steps: [], running: true, stopping: false, error: null,
    };
    set((s) => ({ turns: { ...s.turns, [turnId]: turn }, activeTurnId: turnId }));
    // The UI's language, so what Sift writes itself into the answer (the no-model notice) matches it.
    const language = i18n.language;
    const result = await client.invoke('chat.send', { kb: kbId, conversationId: conversationId ?? undefined, message: text, turnId, language });
    if (!result.ok) {
      set((s) => ({ turns: without(s.turns, turnId), activeTurnId: null }));
      return result.error.message;
    }
    const sent = result.value;
    const question: ChatMessage = {
      id: sent.userMessageId, conversationId: sent.conversationId, role: 'user', content: text, createdAt: new Date().toISOString(), turn: null,
    };
    set((s) => ({
      current: (s.current[kbId] ?? null) === conversationId ? { ...s.current, [kbId]: sent.conversationId } : s.current,
      messages: { ...s.messages, [sent.conversationId]: insertBeforeAnswer(s.messages[sent.conversationId], question, s.turns[turnId]) },
      turns: patch(s.turns, turnId, { conversationId: sent.conversationId, questionStored: true, userMessageId: sent.userMessageId }),
    }));
    void get().loadConversations(kbId);
    return null;
  },

  async cancel(turnId) {
    set((s) => ({ turns: patch(s.turns, turnId, { stopping: true }) }));
    await client.invoke('chat.cancel', { turnId });
  },
}));

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const copy = { ...record };
  delete copy[key];
  return copy;
}

function patch(turns: Record<string, LiveTurn>, turnId: string, change: Partial<LiveTurn>): Record<string, LiveTurn> {
  const turn = turns[turnId];
  return turn ? { ...turns, [turnId]: { ...turn, ...change } } : turns;
}

/** Messages from the store merged with those already shown, each once, in time order. */
function mergeMessages(shown: ChatMessage[] | undefined, stored: ChatMessage[]): ChatMessage[] {
  const ids = new Set(stored.map((m) => m.id));
  return [...stored, ...(shown ?? []).filter((m) => !ids.has(m.id))];
}

/** Add the question; if the answer already arrived (a fast turn), the question goes before it. */
function insertBeforeAnswer(list: ChatMessage[] | undefined, question: ChatMessage, turn: LiveTurn | undefined): ChatMessage[] {
  const messages = (list ?? []).filter((m) => m.id !== question.id);
  const answerAt = turn ? messages.findIndex((m) => m.turn?.turnId === turn.turnId) : -1;
  if (answerAt < 0) return [...messages, question];
  return [...messages.slice(0, answerAt), question, ...messages.slice(answerAt)];
}

function step(turnId: string, next: TurnStep, change: Partial<LiveTurn> = {}): void {
  useChat.setState((s) => {
    const turn = s.turns[turnId];
    if (!turn) return s;
    return { turns: { ...s.turns, [turnId]: { ...turn, ...change, steps: [...turn.steps, next] } } };
  });
}

/** Put a turn's stored message into its conversation and close the turn. */
function finish(turnId: string, message: ChatMessage | null, last: TurnStep, error: string | null): void {
  useChat.setState((s) => {
    const turn = s.turns[turnId];
    if (!turn) return s;
    const messages = message
      ? { ...s.messages, [message.conversationId]: [...(s.messages[message.conversationId] ?? []).filter((m) => m.id !== message.id), message] }
      : s.messages;
    const ended = { ...turn, running: false, stopping: false, error, answerStored: !!message, steps: [...turn.steps, last] };
    return { messages, turns: { ...s.turns, [turnId]: ended } };
  });
  const turn = useChat.getState().turns[turnId];
  if (turn?.kbId) void useChat.getState().loadConversations(turn.kbId);
  void useLlm.getState().refresh();
}

client.subscribe('search.started', ({ turnId, query }) => step(turnId, { kind: 'searching', query }));
client.subscribe('search.done', ({ turnId, count, paths, noExactMatch }) =>
  step(turnId, { kind: 'found', count, paths, noExactMatch }),
);
client.subscribe('search.empty', ({ turnId, noExactMatch }) => step(turnId, { kind: 'empty', noExactMatch }));
client.subscribe('search.failed', ({ turnId, message }) => step(turnId, { kind: 'search-failed', message }));
client.subscribe('tool.called', ({ turnId, name }) => step(turnId, { kind: 'tool', name }));
client.subscribe('tool.result', ({ turnId, name, ok, summary }) => step(turnId, { kind: 'tool-result', name, ok, summary }));
client.subscribe('answer.token', ({ turnId, text }) => {
  useChat.setState((s) => {
    const turn = s.turns[turnId];
    if (!turn) return s;
    const first = turn.text === '' && !turn.steps.some((x) => x.kind === 'answering');
    const steps: TurnStep[] = first ? [...turn.steps, { kind: 'answering' }] : turn.steps;
    return { turns: { ...s.turns, [turnId]: { ...turn, text: turn.text + text, steps } } };
  });
});
client.subscribe('answer.done', ({ turnId, message, decision }) => {
  finish(turnId, message, { kind: 'done', status: message.turn?.status ?? 'complete', decision }, null);
});
client.subscribe('answer.failed', ({ turnId, message, partial }) => {
  finish(turnId, partial, { kind: 'failed', message }, message);
});
