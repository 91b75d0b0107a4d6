import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../core/testing/temp';
import { keywordOnlyWithMockOllama, run } from './testing/run';

const mock = keywordOnlyWithMockOllama();

describe('sift digest', () => {
  it('says digests are off, turns them on with --on, writes them, and says when no model server runs', async () => {
    const data = tempDir();
    const docs = tempDir();
    const text = '# Retry policy\n\nThe client retries three times after E_CONN_RESET.\n';
    fs.writeFileSync(path.join(docs, 'retry.md'), text);
    await run('--data-dir', data, 'kb', 'create', 'Ops');
    await run('--data-dir', data, 'folder', 'add', 'Ops', docs);
    await run('--data-dir', data, 'ingest', 'Ops');

    const off = await run('--data-dir', data, 'digest', 'Ops', '--ollama-host', mock.ollama.url);
    expect(off.code).toBe(1);
    expect(off.out).toBe('digests   off\nPage digests are off for this knowledge base; turn them on in its settings.');

    mock.ollama.onChat({ chunks: [{ content: '- The client retries three times [1].' }] });
    mock.ollama.onChat({ chunks: [{ content: '- Retry policy of the client [1].' }] });
    const on = await run('--data-dir', data, 'digest', 'Ops', '--on', '--ollama-host', mock.ollama.url);
    expect(on.code).toBe(0);
    // Progress goes to stderr, a line per page (issue #27 item 9); stdout keeps the summary.
    expect(on.err.split('\n')).toEqual(['digesting 1/1 wiki/retry.md', 'digesting overview wiki/_digest/overview.md']);
    expect(on.out.split('\n')).toEqual([
      'digests   done with qwen3:4b', 'pages     1/1 digested (0 unchanged)', 'written   2, removed 0, stored 2',
    ]);
    const pages = await run('--data-dir', data, 'pages', 'Ops', '--json');
    const listed = JSON.parse(pages.out) as { path: string; generated: boolean }[];
    expect(listed.map((p) => [p.path, p.generated])).toEqual([
      ['wiki/_digest/overview.md', true], ['wiki/_digest/retry.md', true], ['wiki/retry.md', false],
    ]);

    const down = await run('--data-dir', data, 'digest', 'Ops', '--ollama-host', 'http://127.0.0.1:9', '--json');
    expect(down.code).toBe(1);
    expect(JSON.parse(down.out)).toMatchObject({ state: 'skipped', code: 'llm_unavailable', stored: 2 });

    const off2 = await run('--data-dir', data, 'digest', 'Ops', '--off');
    expect(off2).toMatchObject({ code: 0, out: 'page digests are off; 2 removed' });
    expect(JSON.parse((await run('--data-dir', data, 'pages', 'Ops', '--json')).out)).toHaveLength(1);
  });
});
