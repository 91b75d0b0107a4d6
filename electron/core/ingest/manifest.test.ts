/**
 * The manifest through the public core and the CLI: every file with its fingerprint (sha256 of the
 * bytes on disk), parser, encoding, chunk count and vector status, failed files included.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { VERSION_DOCS } from '../search/testing/version-docs';
import type { Sift } from '../sift';
import { tempDir } from '../testing/temp';
import { call, makeKb, openCore, runCli, testEmbedding, writeFiles } from './testing/fixtures';

const open: Sift[] = [];
afterEach(async () => {
  for (const sift of open.splice(0)) await sift.close();
});

function fileHash(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

describe('pages.manifest', () => {
  it('lists every file with its fingerprint, parser, encoding, chunks and vector status', async () => {
    const root = tempDir();
    writeFiles(root, {
      'notes/retry.md': '# Retry policy\n\nThe client retries three times after E_CONN_RESET.\n',
      'gbk.txt': iconv.encode('这是一个用旧版记事本保存的中文笔记：部署之前先回滚测试环境。', 'gbk'),
      'broken.pdf': '%PDF-1.4 not really',
    });
    const data = tempDir();
    const embedding = await testEmbedding(tempDir());
    const sift = openCore(data, { embedding });
    open.push(sift);
    const kb = await makeKb(sift, 'Docs', [root]);
    await sift.ingest(kb);

    const rows = await call(sift, 'pages.manifest', { kb });
    expect(rows.map((r) => r.relPath)).toEqual(['broken.pdf', 'gbk.txt', 'notes/retry.md']);
    const [pdf, gbk, md] = rows;
    expect(pdf).toMatchObject({ status: 'failed', page: null, chunks: 0, vectors: 'none' });
    expect(pdf!.reason).toMatch(/PDF/);
    expect(md).toMatchObject({
      sourcePath: path.join(root, 'notes', 'retry.md'), page: 'wiki/notes/retry.md', title: 'Retry policy',
      parser: 'markdown', status: 'indexed', chunks: 1, embeddedChunks: 1, vectors: 'current', version: null,
    });
    expect(md!.sha256).toBe(fileHash(path.join(root, 'notes', 'retry.md')));
    expect(md!.size).toBe(fs.statSync(path.join(root, 'notes', 'retry.md')).size);
    expect(Date.parse(md!.mtime)).toBe(Math.floor(fs.statSync(path.join(root, 'notes', 'retry.md')).mtimeMs));
    expect(gbk!.encoding?.toLowerCase()).toMatch(/gb/);
    expect(gbk!.sha256).toBe(fileHash(path.join(root, 'gbk.txt')));
    await sift.close();
    open.length = 0;

    // A chunk that lost its vector (a model change half done) shows as pending.
    const kbFile = new Database(path.join(data, 'kbs', `${kb}.sqlite`));
    kbFile.prepare(`UPDATE chunks SET embedded = 0 WHERE page_id = (SELECT id FROM pages WHERE path = ?)`).run('wiki/notes/retry.md');
    kbFile.close();
    const again = openCore(data, { embedding });
    open.push(again);
    const pending = (await call(again, 'pages.manifest', { kb })).find((r) => r.relPath === 'notes/retry.md');
    expect(pending).toMatchObject({ vectors: 'pending', embeddedChunks: 0, chunks: 1 });
  });

  it('says none for a keyword-only knowledge base, and the CLI prints it as a table or JSON', async () => {
    const root = tempDir();
    writeFiles(root, { 'a.md': '# Alpha\n\nFirst note.\n' });
    const data = tempDir();
    const sift = openCore(data);
    open.push(sift);
    const kb = await makeKb(sift, 'Plain', [root]);
    await sift.ingest(kb);
    expect(await call(sift, 'pages.manifest', { kb })).toMatchObject([{ relPath: 'a.md', vectors: 'none', chunks: 1 }]);
    await sift.close();
    open.length = 0;

    const table = await runCli(['--data-dir', data, 'manifest', 'Plain'], { env: { SIFT_EMBEDDING: 'none' } });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/SOURCE\s+PAGE\s+STATUS\s+PARSER/);
    expect(table.stdout).toContain(`${path.join(root, 'a.md')}`);
    expect(table.stdout).toMatch(/wiki\/a\.md\s+indexed\s+markdown/);
    const json = await runCli(['--data-dir', data, 'manifest', 'Plain', '--json'], { env: { SIFT_EMBEDDING: 'none' } });
    expect(JSON.parse(json.stdout)).toMatchObject([{ relPath: 'a.md', sha256: fileHash(path.join(root, 'a.md')) }]);
  });

  it('gives each page its version status and label; pages that name no version have none', async () => {
    const root = tempDir();
    writeFiles(root, VERSION_DOCS);
    const data = tempDir();
    const sift = openCore(data);
    open.push(sift);
    const kb = await makeKb(sift, 'Policies', [root]);
    await sift.ingest(kb);
    const rows = await call(sift, 'pages.manifest', { kb });
    expect(rows.map((r) => [r.relPath, r.version, r.versionLabel])).toEqual([
      ['retry.md', null, null],
      ['travel-policy-v1.md', 'expired', 'v1'],
      ['travel-policy-v2.md', 'current', 'v2'],
      ['差旅报销政策（2023版）.md', 'superseded', '(2023版)'],
      ['差旅报销政策（2024版）.md', 'current', '(2024版)'],
    ]);
    await sift.close();
    open.length = 0;
    const table = await runCli(['--data-dir', data, 'manifest', 'Policies'], { env: { SIFT_EMBEDDING: 'none' } });
    expect(table.stdout).toMatch(/VECTORS\s+VERSION/);
    expect(table.stdout).toMatch(/travel-policy-v1\.md .*none\s+expired v1\n/);
  });
});
