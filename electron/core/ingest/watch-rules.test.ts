/**
 * A file that appears while Sift watches is held to the same rule as the full scan (issue #27 item 1): a
 * `.gitignore`d file, one under the folder's exclude globs and one under a skipped folder name (`dist`,
 * `build`) never reach the index, through the real watcher on a real folder. A targeted update naming an
 * excluded file (another way in) is refused by the same rule and removes a page it left behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestStatus } from '../../../shared/models';
import type { Sift } from '../sift';
import { tempDir } from '../testing/temp';
import { call, makeKb, openCore, waitFor, writeFiles } from './testing/fixtures';
import { folderRules, isExcludedPath } from './rules';

const open: Sift[] = [];
afterEach(async () => {
  for (const sift of open.splice(0)) await sift.close();
});

async function keywordHits(sift: Sift, kb: string, query: string): Promise<string[]> {
  return (await call(sift, 'search.query', { kb, query, mode: 'keyword' })).passages.map((p) => p.pagePath);
}

/** Index `root` with a non-watching core (after `setUp`), then reopen the data folder with a watching one. */
async function watchingCore(root: string, setUp?: (sift: Sift, kb: string) => Promise<void>): Promise<{ sift: Sift; kb: string }> {
  const dataDir = tempDir();
  const first = openCore(dataDir);
  const kb = await makeKb(first, 'Watched', [root]);
  await setUp?.(first, kb);
  await first.ingest(kb);
  await first.close();
  const sift = openCore(dataDir, { watch: true });
  open.push(sift);
  await untilWatching(sift, kb, root);
  return { sift, kb };
}

/** A removed sub-folder asks for a full run; seeing one proves the watcher is live (see watch.test.ts). */
async function untilWatching(sift: Sift, kb: string, folder: string): Promise<void> {
  let runs = 0;
  const stop = sift.onEvent((name, payload) => {
    if (name === 'ingest.progress' && (payload as IngestStatus).kbId === kb && (payload as IngestStatus).state === 'done') runs++;
  });
  try {
    for (let n = 0; runs === 0; n++) {
      if (n === 40) throw new Error(`the watcher of ${folder} never reported a change`);
      const probe = path.join(folder, `watch-probe-${n}`);
      fs.mkdirSync(probe);
      await new Promise((resolve) => setTimeout(resolve, 100));
      fs.rmdirSync(probe);
      await waitFor(() => runs > 0, 400, 'a run').catch(() => undefined);
    }
  } finally {
    stop();
  }
}

/**
 * Write the excluded files and one included file while watched; once the included one is searchable (the
 * same debounced batch carried the others), none of the excluded ones may be a page or a problem.
 */
async function expectLeftOut(sift: Sift, kb: string, root: string, excluded: Record<string, string>): Promise<void> {
  writeFiles(root, excluded);
  writeFiles(root, { 'fresh.md': '# Fresh\n\nfreshword arrives while watched\n' });
  await waitFor(async () => (await keywordHits(sift, kb, 'freshword')).includes('wiki/fresh.md'), 10_000, 'the included file');
  // A little longer, so a slower write of an excluded file would have been indexed by now too.
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(await keywordHits(sift, kb, 'leakedword')).toEqual([]);
  for (const rel of Object.keys(excluded)) {
    expect((await sift.invoke('pages.get', { kb, path: `wiki/${rel}` })).ok).toBe(false);
  }
  expect((await call(sift, 'ingest.status', { kb })).problems).toEqual([]);
}

describe('a file that appears while watched is held to the folder rules', () => {
  it('leaves out a .gitignored file, in the folder and below it', async () => {
    const root = tempDir();
    writeFiles(root, { '.gitignore': 'secret-*.md\n', 'notes/.gitignore': 'private/\n', 'keep.md': '# Keep\n\nkept\n' });
    const { sift, kb } = await watchingCore(root);
    await expectLeftOut(sift, kb, root, {
      'secret-plan.md': '# Plan\n\nleakedword one\n',
      'notes/private/diary.md': '# Diary\n\nleakedword two\n',
    });
  }, 30_000);

  it("leaves out a file under the folder's exclude globs", async () => {
    const root = tempDir();
    writeFiles(root, { 'keep.md': '# Keep\n\nkept\n' });
    const { sift, kb } = await watchingCore(root, async (first, id) => {
      await call(first, 'folder.update', { kb: id, path: root, excludeGlobs: ['drafts/**', '*.tmp.md'] });
    });
    await expectLeftOut(sift, kb, root, { 'drafts/idea.md': '# Idea\n\nleakedword three\n', 'scratch.tmp.md': '# Tmp\n\nleakedword four\n' });
  }, 30_000);

  it('leaves out a file under a skipped folder name (dist, build, node_modules)', async () => {
    const root = tempDir();
    writeFiles(root, { 'keep.md': '# Keep\n\nkept\n', 'site/dist/.keep': '', 'build/.keep': '' });
    const { sift, kb } = await watchingCore(root);
    await expectLeftOut(sift, kb, root, {
      'site/dist/index.md': '# Built\n\nleakedword five\n',
      'build/out.md': '# Out\n\nleakedword six\n',
      'node_modules/pkg/README.md': '# Pkg\n\nleakedword seven\n',
    });
  }, 30_000);
});

describe('the one rule', () => {
  it('says for a single path what the scan decides for it', () => {
    const root = tempDir();
    writeFiles(root, { '.gitignore': '*.log.md\n!keep.log.md\n', 'a/.gitignore': 'b/\n', 'x.md': '' });
    const rules = folderRules(root, ['drafts/']);
    const excluded = (rel: string) => isExcludedPath(root, rules, rel);
    expect(excluded('x.md')).toBe(false);
    expect(excluded('deep/er/x.md')).toBe(false);
    expect(excluded('run.log.md')).toBe(true);
    expect(excluded('keep.log.md')).toBe(false);
    expect(excluded('a/b/c.md')).toBe(true);
    expect(excluded('b/c.md')).toBe(false);
    expect(excluded('drafts/c.md')).toBe(true);
    expect(excluded('x/dist/c.md')).toBe(true);
    expect(excluded('.hidden/c.md')).toBe(true);
    expect(excluded('.c.md')).toBe(true);
    expect(excluded('clip.gif')).toBe(true);
    expect(excluded('scan.png')).toBe(false);
    expect(excluded('../outside.md')).toBe(true);
  });
});
