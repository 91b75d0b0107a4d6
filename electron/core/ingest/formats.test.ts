/**
 * Spreadsheets, slides and e-books end to end (issue #26 items 2–5): a folder of real files made in the test
 * with real libraries, beside broken ones, indexed by `sift ingest`, found by `sift search` with their sheet and
 * rows (slide, chapter), and read back through MCP `read_page` with their numbered parts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestStatus, SearchResult } from '../../../shared/models';
import { buildEpub, buildPptx } from './parse/fixtures-packages';
import { SIFT_BIN, makeKb, openCore, runCli, writeFiles } from './testing/fixtures';

function xlsx(sheets: Record<string, unknown[][]>): Buffer {
  const wb = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

const REVENUE = [['Region', 'Q3 revenue', 'Owner'], ['East', '4.2M', '王芳'], ['West', '3.1M', 'Li Lei'], ['North', '2.7M', '赵敏']];

let data: string;
let root: string;
let status: IngestStatus;

beforeAll(async () => {
  // Folders for the whole file (the CLI runs across tests), removed at the end.
  data = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-formats-data-'));
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-formats-'));
  const good = xlsx({ 季度收入: REVENUE });
  writeFiles(root, {
    '财务/季度报表.xlsx': good,
    'broken.xlsx': good.subarray(0, Math.floor(good.length / 2)),
    'wide.xlsx': xlsx({ Wide: [Array.from({ length: 10_000 }, (_, i) => `c${i}`)] }),
    'notes.md': '# Notes\n\nThe East region is owned by 王芳.\n',
    '周会/季度回顾.pptx': await buildPptx([
      { title: 'Q3 review', body: ['Revenue grew in every region'] },
      { title: '渠道合作', body: ['新增三家渠道伙伴'], notes: ['Thank the harbour logistics team first.'] },
    ]),
    'broken.pptx': Buffer.from('PK\u0003\u0004 but nothing after the signature'),
    'books/旅行笔记.epub': await buildEpub([
      { label: '第一章 出发', body: '<h1>第一章 出发</h1><p>清晨从杭州出发。</p>' },
      { label: 'Chapter 2', body: '<h1>Chapter 2</h1><p>We reached the coast at noon.</p><h2>Boats</h2><p>Twelve fishing boats lay at anchor.</p>' },
    ], { title: '旅行笔记' }),
    'books/locked.epub': await buildEpub([{ body: '<p>secret</p>' }], { encrypted: ['OEBPS/text/ch01.xhtml'] }),
  });
  const sift = openCore(data);
  await makeKb(sift, 'Files', [root]);
  await sift.close();
  const run = await runCli(['--data-dir', data, 'ingest', 'Files', '--json'], { env: { SIFT_EMBEDDING: 'none' } });
  expect(run.code, run.stderr).toBe(0);
  status = JSON.parse(run.stdout) as IngestStatus;
}, 90_000);

afterAll(() => {
  for (const dir of [data, root]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('spreadsheets, slides and e-books in a folder', () => {
  it('lists broken and too-wide files as failed with their reason and indexes the rest', () => {
    const problems = Object.fromEntries(status.problems.map((p) => [p.relPath, [p.status, p.reason]]));
    expect(problems).toEqual({
      'broken.xlsx': ['failed', expect.stringMatching(/^the spreadsheet could not be read: /)],
      'wide.xlsx': ['failed', 'the sheet "Wide" is 10000 columns wide; Sift reads sheets up to 1000 columns'],
      'broken.pptx': ['failed', expect.stringMatching(/^the slide deck could not be read: /)],
      'books/locked.epub': ['failed', 'the e-book is encrypted (DRM); Sift can read only e-books without DRM'],
    });
    expect(status).toMatchObject({ state: 'done', error: null, filesFailed: 4, filesIndexed: 4 });
  });

  it('finds a row by its values, with the sheet and row in the CLI and the JSON', async () => {
    const run = await runCli(['--data-dir', data, 'search', 'Files', 'West revenue', '--mode', 'keyword', '--json'], { env: { SIFT_EMBEDDING: 'none' } });
    expect(run.code, run.stderr).toBe(0);
    const top = (JSON.parse(run.stdout) as SearchResult).passages[0]!;
    expect(top.pagePath).toBe('wiki/财务/季度报表.xlsx');
    expect(top.text).toContain('Region: West · Q3 revenue: 3.1M · Owner: Li Lei');
    expect(top.provenance).toMatchObject({ sheet: '季度收入', rows: [2, 4], pdfPages: null });
    const text = await runCli(['--data-dir', data, 'search', 'Files', 'West revenue', '--mode', 'keyword'], { env: { SIFT_EMBEDDING: 'none' } });
    expect(text.stdout).toContain('wiki/财务/季度报表.xlsx · sheet 季度收入 · rows 2–4');
  });

  it('finds speaker notes on their slide and a chapter with its heading path', async () => {
    const search = async (query: string) => {
      const run = await runCli(['--data-dir', data, 'search', 'Files', query, '--mode', 'keyword'], { env: { SIFT_EMBEDDING: 'none' } });
      expect(run.code, run.stderr).toBe(0);
      return run.stdout;
    };
    expect(await search('harbour logistics')).toContain('wiki/周会/季度回顾.pptx · slide 2 · 渠道合作 › Speaker notes');
    expect(await search('fishing boats')).toContain('wiki/books/旅行笔记.epub · chapter 2 · Chapter 2 › Boats');
  });

  it('gives MCP read_page the row runs of a sheet', async () => {
    const client = new Client({ name: 'sift-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({
      command: process.execPath,
      args: [SIFT_BIN, '--data-dir', data, 'mcp', '--kb', 'Files'],
      cwd: path.dirname(SIFT_BIN),
      env: { PATH: process.env.PATH ?? '', HOME: data, SIFT_EMBEDDING: 'none' },
      stderr: 'pipe',
    }));
    try {
      const result = (await client.callTool({ name: 'read_page', arguments: { kb: 'Files', path: 'wiki/财务/季度报表.xlsx' } })) as CallToolResult;
      const page = result.structuredContent as { kind: string; text: string; parts: { kind: string; number: number; start: number; end: number }[] };
      expect(page.kind).toBe('sheet');
      expect(page.parts).toHaveLength(1);
      const [run] = page.parts;
      expect(run).toMatchObject({ kind: 'rows', number: 2 });
      expect(page.text.slice(run!.start, run!.end).split('\n')).toEqual([
        'Region: East · Q3 revenue: 4.2M · Owner: 王芳', 'Region: West · Q3 revenue: 3.1M · Owner: Li Lei', 'Region: North · Q3 revenue: 2.7M · Owner: 赵敏',
      ]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
