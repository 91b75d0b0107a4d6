import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GLOSSARY_ZH } from '../core/glossary/testing/fixtures';
import { tempDir } from '../core/testing/temp';
import { runLines as run } from './testing/run';

describe('sift glossary', () => {
  it('lists the glossary, looks a term up by any of its names, and says when there is none', async () => {
    const data = tempDir();
    const folder = tempDir();
    fs.writeFileSync(path.join(folder, '术语表.md'), GLOSSARY_ZH);
    fs.writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nNothing to define here.\n');
    await run('--data-dir', data, 'kb', 'create', 'Words');
    await run('--data-dir', data, 'folder', 'add', 'Words', folder);
    await run('--data-dir', data, 'kb', 'create', 'Plain');
    expect((await run('--data-dir', data, 'ingest', 'Words')).code).toBe(0);

    const listed = await run('--data-dir', data, 'glossary', 'Words');
    expect(listed.code).toBe(0);
    // Where each entry is: the span of its first line in the page (a Markdown page's text is its source).
    const at = (line: string) => `[${GLOSSARY_ZH.indexOf(line)}, `;
    expect(listed.out.split('\n').filter((l) => !l.startsWith('    ')).map((l) => l.replace(/\d+\)$/, ''))).toEqual([
      `BM25 (Okapi BM25, 词频排序) — wiki/术语表.md  ${at('**BM25**')}`,
      `Chunk (块) — wiki/术语表.md  ${at('Chunk (块)')}`,
      `HyDE — wiki/术语表.md  ${at('**HyDE:**')}`,
      `MMR — wiki/术语表.md  ${at('MMR\n')}`,
      `RRF (倒数排名融合) — wiki/术语表.md  ${at('| RRF')}`,
      `向量检索 — wiki/术语表.md  ${at('| 向量检索')}`,
      `知识库 — wiki/术语表.md  ${at('- **知识库**')}`,
    ]);

    const rrf = await run('--data-dir', data, 'glossary', 'Words', '倒数排名融合');
    const row = '| RRF / 倒数排名融合 | Reciprocal Rank Fusion: 把多个排序列表按 1/(k + rank) 合并，k = 60。 |';
    const rowAt = GLOSSARY_ZH.indexOf(row);
    expect(rrf.out).toBe(`RRF (倒数排名融合) — wiki/术语表.md  [${rowAt}, ${rowAt + row.length})\n    Reciprocal Rank Fusion: 把多个排序列表按 1/(k + rank) 合并，k = 60。`);
    const json = JSON.parse((await run('--data-dir', data, 'glossary', 'Words', 'RRF', '--json')).out);
    expect(json).toMatchObject({ term: 'RRF', match: 'exact', entries: [{ term: 'RRF', passage: { pagePath: 'wiki/术语表.md', hitReason: 'glossary' } }] });
    expect(GLOSSARY_ZH.slice(json.entries[0].passage.start, json.entries[0].passage.end)).toBe(json.entries[0].passage.text);

    const mentioned = await run('--data-dir', data, 'glossary', 'Words', 'what is hyde?');
    expect(mentioned.out.split('\n')[0]).toBe('No entry for "what is hyde?" itself; the glossary terms it names:');
    expect(mentioned.out).toContain('HyDE — wiki/术语表.md');
    expect((await run('--data-dir', data, 'glossary', 'Words', 'tomato')).out).toBe('No glossary entry for "tomato".');
    expect((await run('--data-dir', data, 'glossary', 'Plain')).out).toMatch(/^This knowledge base has no glossary: a page named glossary, 术语表 or 词汇表/);
    expect(await run('--data-dir', data, 'glossary')).toMatchObject({ code: 2, err: 'sift: expected KB [TERM], got 0 argument(s). See sift --help.' });
    expect(await run('--data-dir', data, 'glossary', 'ghost')).toMatchObject({ code: 1, err: 'sift: no knowledge base has the id or name "ghost". See them with: sift kb list; create one with: sift kb create NAME' });
  }, 60_000);
});
