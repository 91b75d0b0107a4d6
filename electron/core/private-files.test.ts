/**
 * Owner-only data on POSIX, with real files: a new data folder is made 0700 with its databases
 * (and SQLite's -wal/-shm files) and the retrieval log 0600; a folder left wide open by an older
 * version is tightened when Sift opens it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendRetrievalLog, type RetrievalLogEntry } from './chat/retrieval-log';
import { dataPaths } from './base/paths';
import { createSift, type Sift } from './sift';
import { tempDir } from './testing/temp';

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

let umask = 0;
beforeEach(() => {
  umask = process.umask(0o022); // the usual default, which made files 0644 before
});
afterEach(() => {
  process.umask(umask);
});

const entry: RetrievalLogEntry = {
  time: '2026-12-01T05:00:00.000Z', conversationId: 'c1', kbId: null, messagePreview: '缓存怎么清理',
  triggered: false, trigger: 'greeting', explicitRefs: [], results: [], contextChars: 0, error: null,
  timings: { totalMs: 1, searchMs: null, firstTokenMs: null },
};

/**
 * A data folder with a knowledge base and a logged turn, and the core still open (SQLite removes the
 * -wal and -shm files when the last connection closes); returns every path that should be private.
 */
async function makeData(dataDir: string): Promise<{ sift: Sift; files: string[] }> {
  const sift = createSift({ dataDir, embedding: { provider: 'none' } });
  const created = await sift.invoke('kb.create', { name: 'Notes' });
  if (!created.ok) throw new Error(created.error.message);
  const kbDb = dataPaths(dataDir).kbDb((created.value as { id: string }).id);
  appendRetrievalLog(dataPaths(dataDir).logs, entry);
  const retrieval = path.join(dataDir, 'logs', 'retrieval');
  const files = [
    dataDir, path.join(dataDir, 'kbs'), path.join(dataDir, 'logs'), retrieval, path.join(retrieval, '2026-12-01.jsonl'),
    ...[dataPaths(dataDir).appDb, kbDb].flatMap((db) => [db, `${db}-wal`, `${db}-shm`]),
  ];
  for (const file of files) expect(fs.existsSync(file), file).toBe(true);
  return { sift, files };
}

const expected = (file: string) => (fs.statSync(file).isDirectory() ? 0o700 : 0o600);

function expectPrivate(files: string[]): void {
  for (const file of files) expect(modeOf(file).toString(8), file).toBe(expected(file).toString(8));
}

describe.skipIf(process.platform === 'win32')('private data folder', () => {
  it('a new data folder is 0700; databases, their -wal/-shm files and the retrieval log are 0600', async () => {
    const { sift, files } = await makeData(path.join(tempDir(), 'Sift'));
    expectPrivate(files);
    await sift.close();
  });

  it('tightens a folder and files an older version left readable by others when it opens them', async () => {
    const dataDir = path.join(tempDir(), 'Sift');
    const { sift: app, files } = await makeData(dataDir);
    for (const file of files) fs.chmodSync(file, fs.statSync(file).isDirectory() ? 0o755 : 0o644);

    // A second core on the same folder (the CLI while the app runs) opens every file again.
    const cli = createSift({ dataDir, embedding: { provider: 'none' } });
    const searched = await cli.invoke('search.query', { kb: 'Notes', query: '缓存', topK: 5, mode: 'keyword' });
    expect(searched.ok).toBe(true);
    appendRetrievalLog(dataPaths(dataDir).logs, entry);
    expectPrivate(files);
    await cli.close();
    await app.close();
  });
});
