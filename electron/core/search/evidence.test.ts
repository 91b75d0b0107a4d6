/**
 * evidence.get: the window around a passage, found again from its evidence id, with a hash any
 * client can recompute — and `not_found` once the page has changed or is gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Evidence, Passage, SearchResult } from '../../../shared/models';
import { sha256 } from './passages';
import { makeKb, search, startCore, valueOf, type TestCore } from './testing/test-kb';

const PAGE = `# Operations notes

Intro paragraph about the cluster and its many moving parts, written so the passage does not start at zero.

## Resets

Clients see E_CONN_RESET when the api-gateway drops idle connections after sixty seconds.

## Afterword

Some closing words that follow the passage.
`;

let core: TestCore;
let kb: string;
let folder: string;
beforeAll(async () => {
  core = await startCore('none');
  const made = await makeKb(core, 'evidence', { notes: { 'ops.md': PAGE, '中文.md': '# 超时\n\n连接超时后重试三次。😀 表情也算字符。\n' } });
  kb = made.id;
  folder = made.folders.notes!;
});
afterAll(async () => core?.close());

async function passageFor(query: string): Promise<Passage> {
  const result = valueOf<SearchResult>(await search(core, { kb, query, mode: 'keyword' }));
  expect(result.passages.length).toBeGreaterThan(0);
  return result.passages[0]!;
}

async function evidence(evidenceId: string, window?: number) {
  return core.sift.invoke('evidence.get', window === undefined ? { kb, evidenceId } : { kb, evidenceId, window });
}

describe('evidence.get', () => {
  it.each([
    { query: 'E_CONN_RESET', window: 0 },
    { query: 'E_CONN_RESET', window: 10 },
    { query: 'E_CONN_RESET', window: undefined },
    { query: 'E_CONN_RESET', window: 5000 },
    { query: '超时', window: 3 },
  ])('returns a window whose passage hashes to contentHash ($query, window $window)', async ({ query, window }) => {
    const p = await passageFor(query);
    const ev = valueOf<Evidence>(await evidence(p.evidenceId, window));
    const page = valueOf<{ text: string }>(await core.sift.invoke('pages.get', { kb, path: p.pagePath })).text;
    const w = window ?? 400;
    expect(ev).toMatchObject({ evidenceId: p.evidenceId, pagePath: p.pagePath, title: p.title, start: p.start, end: p.end, contentHash: p.contentHash });
    expect(ev.windowStart).toBe(Math.max(0, p.start - w));
    expect(ev.text).toBe(page.slice(ev.windowStart, Math.min(page.length, p.end + w)));
    const span = ev.text.slice(ev.start - ev.windowStart, ev.end - ev.windowStart);
    expect(span).toBe(p.text);
    expect(sha256(span)).toBe(ev.contentHash);
    expect(ev.provenance).toEqual(p.provenance);
  });

  it('starts the window mid-page when the passage does', async () => {
    const p = await passageFor('E_CONN_RESET');
    expect(p.start).toBeGreaterThan(20);
    const ev = valueOf<Evidence>(await evidence(p.evidenceId, 20));
    expect(ev.windowStart).toBe(p.start - 20);
    expect(ev.provenance.headingPath).toEqual(['Operations notes', 'Resets']);
  });

  it('refuses ids Sift did not make, and windows out of range', async () => {
    const p = await passageFor('E_CONN_RESET');
    for (const id of ['nonsense', Buffer.from('1:2:zz:wiki/ops.md').toString('base64url'), Buffer.from('1:2:0123456789abcdef:/etc/passwd').toString('base64url')]) {
      expect(await evidence(id), id).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    }
    expect(await evidence(p.evidenceId, -1)).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(await evidence(p.evidenceId, 5001)).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('says not_found for evidence of a page that changed, or is gone', async () => {
    const p = await passageFor('E_CONN_RESET');
    const file = path.join(folder, 'ops.md');
    // A word of the same length: every offset stays valid, only the hash can tell.
    fs.writeFileSync(file, PAGE.replace('sixty seconds', 'fifty seconds'));
    await core.sift.ingest(kb);
    expect(await evidence(p.evidenceId)).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringContaining('has changed since') } });
    const fresh = await passageFor('E_CONN_RESET');
    expect(fresh.evidenceId).not.toBe(p.evidenceId);
    expect(valueOf<Evidence>(await evidence(fresh.evidenceId)).contentHash).toBe(fresh.contentHash);

    fs.rmSync(file);
    await core.sift.ingest(kb);
    expect(await evidence(fresh.evidenceId)).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringContaining('no longer exists') } });
  });
});
