/**
 * The contract between Sift's processes: every operation (`domain.verb`, one object argument,
 * a plain-data result) and every streamed event, each declared once with its zod schemas.
 * Hosts (Electron IPC, HTTP/SSE, CLI) and clients derive everything from these tables.
 */
import { z } from 'zod';
import { ChatMessage, Citation, Conversation, Decision, LlmStatus, Reference, RunningTurn, TurnInfo } from './chat-models';
import { GlossaryEntry, GlossaryLookup } from './models';
import { AppInfo, DigestStatus, Evidence, Folder, IngestStatus, KnowledgeBase, ModelProgress, ManifestRow, PageDetail, PageImage, PageSummary, SearchMode, SearchResult } from './models';
import { ProviderSettings, Settings, SettingsPatch } from './settings';
import { EnhanceRequest, SearchDepth } from './models';
import { SaidMap } from './said';
import { nameSchema } from './names';

/** Declare one operation: its argument schema and its result schema. */
function op<A extends z.ZodType, R extends z.ZodType>(args: A, result: R) {
  return { args, result };
}

/** A knowledge base given by its id or its exact name. */
const KbRef = z.string().trim().min(1, 'a knowledge base id or name is required');
/** A knowledge base's display name: 1–200 characters, trimmed, readable as it is (shared/names.ts). */
const KbName = nameSchema({ empty: 'the name must not be empty', tooLong: 'the name is longer than 200 characters' }, 200);
/** A filesystem path as the user typed it; it is resolved and checked by the core. */
const FolderPath = z.string().trim().min(1, 'a folder path is required');

/** A conversation's title as a person sets it: the same rules as a name. */
const ConversationTitle = nameSchema({ empty: 'the title must not be empty', tooLong: 'the title is longer than 200 characters' }, 200);

/** Every operation of the contract, by name. */
export const operations = {
  'app.info': op(z.object({}), AppInfo),
  /** Ask the person to pick a folder with the OS dialog (Electron only; elsewhere `supported: false`). */
  'app.pickFolder': op(z.object({}), z.object({ supported: z.boolean(), path: z.string().nullable() })),

  'kb.create': op(z.object({ name: KbName }), KnowledgeBase),
  'kb.list': op(z.object({}), z.array(KnowledgeBase)),
  'kb.rename': op(z.object({ kb: KbRef, name: KbName }), KnowledgeBase),
  'kb.delete': op(z.object({ kb: KbRef }), z.object({ id: z.string() })),

  /** Add a folder. `followExternalLinks` (default false) also reads what links inside it point to elsewhere. */
  'folder.add': op(z.object({ kb: KbRef, path: FolderPath, followExternalLinks: z.boolean().optional() }), Folder),
  'folder.remove': op(z.object({ kb: KbRef, path: FolderPath }), z.object({ path: z.string() })),
  'folder.list': op(z.object({ kb: KbRef }), z.array(Folder)),
  /** Change a folder's exclude globs (gitignore syntax); the next run applies them. */
  'folder.update': op(z.object({ kb: KbRef, path: FolderPath, excludeGlobs: z.array(z.string().trim().min(1)).max(200) }), Folder),

  'settings.get': op(z.object({}), Settings),
  /** Change some settings; returns all of them. A changed embedding model re-embeds in the background. */
  'settings.set': op(z.object({ patch: SettingsPatch }), Settings),

  /** Start (or queue another) indexing run in the background; returns the status at once. */
  'ingest.start': op(z.object({ kb: KbRef }), IngestStatus),
  'ingest.status': op(z.object({ kb: KbRef }), IngestStatus),
  /** Cancel the run in progress (and what is queued): it stops at its next batch, OCR at its next page. */
  'ingest.cancel': op(z.object({ kb: KbRef }), IngestStatus),

  'conversations.list': op(z.object({ kb: KbRef }), z.array(Conversation)),
  'conversations.create': op(z.object({ kb: KbRef, title: z.string().trim().max(200).optional() }), Conversation),
  'conversations.rename': op(z.object({ id: z.string().min(1), title: ConversationTitle }), Conversation),
  'conversations.delete': op(z.object({ id: z.string().min(1) }), z.object({ id: z.string() })),
  'conversations.get': op(
    z.object({ id: z.string().min(1) }),
    z.object({
      conversation: Conversation,
      messages: z.array(ChatMessage),
      /** The turn still being answered in this conversation (its partial answer and steps), or null. */
      running: RunningTurn.nullable().default(null),
    }),
  ),

  /** Start a chat turn; it runs in the background and streams events carrying `turnId`. */
  'chat.send': op(
    z.object({
      kb: KbRef.nullable(),
      /** Continue this conversation; a new one is created when omitted. */
      conversationId: z.string().optional(),
      message: z.string().trim().min(1, 'the message is empty').max(20_000),
      /** Ollama model; default: the configured one, else the first installed. */
      model: z.string().optional(),
      /** Reasoning on/off for models that support it; default: the model's own. */
      think: z.boolean().optional(),
      /** The turn's id, chosen by the client so it can match events from the first one; default a new UUID. */
      turnId: z.string().uuid().optional(),
      /**
       * The asker's UI language (a BCP 47 tag such as `zh-CN` or `en`) for what Sift itself writes in the
       * answer (the no-model notice); default: Chinese when the question has Chinese characters, else English.
       */
      language: z.string().min(2).max(35).optional(),
      /** How deep this message's search goes (quick / balanced / deep); default: the settings' enhancements. */
      depth: SearchDepth.optional(),
    }),
    z.object({ turnId: z.string(), conversationId: z.string(), userMessageId: z.string() }),
  ),
  /**
   * Answer one question from a knowledge base and store nothing (for other agents through MCP): the same turn as
   * `chat.send` — search, the model or without one the extractive answer, citations checked by code — run to its
   * end. Its events stream as a turn's do.
   */
  'chat.ask': op(
    z.object({
      kb: KbRef,
      question: z.string().trim().min(1, 'the question is empty').max(20_000),
      /** Ollama model; default: the configured one, else the first installed. */
      model: z.string().optional(),
    }),
    z.object({ turnId: z.string(), answer: z.string(), turn: TurnInfo }),
  ),
  /** Stop a running turn; the partial answer is kept. */
  'chat.cancel': op(z.object({ turnId: z.string().min(1) }), z.object({ cancelled: z.boolean() })),
  'llm.status': op(z.object({}), LlmStatus),
  /**
   * Try a provider as written in the settings form ("Test connection"): it lists its models with the key given here
   * (never stored) or the one its key source points to. Never an error: `ok` false says why.
   */
  'providers.test': op(
    z.object({ provider: ProviderSettings, apiKey: z.string().trim().min(1).max(4096).optional() }),
    z.object({ ok: z.boolean(), models: z.array(z.string()), hosted: z.boolean(), message: z.string().nullable() }),
  ),
  /** Keep a provider's API key encrypted (desktop app only; elsewhere `unsupported`). Its key source becomes `stored`. */
  'providers.setKey': op(
    z.object({ name: z.string().trim().min(1).max(60), apiKey: z.string().trim().min(1, 'the key is empty').max(4096) }),
    z.object({ name: z.string(), apiKeyRef: z.literal('stored') }),
  ),
  /** Which provider answers in a knowledge base, whether its passages leave this machine, and whether the person was
   *  told so already. */
  'providers.forKb': op(
    z.object({ kb: KbRef }),
    z.object({
      name: z.string(), kind: z.enum(['ollama', 'openai']), baseUrl: z.string(), model: z.string().nullable(),
      hosted: z.boolean(), noticeSeen: z.boolean(), keyStorage: z.boolean(),
    }),
  ),

  /** A conversation, or one answer of it, as Markdown or self-contained HTML (footnoted sources). */
  'export.render': op(
    z.object({
      conversationId: z.string().min(1), messageId: z.string().optional(), format: z.enum(['md', 'html']),
      /** Put each answer's reasoning before it (when the model showed some). Default false. */
      includeThinking: z.boolean().optional(),
    }),
    z.object({ fileName: z.string(), mimeType: z.string(), content: z.string() }),
  ),
  /** Write an export into `folder` (never outside it, never over an existing file); PDF too. */
  'export.save': op(
    z.object({
      conversationId: z.string().min(1),
      messageId: z.string().optional(),
      format: z.enum(['md', 'html', 'pdf']),
      folder: z.string().trim().min(1, 'choose a folder to save into'),
      fileName: z.string().optional(),
      /** Put each answer's reasoning before it (when the model showed some). Default false. */
      includeThinking: z.boolean().optional(),
    }),
    z.object({ path: z.string() }),
  ),

  'pages.list': op(z.object({ kb: KbRef }), z.array(PageSummary)),
  /** Every file of a knowledge base with its fingerprint, parser, chunk count and vector status. */
  'pages.manifest': op(z.object({ kb: KbRef }), z.array(ManifestRow)),
  'search.query': op(
    z.object({
      kb: KbRef,
      query: z.string().trim().min(1, 'the query is empty').max(4000, 'the query is longer than 4,000 characters'),
      /** Passages to return. Default 5 (1–50). */
      topK: z.number().int().min(1).max(50).default(5),
      mode: SearchMode.default('hybrid'),
      scope: z
        .object({
          pages: z.array(z.string()).optional(),
          folders: z.array(z.string()).optional(),
          metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
        })
        .optional(),
      /**
       * Explicit page references besides any `[[wiki/…]]` in the query: at most 100, each at most 1,000
       * characters (every one is read in full; an unbounded list let one request hold the host for seconds).
       */
      refs: z
        .array(z.string().max(1000, 'a page reference is longer than 1,000 characters'))
        .max(100, 'at most 100 page references are allowed')
        .optional(),
      /** LLM enhancements (rewrite, multi-query, HyDE, rerank); default: the settings' defaults. */
      enhance: EnhanceRequest.optional(),
      /** Earlier questions of a conversation, oldest first, for rewriting a follow-up (`enhance.rewrite`). */
      history: z.array(z.string().max(4000)).max(10).optional(),
    }),
    SearchResult,
  ),
  'evidence.get': op(
    z.object({
      kb: KbRef,
      evidenceId: z.string().min(1),
      /** Characters of context on each side of the passage. Default 400 (0–5000). */
      window: z.number().int().min(0).max(5000).default(400),
    }),
    Evidence,
  ),

  /** Turn page digests of a knowledge base on or off (off by default); turning them on starts a run. */
  'digests.setEnabled': op(z.object({ kb: KbRef, enabled: z.boolean() }), DigestStatus),
  /** Make the digests of changed pages and the overview in the background (queued after a running one). */
  'digests.run': op(z.object({ kb: KbRef }), DigestStatus),
  /** Stop a digest run after the page being written; digests made so far are kept. */
  'digests.cancel': op(z.object({ kb: KbRef }), z.object({ cancelled: z.boolean() })),
  'digests.status': op(z.object({ kb: KbRef }), DigestStatus),

  'pages.get': op(z.object({ kb: KbRef, path: z.string().trim().regex(/^wiki\//, 'a page path starts with wiki/') }), PageDetail),
  /** The image of one page of a scanned PDF or an image file, rendered from the source file on demand (never
   *  stored), as PNG: at 150 dpi for a PDF page, so OCR boxes (`PageDetail.ocr`) fall on it as they are. */
  'pages.image': op(
    z.object({ kb: KbRef, path: z.string().trim().regex(/^wiki\//, 'a page path starts with wiki/'), page: z.number().int().min(1) }),
    PageImage,
  ),

  /** Every entry of the knowledge base's glossary pages, by term (issue #15). */
  'glossary.list': op(z.object({ kb: KbRef }), z.array(GlossaryEntry)),
  /** A term's glossary entries (normalised: NFKC, case, whitespace), else those of glossary terms it mentions. */
  'glossary.lookup': op(
    z.object({ kb: KbRef, term: z.string().trim().min(1, 'the term is empty').max(1000, 'the term is longer than 1,000 characters') }),
    GlossaryLookup,
  ),
} as const;

/** Every event the core streams to clients, by name. */
export const events = {
  /** The list of knowledge bases or the folders of one changed. */
  'kb.changed': z.object({
    kbId: z.string(),
    /** `settings`: a setting of the knowledge base itself changed (e.g. digests turned on). */
    change: z.enum(['created', 'renamed', 'deleted', 'folders', 'settings']),
  }),
  /** Indexing progress of one knowledge base (throttled; always sent at each state change). */
  'ingest.progress': IngestStatus,
  /** An embedding model is downloading or loading. */
  'model.progress': ModelProgress,
  /** Progress of making one knowledge base's page digests (throttled; always sent at each state change). */
  'digests.progress': DigestStatus,
  /** Settings changed (from any window or host). */
  'settings.changed': Settings,

  // A chat turn, in this order when it searches: search.started → search.done | search.empty |
  // search.failed → (tool.called, tool.result)* → answer.token* → answer.done | answer.failed.
  'turn.started': z.object({ turnId: z.string(), conversationId: z.string(), userMessageId: z.string() }),
  // rewrittenFrom: the message when `query` is its rewrite; note: how the rewrite went when not by the model.
  'search.started': z.object({ turnId: z.string(), query: z.string(), rewrittenFrom: z.string().optional(), note: z.string().optional() }),
  // noExactMatch: identifiers of the question found nowhere in the knowledge base (SearchResult's);
  // total: a catalogue's true count of pages mentioning its topic, when it shows fewer than that.
  'search.done': z.object({
    turnId: z.string(), count: z.number().int(), paths: z.array(z.string()), noExactMatch: z.array(z.string()).optional(),
    total: z.number().int().optional(),
  }),
  'search.empty': z.object({ turnId: z.string(), noExactMatch: z.array(z.string()).optional() }),
  'search.failed': z.object({ turnId: z.string(), message: z.string() }),
  'tool.called': z.object({ turnId: z.string(), name: z.string(), arguments: z.unknown() }),
  'tool.result': z.object({ turnId: z.string(), name: z.string(), ok: z.boolean(), summary: z.string(), said: SaidMap.optional() }),
  'answer.token': z.object({ turnId: z.string(), text: z.string() }),
  // The model's reasoning as it streams. takesBack: the last that many characters of the answer streamed so far were
  // reasoning after all (an orphan `</think>`); they lead `text` and leave the answer.
  'answer.thinking': z.object({ turnId: z.string(), text: z.string(), takesBack: z.number().int().positive().optional() }),
  'answer.done': z.object({ turnId: z.string(), message: ChatMessage, citations: z.array(Citation), references: z.array(Reference), decision: Decision }),
  // said: the message's code and parameters when it is one of the core's messages (shared/said.ts).
  'answer.failed': z.object({
    turnId: z.string(), code: z.string(), message: z.string(), partial: ChatMessage.nullable(), said: SaidMap.optional(),
  }),
} as const;

/** The name of an operation, such as `kb.create`. */
export type OpName = keyof typeof operations;
/** What a caller passes to an operation (before defaults and trimming). */
export type OpArgs<N extends OpName> = z.input<(typeof operations)[N]['args']>;
/** What a handler receives after validation. */
export type OpParsedArgs<N extends OpName> = z.output<(typeof operations)[N]['args']>;
/** What an operation returns. */
export type OpResult<N extends OpName> = z.output<(typeof operations)[N]['result']>;

/** The name of a streamed event, such as `kb.changed`. */
export type EventName = keyof typeof events;
/** The payload of an event. */
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** The handler table the core implements: one async function per operation. */
export type Handlers = { [N in OpName]: (args: OpParsedArgs<N>) => Promise<OpResult<N>> };

/** True when `name` is an operation of the contract. */
export function isOpName(name: string): name is OpName {
  return Object.prototype.hasOwnProperty.call(operations, name);
}

/** True when `name` is an event of the contract. */
export function isEventName(name: string): name is EventName {
  return Object.prototype.hasOwnProperty.call(events, name);
}
