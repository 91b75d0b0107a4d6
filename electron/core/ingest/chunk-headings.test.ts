/**
 * A heading is never a chunk of its own: it belongs to the text that follows it. Headings come from
 * the real Markdown parser, so what is checked is what ingest stores.
 */
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './parse/markdown';
import { buildSections, chunkSections, hasWords, type ChunkSpan } from '../text/chunk';

function chunked(source: string): { text: string; chunks: ChunkSpan[]; paths: string[][] } {
  const { text, headings } = parseMarkdown(source);
  const sections = buildSections(text, headings);
  const chunks = chunkSections(text, sections);
  for (const c of chunks) expect(c.text).toBe(text.slice(c.start, c.end));
  return { text, chunks, paths: sections.map((s) => s.headingPath) };
}

/** Each chunk's text with its heading lines and markup set aside must still have words. */
function expectEveryChunkHasBody(source: string): ChunkSpan[] {
  const { text, headings } = parseMarkdown(source);
  const chunks = chunkSections(text, buildSections(text, headings));
  for (const c of chunks) {
    let body = c.text;
    for (const h of headings) {
      if (h.start >= c.start && h.end <= c.end) body = body.replace(text.slice(h.start, h.end), '');
    }
    expect(hasWords(body, 0, body.length), `chunk ${c.index}: ${JSON.stringify(c.text)}`).toBe(true);
  }
  return chunks;
}

const MANUAL = [
  '# 网关超时处理手册',
  '',
  '## 背景',
  '',
  '网关在三十秒内没有收到上游响应时返回 504。客户端应当重试一次。',
  '',
  '## 处理步骤',
  '',
  '先检查上游服务的日志，再检查网关的连接池。',
].join('\n');

const README = [
  '<p align="center">',
  '  <img src="logo.svg" width="200px" alt="Mammoth logo" />',
  '</p>',
  '',
  '# Mammoth',
  '',
  '[![npm](https://img.shields.io/npm/v/mammoth.svg)](https://www.npmjs.com/package/mammoth)',
  '',
  '## Usage',
  '',
  '### Library',
  '',
  '#### Basic conversion',
  '',
  'To convert an existing .docx file to HTML, pass the path to `convertToHtml`.',
  '',
  '---',
  '',
  '### HTML paths',
  '',
  '### API',
  '',
  'Every function returns a promise.',
  '',
  '## Changelog',
].join('\n');

describe('headings join the text that follows them', () => {
  it('a page title straight before a subheading is not chunk 0 on its own', () => {
    const { chunks, paths } = chunked(MANUAL);
    expect(chunks[0]!.start).toBe(0);
    expect(chunks[0]!.text).toMatch(/^# 网关超时处理手册\n\n## 背景\n\n网关在三十秒内/);
    expect(paths).toEqual([
      ['网关超时处理手册', '背景'],
      ['网关超时处理手册', '处理步骤'],
    ]);
    expectEveryChunkHasBody(MANUAL);
  });

  it('a logo block, badges, bare headings and a rule never stand alone; a last heading joins the text before', () => {
    const { text, chunks, paths } = chunked(README);
    expect(chunks.map((c) => c.text.split('\n')[0])).toEqual(['<p align="center">', '### HTML paths']);
    // The first chunk runs from the logo through "Basic conversion" and its text (the rule is markup).
    expect(chunks[0]!.text).toContain('#### Basic conversion\n\nTo convert an existing .docx file to HTML');
    expect(paths).toEqual([
      ['Mammoth', 'Usage', 'Library', 'Basic conversion'],
      ['Mammoth', 'Usage', 'API'],
    ]);
    expect(chunks[chunks.length - 1]!.end).toBe(text.length);
    expect(text.slice(chunks[1]!.start, chunks[1]!.end)).toMatch(/promise\.\n\n## Changelog$/);
    expectEveryChunkHasBody(README);
  });

  it('setext headings and headings with only an HTML comment under them join the next section', () => {
    const source = 'Guide\n=====\n\n<!-- toc -->\n\nRetries\n-------\n\nRetries happen three times.\n';
    const { chunks, paths } = chunked(source);
    expect(chunks.map((c) => c.text)).toEqual([source.trim()]);
    expect(paths).toEqual([['Guide', 'Retries']]);
  });

  it('a page that is only a heading keeps it as its one chunk', () => {
    expect(chunked('# Just a title\n').chunks.map((c) => c.text)).toEqual(['# Just a title']);
    expect(chunked('# One\n\n## Two\n').chunks.map((c) => c.text)).toEqual(['# One\n\n## Two']);
  });

  it('a long body still splits into several chunks, the heading only in the first', () => {
    const body = 'The gateway retries a failed request once and then gives up. '.repeat(40);
    const chunks = expectEveryChunkHasBody(`# Title\n\n## Retries\n\n${body}\n`);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks[0]!.text.startsWith('# Title\n\n## Retries\n\nThe gateway')).toBe(true);
  });
});

describe('hasWords', () => {
  it.each([
    ['<p align="center"><img src="x.png" alt="logo"></p>', false],
    ['[![npm](https://img.shields.io/npm/v/x.svg)](https://npmjs.com/x)', false],
    ['---\n***\n&nbsp; &#128170;', false],
    ['<!-- a comment with words -->', false],
    ['Special thanks to <a href="x">our sponsors</a>', true],
    ['超时', true],
    ['v2', true],
  ])('%j → %s', (text, expected) => {
    expect(hasWords(text, 0, text.length)).toBe(expected);
  });
});
