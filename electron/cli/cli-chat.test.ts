import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../core/testing/temp';
import { keywordOnlyWithMockOllama, run } from './testing/run';

const mock = keywordOnlyWithMockOllama();

describe('sift ask, ingest, pages, search', () => {
  it('indexes a folder, searches it, and answers with references', async () => {
    const data = tempDir();
    const docs = tempDir();
    fs.writeFileSync(path.join(docs, 'retry.md'), '# Retry policy\n\nThe client retries three times after E_CONN_RESET.\n');
    fs.writeFileSync(path.join(docs, 'broken.pdf'), '%PDF-1.4 not really');
    await run('--data-dir', data, 'kb', 'create', 'Ops');
    await run('--data-dir', data, 'folder', 'add', 'Ops', docs);
    const ingest = await run('--data-dir', data, 'ingest', 'Ops');
    expect(ingest.code).toBe(0);
    expect(ingest.out).toMatch(/^files {5}2 \(1 failed, 0 skipped\)\npages {5}1\nchunks {4}1\n/);
    expect(ingest.out).toMatch(/failed {2}broken\.pdf: the PDF could not be read/);
    expect(ingest.out).toMatch(/keyword-only: no embedding model is configured/);

    expect((await run('--data-dir', data, 'pages', 'Ops')).out).toMatch(/wiki\/retry\.md\s+Retry policy\s+markdown\s+1/);
    const page = JSON.parse((await run('--data-dir', data, 'page', 'Ops', 'wiki/retry.md', '--json')).out);
    expect(page.text.slice(page.chunkSpans[0].start, page.chunkSpans[0].end)).toContain('E_CONN_RESET');

    const search = JSON.parse((await run('--data-dir', data, 'search', 'Ops', 'E_CONN_RESET', '--json')).out);
    expect(search).toMatchObject({ mode: 'keyword', passages: [{ pagePath: 'wiki/retry.md', keywordRank: 1, vectorRank: null }] });
    expect((await run('--data-dir', data, 'search', 'Ops', 'x', '--top-k', '99')).code).toBe(2);

    mock.ollama.onChat({ chunks: [{ content: 'Three times [1].' }] });
    const ask = await run('--data-dir', data, 'ask', 'Ops', 'How often does it retry?', '--ollama-host', mock.ollama.url, '--json');
    expect(ask.code).toBe(0);
    const turn = JSON.parse(ask.out);
    expect(turn).toMatchObject({ answer: 'Three times [1].', decision: 'answered', status: 'complete', references: [{ number: 1, pagePath: 'wiki/retry.md' }] });
    expect(turn.events.map((e: { event: string }) => e.event)).toEqual(['turn.started', 'search.started', 'search.done', 'answer.token', 'answer.done']);

    const down = await run('--data-dir', data, 'ask', 'Ops', 'How often does it retry?', '--ollama-host', 'http://127.0.0.1:9');
    expect(down.code).toBe(0);
    expect(down.out).toMatch(/^No language model is running \(Ollama is not reachable at `http:\/\/127\.0\.0\.1:9`\)/);
    expect(down.out).toMatch(/retries three times after E_CONN_RESET\. \[1\]\n\nReferences:\n\[1\] Retry policy — wiki\/retry\.md · Retry policy$/);

    // A question nothing matches: the turn's decision is said in words, as the app says it.
    const nothing = await run('--data-dir', data, 'ask', 'Ops', '超时', '--ollama-host', 'http://127.0.0.1:9');
    expect(nothing.out).toMatch(/知识库中没有找到与这个问题相关的内容。\n\(no answer: nothing in this knowledge base answers the question\)$/);

    const conversations = JSON.parse((await run('--data-dir', data, 'conversations', 'Ops', '--json')).out);
    expect(conversations).toHaveLength(3);
    const first = conversations.find((c: { id: string }) => c.id === turn.conversationId);
    expect(first.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
    const md = await run('--data-dir', data, 'export', first.id);
    expect(md.out).toMatch(/## How often does it retry\?\n\nThree times \[\^1\]\.\n\n\[\^1\]: “Retry policy The client retries three times after E_CONN_RESET\.”\n {4}Retry policy — `wiki\/retry\.md`, Retry policy$/);
    const outDir = tempDir();
    const saved = await run('--data-dir', data, 'export', first.id, '--message', first.messages[1].id, '--format', 'html', '--out', path.join(outDir, 'answer.html'));
    expect(saved.out).toBe(`wrote ${path.join(fs.realpathSync(outDir), 'answer.html')}`);
    expect(fs.readFileSync(path.join(outDir, 'answer.html'), 'utf8')).toContain('data-footnote-ref');
    expect((await run('--data-dir', data, 'export', first.id, '--format', 'pdf')).err).toBe('sift: a PDF needs --out FILE');
    expect((await run('--data-dir', data, 'export', 'nope')).err).toBe('sift: no conversation with id nope');
  });
});
