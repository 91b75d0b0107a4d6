/**
 * Where a search looks: one knowledge base only (its own pages, its own bm25 statistics), and inside
 * it only the pages, folders or front-matter values of the scope — in both stages, before ranking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../../shared/models';
import { makeKb, search, startCore, valueOf, type TestCore } from './testing/test-kb';

let core: TestCore;
beforeAll(async () => {
  core = await startCore('test');
}, 60_000);
afterAll(async () => core?.close());

async function run(kb: string, query: string, extra: Record<string, unknown> = {}): Promise<SearchResult> {
  return valueOf<SearchResult>(await search(core, { kb, query, topK: 50, ...extra }));
}

describe('knowledge-base isolation', () => {
  it("never returns another knowledge base's pages, whatever the mode", async () => {
    const a = await makeKb(core, 'iso-a', { notes: { 'shared-name.md': '# A\n\nzebra crossing in town A\n', 'only-a.md': '# Only A\n\nzebra herd\n' } });
    const b = await makeKb(core, 'iso-b', { notes: { 'shared-name.md': '# B\n\nzebra crossing in town B\n', 'only-b.md': '# Only B\n\nzebra stripes\n' } });
    for (const mode of ['hybrid', 'keyword', 'vector']) {
      const inA = await run(a.id, 'zebra crossing town', { mode });
      expect(new Set(inA.passages.map((p) => p.pagePath)), mode).toEqual(new Set(['wiki/shared-name.md', 'wiki/only-a.md']));
      expect(inA.passages.every((p) => !p.text.includes('town B') && !p.text.includes('stripes')), mode).toBe(true);
      const inB = await run(b.id, 'zebra crossing town', { mode });
      expect(new Set(inB.passages.map((p) => p.pagePath)), mode).toEqual(new Set(['wiki/shared-name.md', 'wiki/only-b.md']));
      expect(inB.passages.every((p) => !p.text.includes('town A') && !p.text.includes('herd')), mode).toBe(true);
    }
  });

  it('keeps bm25 statistics per knowledge base: a common word scores lower where it is common', async () => {
    const doc = '# Harbour\n\nThe lighthouse stands at the harbour entrance.\n';
    const others = (withWord: boolean) =>
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`other-${i}.md`, `# Other ${i}\n\n${withWord ? 'A lighthouse' : 'A fishing boat'} number ${i} near the pier.\n`]));
    const rare = await makeKb(core, 'bm25-rare', { notes: { 'harbour.md': doc, ...others(false) } });
    const common = await makeKb(core, 'bm25-common', { notes: { 'harbour.md': doc, ...others(true) } });
    const score = async (kb: string) => (await run(kb, 'lighthouse', { mode: 'keyword' })).passages.find((p) => p.pagePath === 'wiki/harbour.md')!.keywordScore!;
    const [inRare, inCommon] = [await score(rare.id), await score(common.id)];
    expect(inRare).toBeGreaterThan(0);
    expect(inCommon).toBeGreaterThan(0);
    // The same text; only the other documents of its own knowledge base differ.
    expect(inRare).toBeGreaterThan(inCommon * 2);
    expect((await run(rare.id, 'lighthouse', { mode: 'keyword' })).passages.map((p) => p.pagePath)).toEqual(['wiki/harbour.md']);
  });
});

describe('scope inside a knowledge base', () => {
  let kb: string;
  let folders: Record<string, string>;
  beforeAll(async () => {
    ({ id: kb, folders } = await makeKb(core, 'scoped', {
      notes: {
        'zebra-a.md': '---\ntags: [animals, africa]\nteam: red\n---\n# Zebra A\n\nzebra zebra zebra zebra everywhere\n',
        'zebra-b.md': '---\ntags: animals\nteam: blue\npublished: true\n---\n# Zebra B\n\nzebra seen once\n',
      },
      archive: {
        'zebra-c.md': '# Zebra C\n\nzebra zebra zebra zebra zebra zebra\n',
      },
    }));
  });

  it.each([
    { name: 'pages', scope: () => ({ pages: ['wiki/zebra-b.md'] }), pages: ['wiki/zebra-b.md'] },
    { name: 'folders', scope: () => ({ folders: [folders.archive] }), pages: ['wiki/archive/zebra-c.md'] },
    { name: 'a metadata value', scope: () => ({ metadata: { team: 'blue' } }), pages: ['wiki/zebra-b.md'] },
    { name: 'a metadata list containing a value', scope: () => ({ metadata: { tags: 'africa' } }), pages: ['wiki/zebra-a.md'] },
    { name: 'a metadata list or value', scope: () => ({ metadata: { tags: 'animals' } }), pages: ['wiki/zebra-a.md', 'wiki/zebra-b.md'] },
    { name: 'a boolean', scope: () => ({ metadata: { published: true } }), pages: ['wiki/zebra-b.md'] },
    { name: 'all filters together', scope: () => ({ folders: [folders.notes], metadata: { tags: 'animals', team: 'red' } }), pages: ['wiki/zebra-a.md'] },
  ])('by $name, in every mode', async ({ scope, pages }) => {
    for (const mode of ['hybrid', 'keyword', 'vector']) {
      const result = await run(kb, 'zebra', { mode, scope: scope() });
      expect([...new Set(result.passages.map((p) => p.pagePath))].sort(), mode).toEqual(pages);
    }
  });

  it('ranks only what is in scope (never top-N first, then filter)', async () => {
    // Each stage hands on a single hit. Unscoped, zebra-a outranks zebra-b, so ranking first and
    // filtering after would leave nothing.
    const limited = await startCore('none', { stageLimit: 1 });
    try {
      const { id } = await makeKb(limited, 'limited', {
        notes: {
          'zebra-a.md': '# Zebra A\n\nzebra zebra zebra zebra everywhere\n',
          'zebra-b.md': '# Zebra B\n\nzebra seen once among many other words of this page\n',
        },
      });
      const all = valueOf<SearchResult>(await search(limited, { kb: id, query: 'zebra', mode: 'keyword' }));
      expect(all.passages.map((p) => p.pagePath)).toEqual(['wiki/zebra-a.md']);
      const scoped = valueOf<SearchResult>(await search(limited, { kb: id, query: 'zebra', mode: 'keyword', scope: { pages: ['wiki/zebra-b.md'] } }));
      expect(scoped.passages.map((p) => p.pagePath)).toEqual(['wiki/zebra-b.md']);
      expect(scoped.passages[0]!.keywordRank).toBe(1);
    } finally {
      await limited.close();
    }
  });
});
