/**
 * Conversations and chat turns. A turn's id is chosen here before `chat.send`, so its events
 * (which may arrive before the send's answer) are matched from the first one. While a turn runs,
 * its streamed text and retrieval steps live in `turns`; once it ends, the stored message joins
 * the conversation's messages and the steps stay for the status bar.
 */
import { create } from 'zustand';
import type { ChatMessage, Conversation, Decision, RunningTurn, TurnInfo } from '../../../shared/chat-models';
import type { TurnStep as RunningStep } from '../../../shared/chat-models';
import { stepOfEvent } from '../../../shared/turn-steps';
import type { SearchDepth } from '../../../shared/models';
import { client } from '../client';
import { i18n } from '../i18n';
import { rememberConversation, rememberedConversation } from '../lib/open-conversation';
import { joinSnapshot, TokenBatcher } from '../lib/stream-text';
import { useLlm } from './llm';
import type { SaidMap } from '../../../shared/said';

/** One thing a turn did, in the order it happened. */
export type TurnStep =
  | RunningStep
  | { kind: 'done'; status: TurnInfo['status']; decision: Decision }
  | { kind: 'failed'; message: string; said?: SaidMap };

/** A turn this window follows: started here, or found running in a conversation it shows. */
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
  /** The model's reasoning so far (absent when it showed none). */
  thinking?: string;
  steps: TurnStep[];
  running: boolean;
  stopping: boolean;
  /** Why the turn failed, when it did. */
  error: string | null;
  /** `error`'s code and parameters (shared/said.ts), when it is one of the core's messages. */
  errorSaid?: SaidMap;
  /** True when the connection to the host was lost while it ran (its end was not heard). */
  lost?: boolean;
  /** When this window began following it (see `clock`): a snapshot asked for earlier knows nothing of it. */
  since?: number;
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
  /** Reopen the conversation this tab had open in `kbId` before a reload (once per knowledge base). */
  restore(kbId: string): Promise<void>;
  /** Reload what the open conversations show, after the connection to the host came back. */
  reload(): Promise<void>;
  /** The connection to the host was lost: running turns can no longer be heard, so they stop answering. */
  interrupt(): void;
  startNew(kbId: string): void;
  /** Rename a conversation; returns an error message, or null. */
  rename(kbId: string, id: string, title: string): Promise<string | null>;
  /** Delete a conversation; returns an error message, or null. */
  remove(kbId: string, id: string): Promise<string | null>;
  /** Ask a question in the open conversation; returns an error message, or null once the turn runs. */
  send(kbId: string, text: string, depth?: SearchDepth): Promise<string | null>;
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
    rememberConversation(kbId, conversationId);
    set((s) => ({ current: { ...s.current, [kbId]: conversationId } }));
    const asked = ++clock;
    const result = await client.invoke('conversations.get', { id: conversationId });
    if (!result.ok) return;
    const { messages, running } = result.value;
    const merged = (s: ChatState) => mergeMessages(s.messages[conversationId], messages);
    set((s) => ({ messages: { ...s.messages, [conversationId]: merged(s) } }));
    if (running) adopt(kbId, conversationId, running);
    else settle(conversationId, asked);
  },

  async restore(kbId) {
    if (kbId in get().current) return;
    const id = rememberedConversation(kbId);
    set((s) => ({ current: { ...s.current, [kbId]: id } }));
    if (id) await get().open(kbId, id);
  },

  async reload() {
    const { current } = get();
    await Promise.all(
      Object.entries(current).map(async ([kbId, id]) => {
        await get().loadConversations(kbId);
        if (id) await get().open(kbId, id);
      }),
    );
  },

  interrupt() {
    set((s) => {
      const turns = { ...s.turns };
      for (const t of Object.values(turns)) {
        if (t.running) turns[t.turnId] = { ...t, running: false, stopping: false, lost: true };
      }
      return { turns };
    });
  },

  startNew(kbId) {
    rememberConversation(kbId, null);
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

  async send(kbId, text, depth) {
    const conversationId = get().current[kbId] ?? null;
    const turnId = crypto.randomUUID();
    const turn: LiveTurn = {
      turnId, kbId, conversationId, question: text, questionStored: false, userMessageId: null, answerStored: false, text: '', steps: [], running: true, stopping: false, error: null,
      since: ++clock,
    };
    set((s) => ({ turns: { ...s.turns, [turnId]: turn }, activeTurnId: turnId }));
    // The UI's language, so what Sift writes itself into the answer (the no-model notice) matches it.
    const language = i18n.language;
    const sent0 = { kb: kbId, conversationId: conversationId ?? undefined, message: text, turnId, language };
    // The person's depth for this message, when they chose one (else the settings decide).
    const result = await client.invoke('chat.send', depth ? { ...sent0, depth } : sent0);
    if (!result.ok) {
      set((s) => ({ turns: without(s.turns, turnId), activeTurnId: null }));
      return result.error.message;
    }
    const sent = result.value;
    const question: ChatMessage = {
      id: sent.userMessageId, conversationId: sent.conversationId, role: 'user', content: text, createdAt: new Date().toISOString(), turn: null,
    };
    if ((get().current[kbId] ?? null) === conversationId) rememberConversation(kbId, sent.conversationId);
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

/** Orders what this window asked and what it began to follow, so a late answer cannot undo newer news. */
let clock = 0;

/** Tokens heard for turns this window does not follow (yet), kept briefly in case it adopts them. */
const unknownText = new Map<string, string>();
const UNKNOWN_KEPT = 8;

/** Follow a turn found running in a conversation this window shows, with its answer and steps so far. */
function adopt(kbId: string, conversationId: string, running: RunningTurn): void {
  batcher.flush();
  useChat.setState((s) => {
    const known = s.turns[running.turnId];
    // A snapshot that arrives after the turn's end was heard is old news.
    if (known && !known.running && !known.lost) return s;
    const heard = unknownText.get(running.turnId) ?? '';
    unknownText.delete(running.turnId);
    const text = joinSnapshot(running.text, known ? known.text : heard);
    const turn: LiveTurn = {
      turnId: running.turnId, kbId, conversationId, question: '', questionStored: true,
      userMessageId: running.userMessageId, answerStored: false, text, running: true,
      ...(running.thinking ? { thinking: running.thinking } : {}),
      stopping: known?.stopping ?? false, error: null, since: known?.since ?? ++clock,
      steps: known && known.steps.length > running.steps.length ? known.steps : running.steps,
    };
    return { turns: { ...s.turns, [running.turnId]: turn } };
  });
}

/**
 * The conversation had no running turn when asked (`asked`): any turn this window followed before then
 * and still thinks runs there ended while it was not listening (its answer, if stored, came with the messages).
 */
function settle(conversationId: string, asked: number): void {
  useChat.setState((s) => {
    const stale = Object.values(s.turns).filter(
      (t) => t.conversationId === conversationId && (t.running || t.lost) && (t.since ?? 0) < asked,
    );
    if (stale.length === 0) return s;
    const stored = new Set((s.messages[conversationId] ?? []).map((m) => m.turn?.turnId));
    const turns = { ...s.turns };
    for (const t of stale) {
      turns[t.turnId] = { ...t, running: false, stopping: false, lost: false, answerStored: stored.has(t.turnId) };
    }
    return { turns };
  });
}

function step(turnId: string, next: TurnStep, change: Partial<LiveTurn> = {}): void {
  batcher.flush();
  useChat.setState((s) => {
    const turn = s.turns[turnId];
    if (!turn) return s;
    return { turns: { ...s.turns, [turnId]: { ...turn, ...change, steps: [...turn.steps, next] } } };
  });
}

/** Put a turn's stored message into its conversation and close the turn. */
function finish(turnId: string, message: ChatMessage | null, last: TurnStep, error: string | null, said?: SaidMap): void {
  batcher.flush();
  unknownText.delete(turnId);
  useChat.setState((s) => {
    const turn = s.turns[turnId];
    const conversationId = message?.conversationId;
    // Another tab's turn in a conversation shown here: its answer joins the messages all the same.
    const shown = !!conversationId && s.messages[conversationId] !== undefined;
    if (!turn && !shown) return s;
    const messages = message && (turn || shown)
      ? { ...s.messages, [message.conversationId]: [...(s.messages[message.conversationId] ?? []).filter((m) => m.id !== message.id), message] }
      : s.messages;
    if (!turn) return { messages };
    const ended = { ...turn, running: false, stopping: false, error, errorSaid: said, answerStored: !!message, steps: [...turn.steps, last] };
    return { messages, turns: { ...s.turns, [turnId]: ended } };
  });
  const turn = useChat.getState().turns[turnId];
  if (turn?.kbId) void useChat.getState().loadConversations(turn.kbId);
  void useLlm.getState().refresh();
}

/** Apply a frame's worth of streamed tokens at once: one store update, one render, per frame. */
const batcher = new TokenBatcher((batch) => {
  useChat.setState((s) => {
    const turns = { ...s.turns };
    for (const [turnId, text] of batch) {
      const turn = turns[turnId];
      if (!turn) {
        keepUnknown(turnId, text);
        continue;
      }
      const first = !turn.steps.some((x) => x.kind === 'answering');
      const steps: TurnStep[] = first ? [...turn.steps, { kind: 'answering' }] : turn.steps;
      turns[turnId] = { ...turn, text: turn.text + text, steps };
    }
    return { turns };
  });
});

function keepUnknown(turnId: string, text: string): void {
  unknownText.set(turnId, (unknownText.get(turnId) ?? '') + text);
  if (unknownText.size > UNKNOWN_KEPT) unknownText.delete(unknownText.keys().next().value!);
}

/** Reasoning joins the turn's thinking; answer text it takes back (an orphan `</think>`) leaves the answer shown. */
function thought(turnId: string, text: string, takesBack: number): void {
  batcher.flush();
  useChat.setState((s) => {
    const turn = s.turns[turnId];
    if (!turn) return s;
    const kept = turn.text.slice(0, Math.max(0, turn.text.length - takesBack));
    return { turns: { ...s.turns, [turnId]: { ...turn, text: kept, thinking: (turn.thinking ?? '') + text } } };
  });
}

/** A turn started somewhere (maybe another tab): follow it when its conversation is shown here. */
function turnStarted(turnId: string, conversationId: string): void {
  const s = useChat.getState();
  if (s.turns[turnId]) return;
  const kbId = Object.keys(s.current).find((kb) => s.current[kb] === conversationId);
  if (kbId) void s.open(kbId, conversationId);
  // Its conversation may be new, or its message count changed: refresh the lists shown.
  for (const kb of Object.keys(s.conversations)) void s.loadConversations(kb);
}

const onStep = (event: string) => (payload: { turnId: string }) => {
  const turn = useChat.getState().turns[payload.turnId];
  const next = stepOfEvent(event, payload, turn?.steps.some((x) => x.kind === 'answering') ?? false);
  if (next) step(payload.turnId, next);
};

client.subscribe('turn.started', ({ turnId, conversationId }) => turnStarted(turnId, conversationId));
client.subscribe('search.started', onStep('search.started'));
client.subscribe('search.done', onStep('search.done'));
client.subscribe('search.empty', onStep('search.empty'));
client.subscribe('search.failed', onStep('search.failed'));
client.subscribe('tool.called', onStep('tool.called'));
client.subscribe('tool.result', onStep('tool.result'));
client.subscribe('answer.token', ({ turnId, text }) => batcher.add(turnId, text));
client.subscribe('answer.thinking', ({ turnId, text, takesBack }) => thought(turnId, text, takesBack ?? 0));
client.subscribe('answer.done', ({ turnId, message, decision }) => {
  finish(turnId, message, { kind: 'done', status: message.turn?.status ?? 'complete', decision }, null);
});
client.subscribe('answer.failed', ({ turnId, message, partial, said }) => {
  finish(turnId, partial, { kind: 'failed', message, said }, message, said);
});
