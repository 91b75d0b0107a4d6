/** `sift search` and `sift eval` with the enhancement flags, against the Ollama test server (or none). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../core/testing/temp';
import { keywordOnlyWithMockOllama, run } from './testing/run';

const BEIR_MINI = path.resolve(__dirname, '../core/eval/testdata/beir-mini');
const mock = keywordOnlyWithMockOllama();

describe('sift search and eval with enhancements', () => {
  it('search --multi-query --rerank llm shows the probes, the rerank and each passage\'s figures', async () => {
    const data = tempDir();
    const docs = tempDir();
    fs.writeFileSync(path.join(docs, 'windows.md'), '# Windows setup\n\nRun the MSI installer.\n');
    fs.writeFileSync(path.join(docs, 'linux.md'), '# Linux setup\n\nRun the AppImage.\n');
    await run('--data-dir', data, 'kb', 'create', 'Ops');
    await run('--data-dir', data, 'folder', 'add', 'Ops', docs);
    await run('--data-dir', data, 'ingest', 'Ops');
    mock.ollama.onChat({ chunks: [{ content: 'AppImage' }] });
    mock.ollama.onChat({ chunks: [{ content: '2, 1' }] });
    const out = await run('--data-dir', data, 'search', 'Ops', 'MSI installer', '--multi-query', '2', '--rerank', 'llm', '--ollama-host', mock.ollama.url);
    expect(out.code).toBe(0);
    expect(out.out).toMatch(/^q1 query: MSI installer\nq2 multi-query: AppImage\nrerank llm: 2 candidates, \d+ ms\n\[1\] Linux setup/);
    expect(out.out).toMatch(/probes q2 keyword #1; rerank #1/);
    expect((await run('--data-dir', data, 'search', 'Ops', 'x', '--rerank', 'bm25')).err).toMatch(/--rerank must be llm, cross-encoder or none, got bm25/);
  });

  it('eval --enhance says which enhancements ran and why the rest did not', async () => {
    const out = await run('eval', BEIR_MINI, '--mode', 'keyword', '--enhance', 'rewrite,multi-query=2', '--ollama-host', 'http://127.0.0.1:9');
    expect(out.code).toBe(0);
    expect(out.out).toContain('enhance    rewrite=true, multi-query=2');
    expect(out.out).toMatch(/warning: search enhancement: multi-query: off, no model \(Ollama is not reachable at http:\/\/127\.0\.0\.1:9\)/);
    expect((await run('eval', BEIR_MINI, '--enhance', 'turbo')).err).toMatch(/unknown enhancement "turbo"/);
  });

  it('eval --enhance rerank=llm reports the reranks that kept the fused order, as search does (issue #27 item 10)', async () => {
    // The test server answers "(mock reply)": no ranking, so every rerank keeps the fused order.
    const out = await run('eval', BEIR_MINI, '--mode', 'keyword', '--enhance', 'rerank=llm', '--ollama-host', mock.ollama.url);
    expect(out.code).toBe(0);
    expect(out.out).toMatch(/^warning: rerank llm: fused order kept in (\d) of \1 searches: the model's ranking was not valid/m);
    const json = JSON.parse((await run('eval', BEIR_MINI, '--mode', 'keyword', '--enhance', 'rerank=llm', '--ollama-host', mock.ollama.url, '--json')).out);
    expect(json.warnings).toEqual([expect.stringMatching(/^rerank llm: fused order kept in \d of \d searches/)]);
  });
});
