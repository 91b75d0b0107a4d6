/**
 * A year-like number in a file name is no version by itself (issue #25 item 1): unrelated files that share
 * a name stem (`rfc-1918.md`, `rfc-2068.md`; `notes_1910.md` … `notes_1989.md`) are not versions of one
 * document unless their content is alike or their front matter says so; and version preference never
 * moves a page that lacks the query's words above one that has them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage, SearchResult } from '../../../shared/models';
import { makeKb, search, startCore, valueOf, type TestCore } from '../search/testing/test-kb';

const topics = ['tidal energy', 'bee keeping', 'glass blowing', 'orbital decay', 'sourdough starters', 'violin varnish',
  'lichen growth', 'canal locks', 'kite aerodynamics', 'ink chemistry', 'moss gardens'];
const bodies = [
  'Turbines under the estuary turn twice a day; output peaks an hour after high water.',
  'The hives swarmed in May. Queen cells were cut back and the brood frames moved to the shade.',
  'A gather of molten glass is turned on the pipe, marvered flat, then blown into the mould.',
  'Drag from the thin upper atmosphere lowers a satellite a few metres each orbit until re-entry.',
  'Feed the culture equal weights of flour and water; it doubles in six hours when warm.',
  'Oil varnish with amber and colophony dries for weeks in sunlight between thin coats.',
  'Crustose species on the north wall spread less than a millimetre a year.',
  'Each chamber fills from the upper pound; the paddles are opened slowly to spare the gates.',
  'Lift grows with the square of wind speed, so the bridle point matters more in gusts.',
  'Iron gall ink darkens as tannins oxidise, and in damp archives it eats through the paper.',
  'Shade and acid soil favour cushion mosses; raking out leaves keeps them from rotting.',
];
const years = [1910, 1923, 1931, 1947, 1952, 1968, 1971, 1979, 1983, 1986, 1989];

const files: Record<string, string> = {
  'rfc-1918.md': '# Address Allocation for Private Internets\n\nThis memo sets aside private address space: 10.0.0.0/8, 172.16.0.0/12 and 192.168.0.0/16, for hosts that need no outside connectivity.',
  'rfc-2068.md': '# Hypertext Transfer Protocol HTTP/1.1\n\nHTTP/1.1 caches and proxies on private networks; persistent connections and chunked transfer coding.',
  // Two real versions of one document, named by year: alike in content, so still versions.
  'handbook-2023.md': '# Staff handbook\n\nHolidays: 25 days a year. Expenses are paid within 30 days of the claim. Laptops are replaced every four years.',
  'handbook-2024.md': '# Staff handbook\n\nHolidays: 27 days a year. Expenses are paid within 30 days of the claim. Laptops are replaced every four years.',
};
years.forEach((year, i) => {
  files[`notes_${year}.md`] = `# ${topics[i]}\n\n${bodies[i]} Notes on ${topics[i]}.`;
});

let core: TestCore;
let kb: string;
beforeAll(async () => {
  core = await startCore('none');
  kb = (await makeKb(core, 'false-versions', { docs: files })).id;
}, 60_000);
afterAll(async () => core?.close());

async function passages(query: string): Promise<Passage[]> {
  return valueOf<SearchResult>(await search(core, { kb, query, topK: 5, mode: 'keyword' })).passages;
}

describe('versions need evidence', () => {
  it('RFC 1918 answers "private address space" first, and neither RFC is a version of the other', async () => {
    const found = await passages('private address space');
    expect(found[0]?.pagePath).toBe('wiki/rfc-1918.md');
    for (const p of found.filter((q) => q.pagePath.startsWith('wiki/rfc-'))) expect(p.version).toBeUndefined();
  });

  it('eleven unrelated notes named by years stay eleven documents: each is found first for its own topic', async () => {
    for (const [i, topic] of topics.entries()) {
      const found = await passages(topic);
      expect(found[0]?.pagePath).toBe(`wiki/notes_${years[i]}.md`);
      expect(found[0]?.version).toBeUndefined();
    }
  });

  it('files named by year whose content is alike are still versions: the newer is current', async () => {
    const found = await passages('how many holiday days');
    const [first, second] = found.filter((p) => p.pagePath.startsWith('wiki/handbook-'));
    expect(first?.pagePath).toBe('wiki/handbook-2024.md');
    expect(first?.version?.status).toBe('current');
    expect(second?.version).toMatchObject({ status: 'superseded', supersededBy: 'wiki/handbook-2024.md' });
  });
});
