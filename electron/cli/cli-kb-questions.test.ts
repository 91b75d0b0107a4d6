/**
 * `sift ask` on whole-folder questions. A folder with no README gets an outline of its pages, each cited
 * (issue #25 item 6). A catalogue question with the true count (issue #25 item 5): 15 pages mention
 * flux-capacitor, 12 are shown and the sentence says both; pages that hold only part of pool_size are not listed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../core/testing/temp';
import { keywordOnlyWithMockOllama, run } from './testing/run';

keywordOnlyWithMockOllama();

describe('sift ask, catalogue question', () => {
  it('says how many pages mention the term and lists only pages that hold it whole', async () => {
    const data = tempDir();
    const docs = tempDir();
    for (let i = 1; i <= 15; i++) fs.writeFileSync(path.join(docs, `run-${i}.md`), `# Run ${i}\n\nThe flux-capacitor of run ${i} held.\n`);
    fs.writeFileSync(path.join(docs, 'pool.md'), '# Pool\n\nSet pool_size to 10.\n');
    fs.writeFileSync(path.join(docs, 'swim.md'), '# Swim\n\nThe pool is deep; its size is fifty metres.\n');
    await run('--data-dir', data, 'kb', 'create', 'Notes');
    await run('--data-dir', data, 'folder', 'add', 'Notes', docs);
    expect((await run('--data-dir', data, 'ingest', 'Notes')).code).toBe(0);

    const flux = await run('--data-dir', data, 'ask', 'Notes', 'which notes mention flux-capacitor?', '--ollama-host', 'http://127.0.0.1:9');
    expect(flux.code).toBe(0);
    expect(flux.out).toMatch(/^15 pages mention “flux-capacitor” \(showing 12, most relevant first/);
    expect(flux.out.match(/^\d+\. /gm)).toHaveLength(12);

    const pool = await run('--data-dir', data, 'ask', 'Notes', 'which notes mention pool_size?', '--ollama-host', 'http://127.0.0.1:9', '--json');
    const turn = JSON.parse(pool.out);
    expect(turn.answer).toMatch(/^1 page mentions “pool\\?_size”/);
    expect(turn.references.map((r: { pagePath: string }) => r.pagePath)).toEqual(['wiki/pool.md']);
  });

  it('answers "what is in here?" on a folder without a README with an outline of its pages', async () => {
    const data = tempDir();
    const docs = tempDir();
    fs.mkdirSync(path.join(docs, 'guides'));
    fs.writeFileSync(path.join(docs, 'guides', 'setup.md'), '# Setup\n\nInstall it.\n\n## Linux\n\nUse apt.\n\n## macOS\n\nUse brew.\n');
    fs.writeFileSync(path.join(docs, 'faq.md'), '# FAQ\n\nQuestions people ask.\n');
    await run('--data-dir', data, 'kb', 'create', 'Notes');
    await run('--data-dir', data, 'folder', 'add', 'Notes', docs);
    expect((await run('--data-dir', data, 'ingest', 'Notes')).code).toBe(0);
    const ask = await run('--data-dir', data, 'ask', 'Notes', "what's in here?", '--ollama-host', 'http://127.0.0.1:9');
    expect(ask.code).toBe(0);
    expect(ask.out).toMatch(/^This knowledge base has 2 pages in 2 folders\./);
    expect(ask.out).toContain('1. **FAQ** (`wiki/faq.md`, 29 B) [1]');
    expect(ask.out).toMatch(/2\. \*\*Setup\*\* \(`wiki\/guides\/setup\.md`, \d+ B\) — Linux · macOS \[2\]/);
    expect(ask.out).toMatch(/References:\n\[1\] FAQ — wiki\/faq\.md · FAQ\n\[2\] Setup — wiki\/guides\/setup\.md/);
  });
});
