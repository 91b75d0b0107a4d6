/**
 * Helpers for the search tests: a real core on a temporary data folder (with the generated test
 * embedding model, or none), knowledge bases made from files written on disk and indexed by the
 * real pipeline, and a second connection to a knowledge base's file for breaking it on purpose.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Result } from '../../../../shared/errors';
import type { SearchResult } from '../../../../shared/models';
import { writeTestModel } from '../../embed/testing/test-model';
import { dataPaths } from '../../base/paths';
import { createSift, type Sift, type SiftConfig } from '../../sift';
import type { SearchOptions } from '../search';

/** A running core and the temporary folder holding its data, its model and its knowledge bases' files. */
export interface TestCore {
  sift: Sift;
  dataDir: string;
  root: string;
  /** Close the core and delete the temporary folder. */
  close(): Promise<void>;
}

/** What a test passes to `search.query` (kb is required, the rest as the contract allows). */
export type SearchArgs = { kb: string; query: string } & Record<string, unknown>;

/**
 * Start a core: `model: 'test'` loads the generated tiny model (real transformers.js, offline),
 * `'none'` indexes and searches keyword-only, `'missing'` names a model that is not on disk.
 * `search` tunes the search pipeline (default: the core's defaults); `chat` points the chat model (search
 * enhancements) at a test server.
 */
export async function startCore(model: 'test' | 'none' | 'missing', search: SearchOptions = {}, chat?: SiftConfig['chat']): Promise<TestCore> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sift-search-')));
  const dataDir = path.join(root, 'data');
  const modelDir = path.join(root, 'model');
  if (model === 'test') await writeTestModel(modelDir);
  const sift = createSift({
    dataDir,
    search,
    chat,
    embedding:
      model === 'none'
        ? { provider: 'none' }
        : { provider: 'transformers', modelId: model === 'test' ? 'sift-test/tiny-embedder' : 'sift-test/missing', localModelDir: modelDir, allowDownload: false },
  });
  return {
    sift, dataDir, root,
    async close() {
      await sift.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Write `files` (relative path → text) into `dir`, creating folders. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
}

/** The value of an ok result; fails the test with the error otherwise. */
export function valueOf<T>(result: Result<unknown>): T {
  if (!result.ok) expect.fail(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value as T;
}

/** Create knowledge base `name` with one folder per entry of `folders` (folder name → files) and index it; returns its id and folder paths. */
export async function makeKb(core: TestCore, name: string, folders: Record<string, Record<string, string>>): Promise<{ id: string; folders: Record<string, string> }> {
  const kb = valueOf<{ id: string }>(await core.sift.invoke('kb.create', { name }));
  const paths: Record<string, string> = {};
  for (const [folderName, files] of Object.entries(folders)) {
    const dir = path.join(core.root, `${name}-${folderName}`, folderName);
    fs.mkdirSync(dir, { recursive: true });
    writeFiles(dir, files);
    valueOf(await core.sift.invoke('folder.add', { kb: kb.id, path: dir }));
    paths[folderName] = dir;
  }
  const status = await core.sift.ingest(kb.id);
  expect(status.state, status.error ?? '').toBe('done');
  expect(status.problems).toEqual([]);
  return { id: kb.id, folders: paths };
}

/** Run `search.query` through the validated entry point. */
export function search(core: TestCore, args: SearchArgs): Promise<Result<SearchResult>> {
  return core.sift.invoke('search.query', args) as Promise<Result<SearchResult>>;
}

/** A second connection to a knowledge base's SQLite file, for inspecting or breaking it. Close it after use. */
export function openKbFile(core: TestCore, kbId: string): Database.Database {
  return new Database(dataPaths(core.dataDir).kbDb(kbId));
}

/**
 * For the tests of one file: a core without an embedding model and a knowledge base of `files` (one
 * folder, `notes`), made before the tests and closed after them; `keyword(query)` searches it in
 * keyword mode. The holder's fields are set once the tests run.
 */
export function keywordKbForTests(
  name: string,
  files: Record<string, string>,
): { core: TestCore; kb: string; keyword: (query: string) => Promise<SearchResult> } {
  const holder = {
    keyword: async (query: string) => valueOf<SearchResult>(await search(holder.core, { kb: holder.kb, query, mode: 'keyword' })),
  } as { core: TestCore; kb: string; keyword: (query: string) => Promise<SearchResult> };
  beforeAll(async () => {
    holder.core = await startCore('none');
    holder.kb = (await makeKb(holder.core, name, { notes: files })).id;
  }, 60_000);
  afterAll(async () => holder.core?.close());
  return holder;
}
