/**
 * No model load a search cannot use (issue #24 item 4): a knowledge base without vectors, or with
 * vectors of another model than the one configured, searches by keywords at once, saying why, and
 * never asks a model host for anything; one whose vectors the model made waits for it and runs hybrid.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../../shared/models';
import { startDeadHub, type DeadHub } from '../embed/testing/dead-hub';
import { createSift, type Sift } from '../sift';
import { KbFiles } from '../store/kb-files';
import { tempDir } from '../testing/temp';
import { valueOf } from './testing/test-kb';

let sifts: Sift[] = [];
let hub: DeadHub | null = null;
afterEach(async () => {
  for (const s of sifts) await s.close();
  sifts = [];
  await hub?.close();
  hub = null;
});

function core(dataDir: string, embedding: Parameters<typeof createSift>[0]['embedding']): Sift {
  const sift = createSift({ dataDir, embedding });
  sifts.push(sift);
  return sift;
}

async function keywordOnlyKb(dataDir: string): Promise<string> {
  const sift = core(dataDir, { provider: 'none' });
  const kb = valueOf<{ id: string }>(await sift.invoke('kb.create', { name: 'notes' })).id;
  const folder = tempDir();
  fs.writeFileSync(path.join(folder, 'pool.md'), '# Connection pool\n\nThe pool holds ten connections; E_POOL_FULL when all are busy.');
  valueOf(await sift.invoke('folder.add', { kb, path: folder }));
  expect((await sift.ingest(kb)).state).toBe('done');
  await sift.close();
  sifts = [];
  return kb;
}

describe('the search mode, decided before any model is loaded', () => {
  it('a knowledge base without vectors searches by keywords at once and asks the model host nothing', async () => {
    const dataDir = tempDir();
    const kb = await keywordOnlyKb(dataDir);
    hub = await startDeadHub();
    const sift = core(dataDir, { provider: 'transformers', modelId: 'Xenova/all-MiniLM-L6-v2', remoteHost: hub.url, allowDownload: true });
    const t0 = performance.now();
    const result = valueOf<SearchResult>(await sift.invoke('search.query', { kb, query: 'E_POOL_FULL', mode: 'hybrid' }));
    expect(result.mode).toBe('keyword');
    expect(result.keywordOnlyReason).toBe('this knowledge base has no vectors yet');
    expect(result.passages[0]?.pagePath).toBe('wiki/pool.md');
    expect(hub.requests).toEqual([]);
    expect(performance.now() - t0).toBeLessThan(1500); // a load attempt against the hub takes seconds
  });

  it('vectors of another model search by keywords, naming both models, without reaching the configured one', async () => {
    const dataDir = tempDir();
    const kb = await keywordOnlyKb(dataDir);
    // Record another model for the knowledge base, as an earlier embedding run would have.
    const files = new KbFiles(dataDir);
    files.get(kb).prepare(`INSERT INTO kb_meta (key, value) VALUES ('embedding_model', 'transformers:Xenova/bge-m3:q8'), ('embedding_dim', '1024')`).run();
    files.closeAll();
    const sift = core(dataDir, { provider: 'ollama', model: 'nomic-embed-text', host: 'http://127.0.0.1:9' });
    const result = valueOf<SearchResult>(await sift.invoke('search.query', { kb, query: 'connection pool', mode: 'hybrid' }));
    expect(result.mode).toBe('keyword');
    expect(result.keywordOnlyReason).toBe('its vectors were made with transformers:Xenova/bge-m3:q8, not the current model ollama:nomic-embed-text');
    const vector = await sift.invoke('search.query', { kb, query: 'connection pool', mode: 'vector' });
    expect(vector).toMatchObject({ ok: false, error: { code: 'model_unavailable' } });
  });
});
