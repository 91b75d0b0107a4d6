import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import { parseCitationMarkers } from '../../../shared/citations';
import type { Passage } from '../../../shared/models';
import { extractiveAnswer } from './extractive';

function passage(title: string, text: string): Passage {
  return {
    evidenceId: title, pagePath: `wiki/${title}.md`, title, start: 0, end: text.length, text, contentHash: 'h',
    provenance: { headingPath: [], pdfPages: null, lines: null }, hitReason: 'body',
    keywordRank: 1, keywordScore: 1, vectorRank: null, vectorDistance: null, rrfScore: 0.016,
  };
}

// Passages as search cuts them: inside code blocks, with markup and markers of their own.
const NASTY = [
  { ...passage('zod', '  return schema.parse(data);\n}\n```\n\nparse throws a ZodError; safeParse returns { success }.'), openFence: '```' },
  passage('safe', 'Use safeParse:\n\n```ts\nconst r = schema.safeParse(input);\nif (!r.success) log(r.error [3]);'),
  passage('html', '# Heading\n<div onclick="x()">raw</div> see [2] and [link](javascript:alert(1)) <b>'),
  passage('ticks', '`inline start, ~~strike, *star, _under_ and E_CONN_RESET, \\[9\\] and a trailing \\'),
  passage('tildes', '~~~\nunclosed [1]\n\n# Not a heading'),
];

/** Every node of `tree`, depth first. */
function nodes(tree: Nodes): Nodes[] {
  return [tree, ...('children' in tree ? tree.children.flatMap((c) => nodes(c)) : [])];
}

function render(markdown: string): Nodes {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

describe('extractiveAnswer', () => {
  it('builds one citation per passage, at the marker that follows it', () => {
    const { text, citations } = extractiveAnswer('safeParse vs parse', NASTY, 'Ollama is not reachable');
    expect(citations.map((c) => [c.number, c.valid, text.slice(c.markerStart, c.markerEnd)])).toEqual(
      NASTY.map((_p, i) => [i + 1, true, `[${i + 1}]`]),
    );
  });

  it('quotes passages so the shared parser finds exactly the built markers', () => {
    const { text, citations } = extractiveAnswer('safeParse vs parse', NASTY, 'Ollama is not reachable');
    const found = parseCitationMarkers(text).map((m) => [m.start, m.end, m.numbers]);
    expect(found).toEqual(citations.map((c) => [c.markerStart, c.markerEnd, [c.number]]));
  });

  it('renders each passage as plain text (a code block as a code block) in its own list item, ending with its marker', () => {
    const { text } = extractiveAnswer('safeParse vs parse', NASTY, 'Ollama is not reachable');
    const list = nodes(render(text)).find((n) => n.type === 'list');
    expect(list && 'children' in list ? list.children.length : 0).toBe(NASTY.length);
    const items = list && 'children' in list ? list.children : [];
    items.forEach((item, i) => {
      const kinds = new Set(nodes(item).map((n) => n.type));
      for (const kind of ['inlineCode', 'html', 'heading', 'link', 'delete', 'emphasis', 'list']) {
        expect(kinds.has(kind as Nodes['type']), `${kind} in item ${i + 1}`).toBe(false);
      }
      const last = nodes(item).filter((n) => n.type === 'text').at(-1);
      expect(last && 'value' in last ? last.value : '').toMatch(new RegExp(`\\[${i + 1}\\]$`));
    });
    // The words survive: escaping changes how text is read, not what it says.
    expect(text).toContain('parse throws a ZodError; safeParse returns { success }.');
    expect(text).toContain('E_CONN_RESET');
    // Code stays code, its lines as written: the tail of the block the first passage starts in, the block the
    // second opens (closed by the quote), the third's `~~~` block; their `[3]` and `[1]` are no citations.
    const code = items.map((item) => nodes(item).filter((n) => n.type === 'code').map((n) => ('value' in n ? n.value : '')));
    expect(code).toEqual([
      ['  return schema.parse(data);\n}'],
      ['const r = schema.safeParse(input);\nif (!r.success) log(r.error [3]);'],
      [],
      [],
      ['unclosed [1]\n\n# Not a heading'],
    ]);
  });

  it('reads a Markdown passage as its reader would: references decoded, escapes read, code as a block', () => {
    const guide = passage('guide', 'The **safeParse** method&nbsp;returns a result &amp; never throws \\*ever\\*:\n\n```js\nconst r = schema.safeParse(input);\n```\n\nThen check `r.success`.');
    const { text, citations } = extractiveAnswer('safeParse', [guide], 'Ollama is not reachable', { language: 'en' });
    expect(text).toContain('1. **guide** — The safeParse method returns a result \\& never throws \\*ever\\*:\n\n   ```js\n   const r = schema.safeParse(input);\n   ```\n\n   Then check \\`r.success\\`. [1]');
    expect(text).not.toContain('nbsp');
    expect(parseCitationMarkers(text).map((m) => [m.start, m.numbers])).toEqual(citations.map((c) => [c.markerStart, [c.number]]));
    // A plain-text page is quoted as it is, on one line.
    const plain = { ...passage('notes', 'a &amp; b\n```\ncode\n```'), pagePath: 'wiki/notes.txt' };
    expect(extractiveAnswer('a', [plain], 'down', { language: 'en' }).text).toContain('1. **notes** — a \\&amp; b \\`\\`\\` code \\`\\`\\` [1]');
  });

  it('keeps a URL in the reason from running into the Chinese text after it', () => {
    const { text } = extractiveAnswer('怎么用 safeParse？', [], 'Ollama is not reachable at http://127.0.0.1:9');
    expect(text).toContain('（无法连接 `http://127.0.0.1:9` 上的 Ollama），以下是');
    const all = nodes(render(text));
    expect(all.some((n) => n.type === 'link')).toBe(false);
    expect(all.find((n) => n.type === 'inlineCode')).toMatchObject({ value: 'http://127.0.0.1:9' });
  });

  it('writes the notice in the UI language, else in the question\'s script', () => {
    const down = 'Ollama is not reachable at http://127.0.0.1:9';
    expect(extractiveAnswer('What is the timeout?', [], down, { language: 'zh-CN' }).text).toMatch(/^没有正在运行的语言模型/);
    expect(extractiveAnswer('超时是多少？', [], down, { language: 'en' }).text).toMatch(/^No language model is running/);
    expect(extractiveAnswer('超时是多少？', [], down, { language: 'en' }).text).not.toMatch(/\p{Script=Han}/u);
    expect(extractiveAnswer('超时是多少？', [], down).text).toMatch(/^没有正在运行的语言模型（无法连接 `http:\/\/127.0.0.1:9` 上的 Ollama）/);
    expect(extractiveAnswer('Why?', [], 'Ollama has no model installed', { language: 'zh-CN' }).text).toMatch(/^没有正在运行的语言模型（Ollama 还没有安装模型）/);
    expect(extractiveAnswer('What is the timeout?', [], down).text).toMatch(/^No language model is running/);
  });

  it('never quotes a passage that is only a heading, and numbers the rest as cited', () => {
    const heading = passage('runbook', '## Retry policy\n\n');
    const hashes = passage('limits', '# Limits ##');
    const body = passage('gateway', '## Timeouts\nThe gateway times out after 30 seconds.');
    const { text, citations, passages } = extractiveAnswer('timeout?', [heading, hashes, body], 'down', { language: 'en' });
    expect(passages).toEqual([body]);
    expect(citations.map((c) => c.number)).toEqual([1]);
    expect(text).toContain('1. **gateway** — Timeouts The gateway times out after 30 seconds. [1]');
    expect(text).not.toMatch(/Retry policy|Limits|##/);
  });

  it('quotes a passage from its focus, after an ellipsis', () => {
    const text = "  ], message: 'Invalid input' } ] */\n}\n```\n\nTo avoid a try/catch block, use safeParse.";
    const focused = { ...passage('zod', text), focus: text.indexOf('To avoid') };
    const { text: answer, citations } = extractiveAnswer('safeParse vs parse', [focused], 'Ollama is not reachable');
    expect(answer).toContain('1. **zod** — …To avoid a try/catch block, use safeParse. [1]');
    expect(answer).not.toContain('Invalid input');
    expect(citations).toHaveLength(1);
  });
});
