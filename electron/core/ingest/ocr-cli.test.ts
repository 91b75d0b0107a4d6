/**
 * OCR through the hosts (issue #26 item 1): `sift ingest` says how long OCR takes (pages × measured seconds per
 * page), `sift pages` and `sift manifest` show the parser, model and confidence, and MCP `read_page` returns the
 * OCR text with each line's box.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHINESE_LINES, ENGLISH_LINES, FONTS, drawPage, imagePdf } from '../ocr/testing/scans';
import { SIFT_BIN, makeKb, openCore, runCli, writeFiles } from './testing/fixtures';

let data: string;
let root: string;
let ingest: { code: number | null; stdout: string; stderr: string };
const env = { SIFT_EMBEDDING: 'none' };

beforeAll(async () => {
  data = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-ocr-cli-data-'));
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-ocr-cli-'));
  const pages = [drawPage(ENGLISH_LINES, { family: FONTS.serif.family, format: 'jpeg' }), drawPage(CHINESE_LINES, { family: FONTS.sans.family, format: 'jpeg' })];
  writeFiles(root, {
    '合同/scan.pdf': imagePdf(pages.map((p) => ({ jpeg: p.bytes, width: p.width, height: p.height }))),
    'receipt.png': drawPage(ENGLISH_LINES.slice(4, 5), { family: FONTS.sans.family, width: 1000, height: 260 }).bytes,
  });
  const sift = openCore(data);
  await makeKb(sift, 'Scans', [root]);
  await sift.close();
  ingest = await runCli(['--data-dir', data, 'ingest', 'Scans'], { env, timeoutMs: 120_000 });
}, 150_000);

afterAll(() => {
  for (const dir of [data, root]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('OCR in the CLI and MCP', () => {
  it('ingest says how long OCR takes and how many pages it read', () => {
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(ingest.stderr).toMatch(/OCR: wiki\/合同\/scan\.pdf: 2 page\(s\) × \d+\.\d\d s\/page measured ≈ \d+ s/);
    expect(ingest.stdout).toMatch(/^ocr +3 page\(s\) read \(\d+\.\d\d s\/page\), 0 from the cache$/m);
  });

  it('pages and manifest show the parser, the model and the confidence', async () => {
    const pages = await runCli(['--data-dir', data, 'pages', 'Scans'], { env });
    expect(pages.stdout).toMatch(/wiki\/receipt\.png +receipt +image, ocr 0\.\d\d /);
    expect(pages.stdout).toMatch(/wiki\/合同\/scan\.pdf +scan +pdf, ocr 0\.\d\d /);
    const manifest = await runCli(['--data-dir', data, 'manifest', 'Scans'], { env });
    expect(manifest.stdout).toMatch(/receipt\.png +wiki\/receipt\.png +indexed +ocr pp-ocrv4-ch@[\d.]+ 0\.\d\d /);
  });

  it('MCP read_page returns the OCR text with each line of the range, its box and confidence', async () => {
    const client = new Client({ name: 'sift-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({
      command: process.execPath,
      args: [SIFT_BIN, '--data-dir', data, 'mcp', '--kb', 'Scans'],
      cwd: path.dirname(SIFT_BIN),
      env: { PATH: process.env.PATH ?? '', HOME: data, ...env },
      stderr: 'pipe',
    }));
    try {
      const result = (await client.callTool({ name: 'read_page', arguments: { kb: 'Scans', path: 'wiki/合同/scan.pdf' } })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      type Line = { text: string; start: number; end: number; box: number[]; confidence: number };
      const page = result.structuredContent as {
        text: string; parts: { number: number }[];
        ocr: { model: string; lowConfidence: boolean; pages: { page: number; width: number; height: number; lines: Line[] }[] };
      };
      expect(page.parts.map((p) => p.number)).toEqual([1, 2]);
      expect(page.ocr.pages.map((p) => [p.page, p.width, p.height])).toEqual([[1, 1240, 1754], [2, 1240, 1754]]);
      const lines = page.ocr.pages.flatMap((p) => p.lines);
      expect(lines.map((l) => l.text)).toContain('本合同自双方签字之日起生效。');
      for (const line of lines) {
        expect(page.text.slice(line.start, line.end)).toBe(line.text);
        expect(line.box[2]! > line.box[0]! && line.box[3]! > line.box[1]!).toBe(true);
      }
      // a range returns only the lines in it
      const second = page.ocr.pages[1]!.lines[0]!;
      const ranged = (await client.callTool({ name: 'read_page', arguments: { kb: 'Scans', path: 'wiki/合同/scan.pdf', start: second.start, end: second.end } })) as CallToolResult;
      const part = ranged.structuredContent as { ocr: { pages: { page: number; lines: Line[] }[] } };
      expect(part.ocr.pages.map((p) => [p.page, p.lines.map((l) => l.text)])).toEqual([[2, [second.text]]]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
