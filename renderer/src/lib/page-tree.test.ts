import { describe, expect, it } from 'vitest';
import type { PageSummary } from '../../../shared/models';
import { buildRoots } from './page-tree';

function page(folder: string, prefix: string, relPath: string, title = ''): PageSummary {
  return { path: `wiki/${prefix}${relPath}`, title, kind: 'markdown', folder, relPath, chars: 1, chunks: 1 };
}

describe('buildRoots', () => {
  it('gives each folder its own root, the first-added folder first, whatever the names', () => {
    const pages = [
      ...Array.from({ length: 300 }, (_, i) => page('/data/Archive', 'Archive/', `n${i}.md`)),
      page('/home/me/notes', '', 'zeta.md'),
      page('/home/me/notes', '', 'sub/a.md'),
    ];
    const roots = buildRoots(pages);
    expect(roots.map((r) => r.name)).toEqual(['notes', 'Archive']);
    expect(roots[0]!.pages.map((p) => p.relPath)).toEqual(['zeta.md']);
    expect(roots[0]!.folders.map((f) => f.name)).toEqual(['sub']);
    expect(roots[1]!.pages).toHaveLength(300);
  });

  it('orders pages by file name numerically, the same way for every input order', () => {
    const names = ['Note 10.md', 'gateway.md', 'Note 2.md', '会议记录.txt', '部署指南.md', 'note 1.md', 'Apple.md'];
    const expected = ['部署指南.md', '会议记录.txt', 'Apple.md', 'gateway.md', 'note 1.md', 'Note 2.md', 'Note 10.md'];
    for (const order of [names, [...names].reverse()]) {
      const [root] = buildRoots(order.map((n) => page('/f', '', n)));
      expect(root!.pages.map((p) => p.relPath)).toEqual(expected);
    }
  });

  it('puts the page digests under one generated root, last, without the _digest folder level', () => {
    const digest = (relPath: string): PageSummary => ({ ...page('sift:digests', '', relPath), generated: true });
    const pages = [digest('_digest/overview.md'), digest('_digest/sub/a.md'), page('/home/me/notes', '', 'sub/a.md'), page('/data/Archive', 'Archive/', 'x.md')];
    const roots = buildRoots(pages);
    expect(roots.map((r) => [r.name, r.generated ?? false])).toEqual([['notes', false], ['Archive', false], ['sift:digests', true]]);
    expect(roots[2]!.pages.map((p) => p.path)).toEqual(['wiki/_digest/overview.md']);
    expect(roots[2]!.folders.map((f) => [f.name, f.pages.map((p) => p.path)])).toEqual([['sub', ['wiki/_digest/sub/a.md']]]);
  });
});
