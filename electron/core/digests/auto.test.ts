/**
 * Digests in a long-running core (`autoIndex`, as the app and `sift serve` run): every finished indexing run
 * brings the digests of a knowledge base that has them on up to date, and the digests' own chunks are then
 * embedded by the indexing run their writing starts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DigestStatus, IngestStatus, PageDetail } from '../../../shared/models';
import { writeTestModel } from '../embed/testing/test-model';
import { createSift, type Sift } from '../sift';
import { startMockOllama, type MockOllama } from '../testing/ollama-mock';
import { tempDir } from '../testing/temp';

let sift: Sift | null = null;
let ollama: MockOllama | null = null;
afterEach(async () => {
  await sift?.close();
  await ollama?.close();
  sift = ollama = null;
});

async function call<T>(op: string, args: object): Promise<T> {
  const r = await sift!.invoke(op, args);
  if (!r.ok) throw new Error(`${op}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

/** Poll `check` until it holds (or fail after 30 s). */
async function until(check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('digests with autoIndex', () => {
  it('follow each indexing run, and their chunks get vectors', async () => {
    const modelDir = tempDir();
    await writeTestModel(modelDir);
    const docs = tempDir();
    fs.writeFileSync(path.join(docs, 'a.md'), '# Alpha\n\nThe gateway retries a failed call three times.\n');
    fs.writeFileSync(path.join(docs, 'b.md'), '# Beta\n\nTomato soup simmers for twenty minutes.\n');
    ollama = await startMockOllama();
    ollama.onChat(() => ({ chunks: [{ content: '- A point of the page [1].' }] }));
    sift = createSift({
      dataDir: tempDir(),
      embedding: {
        provider: 'transformers', modelId: 'sift-test/tiny-embedder', localModelDir: modelDir, allowDownload: false,
      },
      chat: { host: ollama.url, connectTimeoutMs: 2000, idleTimeoutMs: 2000 },
      autoIndex: true,
    });
    const kb = (await call<{ id: string }>('kb.create', { name: 'Auto' })).id;
    await call('digests.setEnabled', { kb, enabled: true });
    await call('folder.add', { kb, path: docs });

    const chats = () => ollama!.requests.filter((r) => r.path === '/api/chat').length;
    const settled = async () => {
      const digests = await call<DigestStatus>('digests.status', { kb });
      const ingest = await call<IngestStatus>('ingest.status', { kb });
      return digests.state === 'done' && ingest.state === 'done' && ingest.chunksEmbedded === ingest.chunks;
    };
    await until(async () => (await call<DigestStatus>('digests.status', { kb })).stored === 3 && (await settled()));
    expect(chats()).toBe(3); // two pages and the overview, each once
    const digest = await call<PageDetail>('pages.get', { kb, path: 'wiki/_digest/a.md' });
    expect(digest.chunkSpans.length).toBeGreaterThan(0);
    expect(digest.chunkSpans.every((c) => c.embedded)).toBe(true);

    fs.writeFileSync(path.join(docs, 'b.md'), '# Beta\n\nTomato soup simmers for thirty minutes.\n');
    await call('ingest.start', { kb });
    await until(async () => chats() === 5 && (await settled()));
    await new Promise((r) => setTimeout(r, 300));
    expect(chats()).toBe(5); // b.md's digest and the overview; nothing more
  });

  it('Cancel holds: the indexing run of the digests written before it does not start them again (issue #27 item 9)', async () => {
    const docs = tempDir();
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) {
      fs.writeFileSync(path.join(docs, `${name}.md`), `# Page ${name}\n\nThe ${name} page says something about retries.\n`);
    }
    ollama = await startMockOllama();
    ollama.onChat(() => ({ chunks: [{ content: '- A point of the page [1].' }], delayMs: 150 }));
    sift = createSift({
      dataDir: tempDir(),
      embedding: { provider: 'none' },
      chat: { host: ollama.url, connectTimeoutMs: 2000, idleTimeoutMs: 2000 },
      autoIndex: true,
    });
    const kb = (await call<{ id: string }>('kb.create', { name: 'Cancel' })).id;
    await call('digests.setEnabled', { kb, enabled: true });
    const ended: IngestStatus[] = [];
    sift.onEvent((event, payload) => {
      const s = payload as IngestStatus;
      if (event === 'ingest.progress' && s.state === 'done') ended.push(s);
    });
    await call('folder.add', { kb, path: docs });
    await until(async () => (await call<DigestStatus>('digests.status', { kb })).generated >= 2);
    expect(await call('digests.cancel', { kb })).toEqual({ cancelled: true });
    const cancelledAt = new Date().toISOString();
    await until(async () => (await call<DigestStatus>('digests.status', { kb })).state === 'cancelled');
    // The digests written so far are indexed (that is what the run after a cancel is for) …
    await until(async () => ended.some((s) => s.startedAt! >= cancelledAt));
    const chatsThen = ollama.requests.filter((r) => r.path === '/api/chat').length;
    await new Promise((r) => setTimeout(r, 800));
    // … and that run's end did not start the digests again.
    const after = await call<DigestStatus>('digests.status', { kb });
    expect(after.state).toBe('cancelled');
    expect(after.pagesDone).toBeLessThan(6);
    expect(ollama.requests.filter((r) => r.path === '/api/chat').length).toBe(chatsThen);
    const digestPages = (await call<{ path: string }[]>('pages.list', { kb })).filter((p) => p.path.startsWith('wiki/_digest/'));
    expect(digestPages.length).toBe(after.stored);
    expect(after.stored).toBeGreaterThanOrEqual(2);

    // Something new indexed brings them up to date again.
    fs.writeFileSync(path.join(docs, 'g.md'), '# Page g\n\nA new page about timeouts.\n');
    await call('ingest.start', { kb });
    await until(async () => (await call<DigestStatus>('digests.status', { kb })).state === 'done');
    expect((await call<DigestStatus>('digests.status', { kb })).stored).toBe(8); // seven pages and the overview
  });
});
