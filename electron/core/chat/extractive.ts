/**
 * The answer Sift gives without a language model: the top passages themselves, each cited, and
 * one clear sentence on why and how to start a model. Search still works without Ollama.
 */
import type { Citation } from '../../../shared/chat-models';
import { decodeEntities, quoteInline, withoutHeadingMarks } from '../../../shared/markdown-text';
import type { Passage } from '../../../shared/models';

/** An extractive answer and its citations, one per passage, built with the text rather than parsed from it. */
export interface ExtractiveAnswer {
  text: string;
  citations: Citation[];
  /** The passages quoted, in citation order (`[n]` is `passages[n - 1]`): those given, less heading-only ones. */
  passages: Passage[];
}

/**
 * Whether a passage says nothing but a heading (`## Retry policy`): quoted alone it answers nothing.
 * Chunking should never cut such a passage; this keeps one out of an answer if it ever does.
 */
export function isOnlyHeading(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.every((line) => /^[ \t]{0,3}#{1,6}([ \t]|$)/.test(line));
}

/** Whether the notice is written in Chinese: the UI's language when known, else the question's script. */
function inChinese(question: string, language: string | undefined): boolean {
  return language ? /^zh\b/i.test(language) : /\p{Script=Han}/u.test(question);
}

/** Longest passage quoted, in characters. */
const QUOTE_MAX = 400;

/** Options of {@link extractiveAnswer}. */
export interface ExtractiveOptions {
  /** The asker's UI language (`en`, `zh-CN`…); default: the question's script decides. */
  language?: string;
  /** Identifiers of the question found nowhere in the knowledge base (default none), said before the passages. */
  noExactMatch?: string[];
}

/**
 * The extractive answer for `passages` (numbered from 1 after leaving out any that is only a heading),
 * its notice in `language` (the asker's UI language; default: the question's script). Each passage is
 * quoted from its focus (the first line or sentence holding a word of the query, see focusOf), at most
 * QUOTE_MAX characters, as escaped text on one line ({@link quoteInline}), so a passage cut inside a
 * code block, or holding HTML or a `[2]` of its own, cannot hide or invent a citation; its `[n]`
 * comes after it.
 * `noExactMatch`: identifiers of the question found nowhere in the knowledge base (default none), said
 * before the passages so part-matches are not read as answers about them.
 */
export function extractiveAnswer(
  question: string,
  given: Passage[],
  down: string,
  options: ExtractiveOptions = {},
): ExtractiveAnswer {
  const passages = given.filter((p) => !isOnlyHeading(p.text));
  const zh = inChinese(question, options.language);
  const why = codeUrls(zh ? reasonInChinese(down) : down);
  const noExactMatch = options.noExactMatch ?? [];
  const missing = noExactMatch.length > 0 ? `${noExactMatchLine(noExactMatch, zh)}\n\n` : '';
  // The built-in Ollama gets its two commands; another provider's server is the person's own to start or fix.
  const ollama = down.startsWith('Ollama');
  const start = zh
    ? ollama ? '请启动 Ollama（`ollama serve`）并下载一个模型（`ollama pull qwen3:4b`）' : '请启动该模型服务，或在设置中检查它的地址和密钥'
    : ollama ? 'start Ollama (`ollama serve`) and pull a model (`ollama pull qwen3:4b`)' : 'start that model server, or check its address and key in Settings';
  const howTo = zh
    ? `没有正在运行的语言模型（${why}），以下是知识库中最相关的段落原文。要得到生成的回答，${start}。`
    : `No language model is running (${why}), so here are the most relevant passages from your knowledge base, quoted as they are. For written answers, ${start}.`;
  if (passages.length === 0) {
    const nothing = zh
      ? '知识库中没有找到与这个问题相关的内容。'
      : 'Nothing in this knowledge base matches the question.';
    return { text: `${howTo}\n\n${missing}${nothing}`, citations: [], passages };
  }
  let text = `${howTo}\n\n${missing}`;
  const citations: Citation[] = [];
  passages.forEach((p, i) => {
    const number = i + 1;
    const quote = quoteOf(p);
    text += `${i > 0 ? '\n' : ''}${number}. **${quoteInline(p.title)}**${quote.text.startsWith('\n') ? '' : ' — '}${quote.text}${quote.endsInCode ? '\n\n   ' : ' '}`;
    const markerStart = text.length;
    text += `[${number}]`;
    citations.push({ number, valid: true, markerStart, markerEnd: text.length, quote: null, quoteVerified: null });
  });
  return { text, citations, passages };
}

/** Lines of one code block quoted at most. */
const CODE_LINES = 15;
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** Backslash escapes of Markdown source (`\*` is a literal star). */
const SOURCE_ESCAPE = /\\([!-/:-@[-`{-~])/g;

/** Strong and emphasis marks of Markdown source (`**x**`, `__x__`, `*x*`), not escaped and hugging their words. */
const STRONG = /(?<!\\)(\*\*|__)(?=\S)([^\n]*?\S)\1/g;
const EMPHASIS = /(?<![\\\w*])\*(?=[^\s*])([^*\n]*?[^\s*\\])\*(?![\w*])/g;

/**
 * Markdown prose as its reader sees it, on one line: heading marks, strong/emphasis marks and backslash escapes
 * gone, character references decoded (`&nbsp;` is a space). Still to be escaped (quoteInline) where it is placed.
 */
export function markdownProse(text: string): string {
  const plain = withoutHeadingMarks(text).replace(STRONG, '$2').replace(EMPHASIS, '$1').replace(SOURCE_ESCAPE, '$1');
  return decodeEntities(plain).replace(/\s+/g, ' ').trim();
}

/** One part of a quote: prose, or a fenced code block's lines. */
type QuotePart = { kind: 'prose'; text: string } | { kind: 'code'; fence: string; info: string; lines: string[] };

/** The parts of a Markdown passage from `from`, inside the fence `open` when it starts in a code block. */
function partsOf(text: string, open: string | null): QuotePart[] {
  const parts: QuotePart[] = [];
  let code: Extract<QuotePart, { kind: 'code' }> | null = open ? { kind: 'code', fence: open, info: '', lines: [] } : null;
  if (code) parts.push(code);
  let prose: string[] = [];
  const endProse = () => {
    if (prose.join('').trim() !== '') parts.push({ kind: 'prose', text: prose.join('\n') });
    prose = [];
  };
  for (const line of text.split('\n')) {
    const fence = FENCE_LINE.exec(line);
    if (code) {
      if (fence && fence[1]![0] === code.fence[0] && fence[1]!.length >= code.fence.length && fence[2]!.trim() === '') code = null;
      else code.lines.push(line);
    } else if (fence && !(fence[1]![0] === '`' && fence[2]!.includes('`'))) {
      endProse();
      code = { kind: 'code', fence: fence[1]!, info: fence[2]!.trim(), lines: [] };
      parts.push(code);
    } else prose.push(line);
  }
  endProse();
  return parts.filter((p) => p.kind === 'prose' || p.lines.some((l) => l.trim() !== ''));
}

/**
 * How a passage is quoted: from its focus, at most QUOTE_MAX characters. Prose is one escaped line (see
 * quoteInline), with a Markdown page's own escapes and character references read (`&nbsp;` is a space, not
 * the text `&nbsp;`); a fenced code block of a Markdown page stays a code block, inside the list item, with
 * its lines as written (at most CODE_LINES), so code reads as code in the app and in a terminal.
 */
function quoteOf(p: Passage): { text: string; endsInCode: boolean } {
  const from = p.focus ?? 0;
  const lead = from > 0 ? '…' : '';
  const markdown = /\.(?:md|markdown|mdx)$/i.test(p.pagePath) || p.openFence !== undefined;
  if (!markdown) return { text: `${lead}${quoteInline(withoutHeadingMarks(p.text.slice(from)), QUOTE_MAX)}`, endsInCode: false };
  let budget = QUOTE_MAX;
  let out = '';
  let endsInCode = false;
  for (const part of partsOf(p.text.slice(from), p.openFence ?? null)) {
    if (budget <= 0) break;
    if (part.kind === 'prose') {
      const readable = markdownProse(part.text);
      const quoted = quoteInline(readable, budget);
      out += out === '' ? `${lead}${quoted}` : `\n\n   ${quoted}`;
      budget -= readable.length;
      endsInCode = false;
    } else {
      const lines: string[] = [];
      for (const line of part.lines.slice(0, CODE_LINES)) {
        if (budget <= 0) break;
        lines.push(line);
        budget -= line.length + 1;
      }
      while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
      const body = lines.map((l) => (l === '' ? '' : `   ${l}`)).join('\n');
      out += `\n\n   ${part.fence}${part.info}\n${body}\n   ${part.fence}`;
      endsInCode = true;
    }
  }
  return { text: out, endsInCode };
}

/** The reasons the turn gives for having no model (turn.ts), in Chinese; any other reason as it is. */
function reasonInChinese(down: string): string {
  const unreachable = /^(.+) is not reachable at (\S+)$/.exec(down);
  if (unreachable) return `无法连接 ${unreachable[2]} 上的 ${unreachable[1]}`;
  if (down === 'Ollama has no model installed') return 'Ollama 还没有安装模型';
  return down;
}

/** The sentence saying these identifiers occur nowhere in the knowledge base. */
function noExactMatchLine(words: string[], zh: boolean): string {
  const list = words.map((w) => `\`${w}\``).join(zh ? '、' : ', ');
  if (zh) return `知识库中没有 ${list} 的完全匹配；以下段落只匹配其中的部分或其他词语，` + '并不是关于它的内容。';
  return `There is no exact match for ${list} in this knowledge base; ` +
    'the passages below match only parts of it or other words, and are not about it.';
}

/**
 * URLs of `text` as inline code: a bare URL would be auto-linked, and the link would run on through the
 * full-width punctuation and Chinese text after it (`http://127.0.0.1:9）`).
 */
function codeUrls(text: string): string {
  return text.replace(/\bhttps?:\/\/[^\s`\u3000-\u303f\uff00-\uffef]+/g, (url) => `\`${url}\``);
}
