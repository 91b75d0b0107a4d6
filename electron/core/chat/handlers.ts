/**
 * The chat operations of the contract: conversations, sending a turn (it runs in the background
 * and streams events), cancelling it, and the Ollama status shown in the status bar.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Handlers } from '../../../shared/contract';
import { SiftError } from '../../../shared/errors';
import { say, saidMapOf, type SaidMap } from '../../../shared/said';
import type { Passage, SearchDepth } from '../../../shared/models';
import type { CoreContext } from '../store/context';
import { resolveKb } from '../kb/knowledge-bases';
import type { LlmClient, LlmPing } from '../llm/types';
import { kbMetaPassages } from '../search/meta-pages';
import { pagesMentioning } from './mentions';
import { digestOverviewPassages, kbOutline } from './kb-overview';
import { glossarySize, lookupGlossary, mentionedEntries, passagesOf } from '../glossary/store';
import type { TurnGlossary } from './agent';
import { buildPassage, pageByPath } from '../search/passages';
import { searchKnowledgeBase, type EnhanceProviders, type QueryEmbedder, type SearchOptions } from '../search/search';
import { modelCompleter } from '../search/enhance/completer';
import { DEPTH_PRESETS, type EnhanceAsk } from '../search/enhance/plan';
import { addMessage, createConversation, deleteConversation, getConversation, listConversations, listMessages, renameConversation } from './conversations';
import { runTurn, TurnDiscarded, type ChatSettings, type TurnDeps } from './turn';
import type { TurnRegistry } from './turn-registry';

export { TurnRegistry } from './turn-registry';

/** Longest page excerpt `read_page` returns, in characters. */
const READ_PAGE_MAX = 3000;

/** `read_page` for the agent loop: a span of a page of `kbId`, at most READ_PAGE_MAX characters. */
export function readPageOf(ctx: CoreContext, kbId: string) {
  return async (pagePath: string, start: number | undefined, end: number | undefined): Promise<Passage> => {
    const page = pageByPath(ctx.kbFiles.get(kbId), pagePath);
    if (!page) throw new SiftError('not_found', `There is no page ${pagePath} in this knowledge base.`);
    const from = Math.min(Math.max(0, start ?? 0), page.text.length);
    const to = Math.min(page.text.length, Math.max(from, end ?? from + READ_PAGE_MAX), from + READ_PAGE_MAX);
    return buildPassage(page, from, to, [], 'explicit');
  };
}

/** The glossary of knowledge base `kbId` for a turn, or undefined when it has no entries. */
export function turnGlossaryOf(ctx: CoreContext, kbId: string): TurnGlossary | undefined {
  const db = ctx.kbFiles.get(kbId);
  if (glossarySize(db) === 0) return undefined;
  return {
    mentioned: (text) => passagesOf(mentionedEntries(db, text)),
    lookup: (term) => passagesOf(lookupGlossary(db, term).entries),
  };
}

/** What a turn needs from the chat handlers' dependencies. */
export interface ChatDeps {
  /** The client of the provider for a knowledge base (null or omitted: the default provider). */
  llm: (kbId?: string | null) => LlmClient;
  /** Chat settings for a knowledge base (its provider's default model). */
  settings: (kbId?: string | null) => ChatSettings;
  embedder: QueryEmbedder;
  searchOptions?: SearchOptions;
  /** What search enhancements need (the chat model's completer, rerankers, settings); default: none run. */
  enhance?: EnhanceProviders;
}

/** Choices of one message that shape its searches: the person's depth, and the model named for the turn. */
export interface TurnChoices {
  depth?: SearchDepth;
  model?: string;
  /** The knowledge base whose provider answers (a conversation's own); default the searched one. */
  providerKbId?: string | null;
}

/**
 * A turn's dependencies for knowledge base `kbId` (null: no knowledge base, so no search, pages or meta
 * pages): the settings and model client as they are now, hybrid search (with the enhancements the person's depth,
 * the model's tool arguments and the settings decide), `read_page`, the meta pages and the glossary.
 */
export function turnDepsFor(ctx: CoreContext, deps: ChatDeps, kbId: string | null, choices: TurnChoices = {}): TurnDeps {
  const providerKbId = choices.providerKbId === undefined ? kbId : choices.providerKbId;
  const llm = deps.llm(providerKbId);
  const caller = choices.depth ? DEPTH_PRESETS[choices.depth] : undefined;
  // The turn's provider writes its enhancements too, with the model named for the turn (else the configured one,
  // else the first installed).
  const providers = deps.enhance
    ? { ...deps.enhance, completer: modelCompleter(() => llm, () => choices.model ?? deps.settings(providerKbId).model) }
    : deps.enhance;
  const search = kbId
    ? (query: string, topK: number, more: { enhanceArgs?: EnhanceAsk } = {}) => {
        const req = { query, topK, mode: 'hybrid' as const, enhance: caller, enhanceArgs: more.enhanceArgs };
        return searchKnowledgeBase(ctx.kbFiles.get(kbId), req, deps.embedder, deps.searchOptions, providers);
      }
    : null;
  const rewriteFollowUps = caller?.rewrite ?? deps.enhance?.settings().rewrite ?? true;
  return {
    appDb: ctx.appDb, events: ctx.events, llm, logsDir: path.join(ctx.dataDir, 'logs'),
    settings: deps.settings(providerKbId), search, readPage: kbId ? readPageOf(ctx, kbId) : null,
    metaPassages: kbId ? () => kbMetaPassages(ctx.kbFiles.get(kbId)) : undefined, rewriteFollowUps,
    glossary: kbId ? turnGlossaryOf(ctx, kbId) : undefined,
    digestOverview: kbId ? () => digestOverviewPassages(ctx.kbFiles.get(kbId)) : undefined,
    outline: kbId ? () => kbOutline(ctx.kbFiles.get(kbId)) : undefined,
    mentions: kbId ? (term, ranked, limit) => pagesMentioning(ctx.kbFiles.get(kbId), term, ranked, limit) : undefined,
  };
}

/** Handlers for `conversations.*`, `chat.*` and `llm.status`. */
export function chatHandlers(
  ctx: CoreContext,
  deps: ChatDeps & { turns: TurnRegistry },
): Pick<Handlers, 'conversations.list' | 'conversations.create' | 'conversations.rename' | 'conversations.delete' | 'conversations.get' | 'chat.send' | 'chat.cancel' | 'llm.status'> {
  const db = ctx.appDb;
  // Every running turn keeps its answer and steps so far, for clients that open its conversation later.
  ctx.events.onAny((event, payload) => deps.turns.note(event, payload));
  return {
    async 'conversations.list'({ kb }) {
      return listConversations(db, resolveKb(ctx, kb).id);
    },
    async 'conversations.create'({ kb, title }) {
      return createConversation(db, resolveKb(ctx, kb).id, title);
    },
    async 'conversations.rename'({ id, title }) {
      return renameConversation(db, id, title);
    },
    async 'conversations.delete'({ id }) {
      getConversation(db, id);
      // Its running turn stops first, so nothing is written into a conversation that is gone.
      const why = new TurnDiscarded('The conversation was deleted while this answer was being written.');
      await deps.turns.cancelConversation(id, why);
      deleteConversation(db, id);
      return { id };
    },
    async 'conversations.get'({ id }) {
      const conversation = getConversation(db, id);
      return { conversation, messages: listMessages(db, id), running: deps.turns.progressOf(id) };
    },

    async 'chat.send'(args) {
      const kbId = args.kb === null ? null : resolveKb(ctx, args.kb).id;
      if (!kbId && !args.conversationId) throw new SiftError('invalid_argument', 'chat.send: choose a knowledge base or continue a conversation');
      const conversation = args.conversationId ? getConversation(db, args.conversationId) : createConversation(db, kbId!);
      if (kbId && conversation.kbId !== kbId) throw new SiftError('invalid_argument', `conversation ${conversation.id} belongs to another knowledge base`);
      const turnId = args.turnId ?? randomUUID();
      deps.turns.assertFree(turnId);
      // One answer at a time per conversation: a second one would interleave with the first in its history.
      if (deps.turns.progressOf(conversation.id)) {
        const why = 'This conversation is still answering. Wait for the answer or stop it, then ask again.';
        throw new SiftError('conflict', why);
      }
      const history = listMessages(db, conversation.id);
      const userMessage = addMessage(db, conversation.id, 'user', args.message, null);
      ctx.events.emit('turn.started', { turnId, conversationId: conversation.id, userMessageId: userMessage.id });
      const request = {
        turnId, kbId, conversationId: conversation.id, message: args.message, history, model: args.model, think: args.think,
        language: args.language, depth: args.depth,
      };
      const turnDeps = turnDepsFor(ctx, deps, kbId, { depth: args.depth, model: args.model, providerKbId: conversation.kbId });
      const owner = { conversationId: conversation.id, kbId: conversation.kbId, userMessageId: userMessage.id };
      deps.turns.start(turnId, owner, (signal) => runTurn(request, turnDeps, signal));
      return { turnId, conversationId: conversation.id, userMessageId: userMessage.id };
    },

    async 'chat.cancel'({ turnId }) {
      return { cancelled: deps.turns.cancel(turnId) };
    },

    async 'llm.status'() {
      const llm = deps.llm();
      const ping = await llm.ping();
      const host = llm.host;
      if (llm.label) return providerStatus(llm, ping, deps.settings().model ?? null);
      if (!ping.ok) {
        const message = say('status.ollamaDown', { host }).text;
        return withSaid({ reachable: false, host, version: null, models: [], model: null, message });
      }
      const models = (await llm.listModels().catch(() => [])).map((m) => m.name);
      const model = deps.settings().model ?? models[0] ?? null;
      const missing = model && !models.includes(model) ? say('status.modelMissing', { model }).text : null;
      const message = models.length === 0 ? say('status.ollamaNoModel').text : missing;
      return withSaid({ reachable: true, host, version: ping.version, models, model, message });
    },
  };
}

/** `llm.status` of a provider other than the built-in Ollama: what it lists, or why it cannot be used. */
async function providerStatus(llm: LlmClient, ping: LlmPing, configured: string | null) {
  const base = { host: llm.host, version: ping.version, provider: llm.label };
  if (!ping.ok) return withSaid({ ...base, reachable: false, models: [], model: null, message: ping.message });
  const models = (await llm.listModels().catch(() => [])).map((m) => m.name);
  const model = configured ?? models[0] ?? null;
  const name = llm.label ?? 'Ollama';
  const missing = model && !models.includes(model) ? say('status.providerMissing', { name, model }).text : null;
  const message = models.length === 0 ? say('status.providerNoModels', { name }).text : missing;
  return withSaid({ ...base, reachable: true, models, model, message });
}

/** A status with its message's code and parameters (shared/said.ts), when it is one of the core's messages. */
function withSaid<S extends { message: string | null }>(status: S): S & { said?: SaidMap } {
  const said = saidMapOf([status.message]);
  return Object.keys(said).length > 0 ? { ...status, said } : status;
}
