/**
 * The plain-data shapes that operations return, as zod schemas with their inferred types.
 * Names are the user's words: a KnowledgeBase holds Folders; later a Page, a Chunk, a Passage.
 */
import { z } from 'zod';
import { SaidMap } from './said';

/** An ISO-8601 timestamp string such as `2026-11-29T12:00:00.000Z`. */
export const Timestamp = z.string().min(1);

/** A knowledge base: a named set of folders with its own index file. */
export const KnowledgeBase = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** How many folders the knowledge base indexes. */
  folderCount: z.number().int().nonnegative(),
  /** Page digests (a model's cited summary of each page, under `wiki/_digest/`) are made for it. Default false. */
  digests: z.boolean().optional(),
});
export type KnowledgeBase = z.infer<typeof KnowledgeBase>;

/** A folder on disk that belongs to one knowledge base. */
export const Folder = z.object({
  kbId: z.string(),
  /** Absolute, normalised path of the folder. */
  path: z.string(),
  /** The folder's own name (last path segment), used to prefix page paths. */
  name: z.string(),
  addedAt: Timestamp,
  /** Extra glob patterns (gitignore syntax) excluded from this folder. Default none. */
  excludeGlobs: z.array(z.string()),
  /** Its pages are addressed `wiki/<pagePrefix>/<path>`; empty for the first folder (`wiki/<path>`). */
  pagePrefix: z.string(),
  /** Follow links that lead outside the folder (to files or folders elsewhere). Default false. */
  followExternalLinks: z.boolean(),
});
export type Folder = z.infer<typeof Folder>;

/** Facts about the running core, for status displays and the CLI. */
export const AppInfo = z.object({
  version: z.string(),
  dataDir: z.string(),
  /** Schema version of the app database. */
  appSchemaVersion: z.number().int(),
  /** Schema version new knowledge-base files are created with. */
  kbSchemaVersion: z.number().int(),
  /** The embedding provider the host's environment (`SIFT_EMBEDDING`, `SIFT_MODEL_DIR`…) forces over the
   *  setting, or null when the setting decides. Settings show it so they never claim a model not in use. */
  embeddingOverride: z.enum(['transformers', 'ollama', 'none', 'openai']).nullable(),
  /** Absolute path of the `sift` command (`bin/sift.mjs`) when this install has one, for MCP client configs. */
  cliPath: z.string().nullable(),
  /** True when this host keeps providers' API keys encrypted (the desktop app); elsewhere keys come from an
   *  environment variable or a key file. Absent from older cores. */
  keyStorage: z.boolean().optional(),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** A file that did not become a page, and why. */
export const FileProblem = z.object({
  folder: z.string(),
  relPath: z.string(),
  status: z.enum(['failed', 'skipped']),
  reason: z.string(),
});
export type FileProblem = z.infer<typeof FileProblem>;

/** Where indexing of one knowledge base stands. */
export const IngestStatus = z.object({
  kbId: z.string(),
  /** `cancelled`: the knowledge base was deleted during the run (see `error`); nothing of it is kept. */
  state: z.enum(['idle', 'scanning', 'indexing', 'embedding', 'done', 'error', 'cancelled']),
  filesTotal: z.number().int(),
  filesDone: z.number().int(),
  filesFailed: z.number().int(),
  filesSkipped: z.number().int(),
  /** Files parsed and written by this run (new or changed); 0 on a rescan with no change. */
  filesIndexed: z.number().int(),
  /** Files removed from the index by this run (gone from disk). */
  filesRemoved: z.number().int(),
  pages: z.number().int(),
  chunks: z.number().int(),
  chunksEmbedded: z.number().int(),
  /** Chunks embedded by this run (0 on a restart with nothing new). */
  chunksEmbeddedThisRun: z.number().int(),
  currentFile: z.string().nullable(),
  problems: z.array(FileProblem),
  /** Why the knowledge base searches by keywords only (no embedding model), or null. */
  keywordOnly: z.string().nullable(),
  /** The kind of `keywordOnly`, for words in the UI's language: `not_configured` (the person chose no
   *  embedding model: nothing to fix) or `model_unavailable` (the chosen model could not be had). */
  keywordOnlyCode: z.enum(['not_configured', 'model_unavailable']).nullable(),
  /** What the knowledge base holds now, whatever run wrote it: files recorded, and of those the ones
   *  that failed or were skipped. The run counters above count only the current (or last) run. */
  stored: z.object({ files: z.number().int(), failed: z.number().int(), skipped: z.number().int() }),
  embeddingModel: z.string().nullable(),
  /** A failure of the run itself (not of one file), or null. */
  error: z.string().nullable(),
  startedAt: Timestamp.nullable(),
  finishedAt: Timestamp.nullable(),
  elapsedMs: z.number(),
  /** The codes of the core messages above (files' reasons, `error`, `keywordOnly`) by text (shared/said.ts). */
  said: SaidMap.optional(),
  /**
   * OCR in this run (images, scanned PDF pages), or null/absent when it read nothing: the file and page it is on
   * (of `pages`), pages read by the model and pages found in the cache (read before, same bytes and model), the
   * measured seconds per page, and the estimate for the rest of the file (its pages left × seconds per page).
   */
  ocr: z.object({
    file: z.string(),
    page: z.number().int(),
    pages: z.number().int(),
    pagesRead: z.number().int(),
    pagesCached: z.number().int(),
    secondsPerPage: z.number().nullable(),
    remainingSeconds: z.number().nullable(),
  }).nullable().optional(),
});
export type IngestStatus = z.infer<typeof IngestStatus>;

/** A page in the list of a knowledge base's pages. */
export const PageSummary = z.object({
  path: z.string(),
  title: z.string(),
  kind: z.string(),
  folder: z.string(),
  relPath: z.string(),
  chars: z.number().int(),
  chunks: z.number().int(),
  /** Written by Sift's model (a digest under `wiki/_digest/`), not read from a file. Default false. */
  generated: z.boolean().optional(),
  /** Read by OCR: its mean confidence (0–1) and whether that is low ("low-confidence OCR"). Null or absent otherwise. */
  ocr: z.object({ confidence: z.number(), lowConfidence: z.boolean() }).nullable().optional(),
});
export type PageSummary = z.infer<typeof PageSummary>;

/** One file of a knowledge base as the manifest lists it (`pages.manifest`, `sift manifest`). */
export const ManifestRow = z.object({
  /** The file on disk: the folder joined with `relPath`. */
  sourcePath: z.string(),
  folder: z.string(),
  relPath: z.string(),
  /** Bytes, and modification time (ISO 8601), as last read. */
  size: z.number().int(),
  mtime: z.string(),
  /** sha256 of the file's bytes, hex; null when the file was never read in full (skipped). */
  sha256: z.string().nullable(),
  status: z.enum(['indexed', 'failed', 'skipped']),
  /** Why it failed or was skipped. */
  reason: z.string().nullable(),
  indexedAt: z.string(),
  /** The wiki page made from it (`wiki/…`), its title and the parser that read it; null without a page. */
  page: z.string().nullable(),
  title: z.string().nullable(),
  parser: z.string().nullable(),
  encoding: z.string().nullable(),
  chunks: z.number().int(),
  embeddedChunks: z.number().int(),
  /** `current`: every chunk has a vector of the knowledge base's model; `pending`: some wait; `none`: no vectors. */
  vectors: z.enum(['current', 'pending', 'none']),
  /** Version status of the document (`current`, `superseded`, `expired`, `undated`; see VersionStatus), or null
   *  when neither its page nor another version of it names a version. */
  version: z.string().nullable(),
  /** The version as the page names it (`v2`, `2024版`), or null. */
  versionLabel: z.string().nullable().optional(),
  /** Read by OCR (then `parser` is `ocr`, for an image or a PDF all of whose pages are scans; `pdf+ocr` for a PDF
   *  with some): the model, the mean confidence (0–1), whether it is low, and the pages OCR read. Null otherwise. */
  ocr: z.object({ model: z.string(), confidence: z.number(), lowConfidence: z.boolean(), pages: z.number().int() }).nullable().optional(),
});
export type ManifestRow = z.infer<typeof ManifestRow>;

/** A heading inside a page's text. */
export const PageHeading = z.object({ start: z.number().int(), end: z.number().int(), level: z.number().int(), text: z.string() });

/** One line OCR read: `[start, end)` in the page's text, its box `[left, top, right, bottom]` in pixels of the page
 *  image (`width` × `height` of its OcrPage), and its recognition confidence (0–1). */
export const OcrLine = z.object({
  start: z.number().int(),
  end: z.number().int(),
  box: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  confidence: z.number(),
});
export type OcrLine = z.infer<typeof OcrLine>;

/** A page OCR read: its number (the PDF page; 1 for an image), the image size, its mean confidence, its lines. */
export const OcrPage = z.object({
  page: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  confidence: z.number(),
  lines: z.array(OcrLine),
});
export type OcrPage = z.infer<typeof OcrPage>;

/**
 * What OCR read of a page: the model id, the mean character confidence (0–1) over its OCR'd pages, `lowConfidence`
 * when that is below the threshold (0.8: the page is marked "low-confidence OCR"), and each OCR'd page.
 */
export const PageOcr = z.object({ model: z.string(), confidence: z.number(), lowConfidence: z.boolean(), pages: z.array(OcrPage) });
export type PageOcr = z.infer<typeof PageOcr>;

/** A page image rendered on demand from the source file (`pages.image`): PNG as a data URL, with its size. */
export const PageImage = z.object({ page: z.number().int(), width: z.number().int(), height: z.number().int(), dataUrl: z.string() });
export type PageImage = z.infer<typeof PageImage>;

/** One page with its canonical text, sections and chunks (offsets into `text`). */
export const PageDetail = PageSummary.extend({
  text: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  headings: z.array(PageHeading),
  pdfPages: z.array(z.object({ start: z.number().int(), end: z.number().int(), page: z.number().int() })).nullable(),
  language: z.string().nullable(),
  encoding: z.string().nullable(),
  sections: z.array(z.object({ index: z.number().int(), start: z.number().int(), end: z.number().int(), headingPath: z.array(z.string()) })),
  chunkSpans: z.array(
    z.object({ id: z.number().int(), index: z.number().int(), start: z.number().int(), end: z.number().int(), hash: z.string(), embedded: z.boolean() }),
  ),
  /** Images and scanned PDF pages: what OCR read (absent or null for a page without OCR). */
  ocr: PageOcr.nullable().optional(),
});
export type PageDetail = z.infer<typeof PageDetail>;

/** Progress of an embedding model download or load. */
export const ModelProgress = z.object({
  modelId: z.string(),
  status: z.enum(['downloading', 'loading', 'ready', 'failed']),
  file: z.string().optional(),
  loaded: z.number().optional(),
  total: z.number().optional(),
  message: z.string().optional(),
});
export type ModelProgress = z.infer<typeof ModelProgress>;

/** Where a passage came from inside its file: heading path, PDF pages, source lines, slides, chapters, sheet rows. */
export const Provenance = z.object({
  /** Headings in force at the passage's start, outermost first. */
  headingPath: z.array(z.string()),
  /** PDF only: first and last page the passage spans (1-based). */
  pdfPages: z.tuple([z.number().int(), z.number().int()]).nullable(),
  /** Code and plain text: first and last line the passage spans (1-based). */
  lines: z.tuple([z.number().int(), z.number().int()]).nullable(),
  /** Slide decks (pptx, odp): first and last slide the passage spans (1-based). */
  slides: z.tuple([z.number().int(), z.number().int()]).nullable().optional(),
  /** E-books (epub): first and last chapter the passage spans, in reading (spine) order, 1-based. */
  chapters: z.tuple([z.number().int(), z.number().int()]).nullable().optional(),
  /** Spreadsheets: the sheet the passage is on (null for a csv or tsv, which has one unnamed sheet). */
  sheet: z.string().nullable().optional(),
  /** Spreadsheets: first and last spreadsheet row the passage spans (1-based, as the spreadsheet numbers them). */
  rows: z.tuple([z.number().int(), z.number().int()]).nullable().optional(),
  /** Read by OCR: the page's mean confidence and whether it is low ("low-confidence OCR"). Absent otherwise. */
  ocr: z.object({ confidence: z.number(), lowConfidence: z.boolean() }).nullable().optional(),
});
export type Provenance = z.infer<typeof Provenance>;

/**
 * Where a page stands among the versions of its document (issue #15): `current` (in force, nothing newer),
 * `superseded` (a newer version or an explicit `superseded_by` replaces it), `expired` (past its `expires` day),
 * `undated` (it says nothing of its version, but other versions of the document do).
 */
export const VersionStatus = z.enum(['current', 'superseded', 'expired', 'undated']);
export type VersionStatus = z.infer<typeof VersionStatus>;

/** The version of a passage's page, from its front matter or file name. */
export const PassageVersion = z.object({
  status: VersionStatus,
  /** The version as written (`v2`, `2024版`, `2024 edition`), or null. */
  label: z.string().nullable(),
  /** First day in force and day it ends, `YYYY-MM-DD`, when the page says. */
  effective: z.string().nullable(),
  expires: z.string().nullable(),
  /** The page (`wiki/…`) that replaces this one, when the knowledge base holds it. */
  supersededBy: z.string().nullable(),
});
export type PassageVersion = z.infer<typeof PassageVersion>;

/** One search result: a span of a page's canonical text, and why it was found. */
export const Passage = z.object({
  /** Opaque id for `evidence.get`. */
  evidenceId: z.string(),
  pagePath: z.string(),
  title: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  text: z.string(),
  /** sha256 (hex) of `text`, recomputable by any client. */
  contentHash: z.string(),
  provenance: Provenance,
  /** Where in `text` its words on the query begin (the first line or sentence holding one), when the
   *  passage is longer than a preview shows (400 characters or 4 lines) and that is not its start;
   *  absent otherwise. Previews and extractive quotes start there, after an ellipsis. */
  focus: z.number().int().positive().optional(),
  /** Markdown pages: the fence of the code block that the shown text (from `focus`, else the start) lies
   *  inside (`` ``` ``), absent otherwise. A client showing it as Markdown opens the block with it first
   *  (see `fenceMapOf`), so code shows as code and the prose after the block's closing fence as prose. */
  openFence: z.string().optional(),
  /** `kb_meta`: a page describing the whole knowledge base (README, overview…), for questions about all of it.
   *  `glossary`: an entry of the knowledge base's glossary, for a term the question names. */
  hitReason: z.enum(['explicit', 'title', 'body', 'kb_meta', 'glossary']),
  /** Stage figures; null where a stage did not find this passage (never a made-up 0). */
  keywordRank: z.number().int().nullable(),
  keywordScore: z.number().nullable(),
  vectorRank: z.number().int().nullable(),
  vectorDistance: z.number().nullable(),
  rrfScore: z.number().nullable(),
  /** The page's version, when it or another version of its document names one (absent otherwise). */
  version: PassageVersion.optional(),
  /** Other pages that hold the same passage, word for word or nearly (the same README in two packages, a
   *  manual's page again in its all-in-one file): shown once, here, best-ranked first. Absent when none. */
  alsoIn: z.array(z.object({ pagePath: z.string(), title: z.string(), start: z.number().int(), end: z.number().int() })).optional(),
  /** Enhanced searches (issue #15): which probe and stage found this passage, best rank each (probe i is
   *  `SearchResult.enhance.probes[i]`). Absent on plain searches. */
  probes: z.array(z.object({ probe: z.number().int(), stage: z.enum(['keyword', 'vector']), rank: z.number().int() })).optional(),
  /** Its 1-based place in a reranker's order, and the reranker's score (null where it gives none). Absent unless reranked. */
  rerankPosition: z.number().int().nullable().optional(),
  rerankScore: z.number().nullable().optional(),
});
export type Passage = z.infer<typeof Passage>;

/** How deep one message's search goes (the composer's choice): quick, balanced or deep. */
export const SearchDepth = z.enum(['quick', 'balanced', 'deep']);
export type SearchDepth = z.infer<typeof SearchDepth>;

/** LLM enhancements of a search as asked for; an absent field leaves it to the next in precedence. */
export const EnhanceRequest = z.object({
  /** Rewrite the query (with `history`, a follow-up into a standalone question). */
  rewrite: z.boolean().optional(),
  /** Queries searched, the original first (1 = only it). 1–8. */
  multiQuery: z.number().int().min(1, 'must be at least 1').max(8, 'must be at most 8').optional(),
  /** Embed a hypothetical answer passage as one more vector probe. */
  hyde: z.boolean().optional(),
  /** Rerank the fused candidates with this provider; null for none. */
  rerank: z.enum(['llm', 'cross-encoder']).nullable().optional(),
});
export type EnhanceRequest = z.infer<typeof EnhanceRequest>;

/** What the enhancements of a search did: its probes, the rerank, time spent and what was asked but not done. */
export const SearchEnhancement = z.object({
  /** Every probe searched, in order (index = `Passage.probes[].probe`): the query (or its rewrite) first. */
  probes: z.array(z.object({
    kind: z.enum(['query', 'rewrite', 'multi-query', 'hyde']),
    text: z.string(),
    stages: z.array(z.enum(['keyword', 'vector'])),
  })),
  /** The query as typed when it was rewritten, else null. */
  rewrittenFrom: z.string().nullable(),
  /** What ran after precedence, clamps and the model check. */
  applied: z.object({ rewrite: z.boolean(), multiQuery: z.number().int(), hyde: z.boolean(), rerank: z.enum(['llm', 'cross-encoder']).nullable() }),
  rerank: z.object({
    kind: z.enum(['llm', 'cross-encoder']),
    candidates: z.number().int(),
    /** Why the reranker's reply was not used and the fused order kept; null when it was used. */
    fallback: z.string().nullable(),
    ms: z.number(),
  }).nullable(),
  /** What was asked and not done, or done differently, and why (no model, keyword-only, reranker not available). */
  notes: z.array(z.string()),
  /** Time of each step, ms (null: it did not run). */
  ms: z.object({ rewrite: z.number().nullable(), multiQuery: z.number().nullable(), hyde: z.number().nullable(), rerank: z.number().nullable() }),
});
export type SearchEnhancement = z.infer<typeof SearchEnhancement>;

/** How a search ran. */
export const SearchMode = z.enum(['hybrid', 'keyword', 'vector']);
export type SearchMode = z.infer<typeof SearchMode>;

/** What `search.query` returns when it ran (nothing matched is an empty `passages`, not an error). */
export const SearchResult = z.object({
  passages: z.array(Passage),
  /** The mode that actually ran. */
  mode: SearchMode,
  /** Why the search ran keyword-only although hybrid was asked for, or null. */
  keywordOnlyReason: z.string().nullable(),
  /** Explicit references whose pages do not exist. */
  missingRefs: z.array(z.string()),
  /** `[[…]]` references refused (not under wiki/, `..`, absolute) with the reason. */
  rejectedRefs: z.array(z.object({ raw: z.string(), reason: z.string() })),
  /**
   * Identifier-like words of the query (codes, paths, camelCase, e.g. `E_CONN_RESET`) that occur
   * nowhere in the knowledge base as typed: any passages matched only parts of them.
   */
  noExactMatch: z.array(z.string()),
  timings: z.object({
    totalMs: z.number(), embedMs: z.number().nullable(), keywordMs: z.number().nullable(), vectorMs: z.number().nullable(), fuseMs: z.number(),
    /** SQL statements the search ran: in all, in the keyword and vector stages, and the rest (references, fusion, passages). */
    statements: z.object({ total: z.number().int(), keyword: z.number().int(), vector: z.number().int(), other: z.number().int() }),
  }),
  /** Stage figures of the LLM enhancements; absent when none was asked for. */
  enhance: SearchEnhancement.optional(),
});
export type SearchResult = z.infer<typeof SearchResult>;

/** A bounded window of a page's text around a passage, with the passage's span and hash. */
export const Evidence = z.object({
  evidenceId: z.string(),
  pagePath: z.string(),
  title: z.string(),
  /** The passage span in the page's canonical text. */
  start: z.number().int(),
  end: z.number().int(),
  /** sha256 of `text.slice(start - windowStart, end - windowStart)`. */
  contentHash: z.string(),
  /** Where `text` starts in the page. */
  windowStart: z.number().int(),
  text: z.string(),
  provenance: Provenance,
});
export type Evidence = z.infer<typeof Evidence>;

/** One entry of a knowledge base's glossary (issue #15): a term, its aliases, and its definition's passage. */
export const GlossaryEntry = z.object({
  term: z.string(),
  aliases: z.array(z.string()),
  /** The definition as written in the glossary page. */
  definition: z.string(),
  /** The whole entry (term and definition) as a passage of its page, hit reason `glossary`: cite it like any. */
  passage: Passage,
});
export type GlossaryEntry = z.infer<typeof GlossaryEntry>;

/** What `glossary.lookup` found: the term's own entries (`exact`), else those of glossary terms it mentions. */
export const GlossaryLookup = z.object({
  term: z.string(),
  match: z.enum(['exact', 'mentioned', 'none']),
  entries: z.array(GlossaryEntry),
});
export type GlossaryLookup = z.infer<typeof GlossaryLookup>;
/** A page whose digest was not made this run, and why (citations that failed validation, a model error). */
export const DigestProblem = z.object({
  /** The source page (`wiki/…`), or `wiki/_digest/overview.md` for the overview. */
  path: z.string(),
  status: z.enum(['rejected', 'failed']),
  reason: z.string(),
});
export type DigestProblem = z.infer<typeof DigestProblem>;

/** Where making the page digests of one knowledge base stands (`digests.status`, `digests.progress`). */
export const DigestStatus = z.object({
  kbId: z.string(),
  /** The knowledge base's setting: digests are made for it. */
  enabled: z.boolean(),
  /** `skipped`: no model could be used (see `message`, `code`); `off`: the setting is off. */
  state: z.enum(['idle', 'running', 'done', 'skipped', 'off', 'cancelled', 'error']),
  /** Why the run was skipped: `llm_unavailable` (no server), `no_model` (none installed). Null otherwise. */
  code: z.enum(['llm_unavailable', 'no_model']).nullable(),
  /** Pages to digest this run (their content changed or they have no digest yet), and those handled so far. */
  pagesTotal: z.number().int(),
  pagesDone: z.number().int(),
  /** Digests written this run (pages and the overview). */
  generated: z.number().int(),
  /** Digests removed this run (their source page went). */
  removed: z.number().int(),
  /** Pages whose digest is current and was not made again. */
  unchanged: z.number().int(),
  /** Digests not stored this run, with the reason. */
  problems: z.array(DigestProblem),
  /** Digest pages the knowledge base holds now (the overview included). */
  stored: z.number().int(),
  currentPage: z.string().nullable(),
  /** The model that writes the digests, once known. */
  model: z.string().nullable(),
  /** Why the run was skipped or failed, for people; null otherwise. */
  message: z.string().nullable(),
  startedAt: Timestamp.nullable(),
  finishedAt: Timestamp.nullable(),
});
export type DigestStatus = z.infer<typeof DigestStatus>;
