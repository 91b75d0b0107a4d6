/**
 * What the core says to people, in one language at a time. Each message is a stable code with parameters, written
 * here once as its English template: the core sends the English text (the CLI, MCP and logs show it as it is) and,
 * beside it, the code and parameters (`Said`) that the renderer translates. An object that carries such messages
 * (a stored turn, an indexing status, the model status) has a `said` map from each English text it holds to its
 * `Said`; a text with no entry there is shown as it is. Messages stored as text before codes existed (a file's
 * reason in an index) are recognised again by {@link saidOf}, from the same templates.
 */
import { z } from 'zod';

/** A message as code and parameters; a parameter may itself be a message (a reason inside a reason). */
export interface Said {
  code: MessageCode;
  params?: Record<string, SaidParam>;
}

/** A parameter of a {@link Said}: a value, a message, or a list of messages (shown joined). */
export type SaidParam = string | number | Said | Said[];

/** The zod schema of {@link Said}. Unknown codes pass (a newer core); the renderer then shows the English text. */
export const Said: z.ZodType<Said> = z.lazy(() =>
  z.object({
    code: z.string() as unknown as z.ZodType<MessageCode>,
    params: z.record(z.string(), z.union([z.string(), z.number(), Said, z.array(Said)])).optional(),
  }),
);

/** Each English text an object holds, with its code and parameters. */
export const SaidMap = z.record(z.string(), Said);
export type SaidMap = z.infer<typeof SaidMap>;

/**
 * Every message by code, as its English template (`{name}` is a parameter). The texts are the ones the core always
 * wrote, unchanged, so logs, the CLI and stored data read as before.
 */
export const MESSAGES = {
  // A follow-up's rewrite, and why no model could answer.
  'rewrite.fallback': "The follow-up was not rewritten by the model ({why}); searched with the previous question's key terms added.",
  'rewrite.noModel': 'no model ({detail})',
  'rewrite.noQuery': 'the model gave no usable query',
  'llm.unreachable': '{name} is not reachable at {host}',
  'llm.noModelInstalled': 'Ollama has no model installed',
  'llm.listsNoModel': '{name} lists no model',
  // A turn's warnings.
  'turn.cutAtLength': 'The answer was cut at the maximum answer length ({chars} characters).',
  'turn.modelLength': 'The model stopped at its answer-length limit (num_predict {tokens} tokens).',
  'turn.maxTime': 'The turn was stopped at its maximum time ({seconds} s); the answer so far is kept.',
  'turn.unreadable': "{count} line(s) of the model server's answer could not be read and were dropped; it may be incomplete.",
  'turn.noAnswerTools': 'The model produced no answer: it spent its {rounds} round(s) calling tools.',
  'turn.noAnswer': 'The model produced no answer text.',
  // What a tool call gave (a turn's steps).
  'tool.passages': '{count} passage(s)',
  'tool.nothingFound': 'nothing found',
  'tool.searchFailed': 'search failed',
  'tool.budgetSpent': 'search budget spent',
  'tool.noQuery': 'no query',
  'tool.unknown': 'unknown tool',
  'tool.read': 'read {path}',
  'tool.notFound': 'not found',
  'tool.badPath': 'bad path',
  'tool.notInGlossary': 'not in the glossary',
  'tool.noTerm': 'no term',
  // Search enhancements.
  'enhance.unavailable': 'search enhancements are not available here',
  'enhance.multiQueryCapped': 'multi-query: {asked} queries asked, the settings allow at most {max}',
  'enhance.multiQueryFailed': "multi-query: the model's queries were not used ({why})",
  'enhance.hydeOff': 'HyDE: turned off in the settings',
  'enhance.hydeKeywordOnly': 'HyDE: skipped, this search is keyword-only',
  'enhance.hydeKeywordOnlyWhy': 'HyDE: skipped, this search is keyword-only ({why})',
  'enhance.hydeEmpty': 'HyDE: the model wrote no passage',
  'enhance.hydeFailed': 'HyDE: no passage ({why})',
  'enhance.rerankOff': 'rerank ({kind}): turned off in the settings',
  'enhance.rerankUnavailable': 'rerank ({kind}): reranker not available',
  'enhance.noModel': '{what}: off, no model ({why})',
  'enhance.multiQuery': 'multi-query',
  'enhance.hyde': 'HyDE',
  'enhance.llmRerank': 'LLM rerank',
  // Why a file is not a page.
  'file.pdfUnreadable': 'the PDF could not be read: {detail}',
  'file.pdfNoText': 'the PDF has no text layer (scanned?)',
  'file.pdfPassword': 'the PDF is password-protected; remove the password to index it',
  'file.docxUnreadable': 'the Word document could not be read: {detail}',
  'file.docxNoText': 'the Word document has no text',
  'file.encrypted': '{what} is password-protected; remove the password to index it',
  'file.notZip': '{what} is damaged: it is not the zip file its name says',
  'file.zipUnreadable': '{what} could not be read: {detail}',
  'file.zipTooLarge': '{what} would unpack to {size}, more than the {cap} Sift reads from one file',
  'file.sheetUnreadable': 'the spreadsheet could not be read: {detail}',
  'file.sheetNoText': 'the spreadsheet has no cells with text',
  'file.sheetTooWide': 'the sheet "{sheet}" is {columns} columns wide; Sift reads sheets up to {cap} columns',
  'file.sheetTooLong': 'the spreadsheet holds more than {cap} characters of cells; Sift reads up to that much',
  'file.slidesNoText': 'the slide deck has no text',
  'file.slidesUnreadable': 'the slide deck could not be read: {detail}',
  'file.epubUnreadable': 'the e-book could not be read: {detail}',
  'file.epubNoText': 'the e-book has no text',
  'file.epubDrm': 'the e-book is encrypted (DRM); Sift can read only e-books without DRM',
  'file.imageUnreadable': 'the image could not be read: {detail}',
  'file.ocrOff': 'OCR is off',
  'file.ocrNoText': 'OCR found no text in the image',
  'file.ocrFailed': 'OCR failed: {detail}',
  'what.spreadsheet': 'the spreadsheet',
  'what.slides': 'the slide deck',
  'what.epub': 'the e-book',
  'what.docx': 'the Word document',
  'file.unsupported': 'Sift does not read this kind of file ({name})',
  'file.onlyFrontMatter': 'the file has only front matter and no text',
  'file.noText': 'the page has no readable text',
  'file.binary': 'binary file with a text extension',
  'file.notText': 'not a text file, and its name is of no kind Sift reads ({name})',
  'file.tagsIndex': 'an index of names made by ctags, not a document ({name})',
  'file.machineMade': 'code made by a program, not a document: its lines average {average} characters (minified or generated; {name})',
  'file.unreadable': 'could not be read: {detail}',
  'file.unreadableCode': 'unreadable: {detail}',
  'file.notRegular': 'not a regular file: {kind}',
  'file.tooLarge': 'too large ({size} > {cap} cap)',
  'file.tooLargeBytes': 'too large ({size} bytes > {cap} bytes cap)',
  'file.grew': 'too large (grew past the {cap} cap while read)',
  'file.linkOut': 'a link to outside the folder (links out are not followed for this folder)',
  // Why a knowledge base searches by keywords only (the embedding model could not be had).
  'embed.unavailable':
    'Embedding model "{model}" {why}. To use the model, put its files in {places}; to stop trying, set SIFT_EMBEDDING=none.',
  'embed.notLoadedFrom': 'could not be loaded from {dir} ({detail}); its files may be damaged or incomplete',
  'embed.downloadOff': 'is not on this computer and downloading is turned off',
  'embed.downloadFailed': 'is not on this computer and downloading it from {host} failed ({detail})',
  'embed.ollamaNoModel': 'Ollama at {host} has no model "{model}" ({detail}); run `ollama pull {model}`.',
  // pdf.js's own words for a broken file (the detail of `file.pdfUnreadable`).
  'pdf.invalid': 'Invalid PDF structure.',
  'pdf.invalidBare': 'Invalid PDF structure',
  // The model server's status (the banner's details).
  'status.ollamaDown': 'Ollama is not reachable at {host}. Start it with `ollama serve`, then pull a model: `ollama pull qwen3:4b`.',
  'status.ollamaNoModel': 'Ollama has no model installed. Pull one: `ollama pull qwen3:4b`.',
  'status.modelMissing': 'The model {model} is not installed. Run `ollama pull {model}`.',
  'status.providerNoModels': '{name} lists no models.',
  'status.providerMissing': '{name} does not list the model {model}.',
  'llm.cannotReach':
    'Cannot reach Ollama at {host} ({detail}). Start it with `ollama serve` (or open the Ollama app), or check the Ollama address in Settings.',
  'llm.cutMidAnswer': 'The connection to Ollama was cut mid-answer ({host}); try again.',
  // Names people give (knowledge bases, providers, conversations) that would not read as what they are (shared/names.ts).
  'name.invisible': 'The name has no visible character (only spaces or zero-width characters).',
  'name.control': 'The name contains a control character (such as NUL or a line break).',
  'name.bidi': 'The name contains a bidirectional control character (such as U+202E), which makes it read differently from what it is.',
} as const;

/** A message's code. */
export type MessageCode = keyof typeof MESSAGES;

/** A message: its English text and what the renderer translates. */
export interface Message {
  text: string;
  said: Said;
}

/** A parameter of {@link say}: a value, a message said inside another, or a list of them (joined with ", "). */
export type Param = string | number | Message | Message[];

/** The message `code` with `params`: the English text from its template, and the code and parameters. */
export function say(code: MessageCode, params: Record<string, Param> = {}): Message {
  const said: Said = { code };
  const kept: Record<string, SaidParam> = {};
  for (const [name, value] of Object.entries(params)) {
    kept[name] = Array.isArray(value) ? value.map((m) => m.said) : typeof value === 'object' ? value.said : value;
  }
  if (Object.keys(kept).length > 0) said.params = kept;
  const text = MESSAGES[code].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    if (Array.isArray(value)) return value.map((m) => m.text).join(', ');
    return typeof value === 'object' ? value.text : String(value);
  });
  return { text, said };
}

/** Templates as anchored patterns, parameters captured in order (built once). */
const PATTERNS = (Object.entries(MESSAGES) as [MessageCode, string][]).map(([code, template]) => {
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const parts = template.split(/\{\w+\}/);
  const source = parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('(.+?)');
  return { code, names, literal: parts.join('').length, pattern: new RegExp(`^${source}$`, 's') };
});

/**
 * The code and parameters of an English text the core wrote from one of {@link MESSAGES}, or null for any other text.
 * A parameter that is itself such a text (or a list of them) is recognised too, to a depth of 3. When several
 * templates match ("{name} is not reachable at {host}" matches much), the one whose parameters are messages
 * themselves wins, then the one with the most fixed words.
 */
export function saidOf(text: string, depth = 3): Said | null {
  let best: { said: Said; score: number } | null = null;
  for (const { code, names, literal, pattern } of PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const params: Record<string, SaidParam> = {};
    let known = 0;
    names.forEach((name, i) => {
      const value = match[i + 1]!;
      const inner = depth > 1 ? (saidOf(value, depth - 1) ?? listOf(value, depth - 1)) : null;
      if (inner) known++;
      params[name] = inner ?? value;
    });
    const score = known * 1000 + literal;
    if (!best || score > best.score) best = { said: names.length ? { code, params } : { code }, score };
  }
  return best?.said ?? null;
}

/** A ", "-joined list whose every item is a message, or null. */
function listOf(text: string, depth: number): Said[] | null {
  if (!text.includes(', ')) return null;
  const items = text.split(', ').map((item) => saidOf(item, depth));
  return items.every((item) => item !== null) ? (items as Said[]) : null;
}

/** A {@link SaidMap} of the texts among `texts` that are messages (the rest are left out). */
export function saidMapOf(texts: (string | null | undefined)[]): SaidMap {
  const map: SaidMap = {};
  for (const text of texts) {
    if (!text || map[text]) continue;
    const said = saidOf(text);
    if (said) map[text] = said;
  }
  return map;
}
