import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, TurnInfo } from '../../../shared/chat-models';
import type { Passage } from '../../../shared/models';
import { sanitizeFileName, writeInside } from './files';
import { renderExport } from './handlers';
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

  it('writes Markdown with footnotes (quote, path, page or heading) and invalid citations as plain text', () => {
    expect(renderExport(source, 'md')).toBe(`# Timeouts / RRF

_Exported from Sift on 2026-11-29 · knowledge base “Ops”_

## E_CONN_RESET 超时多少？

超时是 30 秒 [^1]，并结合 RRF [^1][^2]。另见 \\[9\\]。

## And k?

<script>alert(1)</script>Fusion uses k = 60 [^3].

[^1]: “默认超时是 30 秒。 重试三次。”
    连接超时 — \`wiki/runbook.md\`, 连接超时 › Retry policy

[^2]: “RRF sums 1/(k + rank) over the lists.”
    Reciprocal Rank Fusion — \`wiki/papers/rrf.pdf\`, pp. 3–4

[^3]: “RRF sums 1/(k + rank) over the lists.”
    Reciprocal Rank Fusion — \`wiki/papers/rrf.pdf\`, pp. 3–4
`);
  });

  it('exports one answer with its question only', () => {
    const md = renderExport({ ...source, messageId: 'a2' }, 'md');
    expect(md).toContain('## And k?\n\n<script>alert(1)</script>Fusion uses k = 60 [^1].');
    expect(md).not.toContain('E_CONN_RESET');
  });

  it('writes self-contained HTML: inline CSS, footnotes as anchors, no scripts', () => {
    const html = renderExport(source, 'html');
    expect(html).toMatch(/^<!doctype html>\n<html lang="zh-CN">/);
    expect(html).toContain('<title>Timeouts / RRF</title>');
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|src="http/i);
    expect(html).toContain('<p>超时是 30 秒 <sup><a href="#user-content-fn-1" id="user-content-fnref-1" data-footnote-ref aria-describedby="footnote-label">1</a></sup>');
    expect(html).toContain('另见 [9]。</p>');
    expect(html).toMatch(/<li id="user-content-fn-1">\s*<p>“默认超时是 30 秒。 重试三次。”\n连接超时 — <code>wiki\/runbook\.md<\/code>, 连接超时 › Retry policy <a href="#user-content-fnref-1"/);
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
