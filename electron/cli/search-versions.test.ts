/** `sift search` prints each passage's version status and label beside where it is (issue #15 item 4). */
import { describe, expect, it } from 'vitest';
import type { Passage, SearchResult } from '../../shared/models';
import { formatResults } from './search-commands';

const passage = (pagePath: string, version?: Passage['version']): Passage => ({
  evidenceId: 'e', pagePath, title: 'Travel policy', start: 0, end: 4, text: 'Rooms', contentHash: 'h',
  provenance: { headingPath: ['Hotels'], pdfPages: null, lines: null }, hitReason: 'body',
  keywordRank: 1, keywordScore: 1, vectorRank: null, vectorDistance: null, rrfScore: 0.0164, version,
});

describe('formatResults', () => {
  it('names the version of a passage whose page has one, and nothing for the others', () => {
    const result: SearchResult = {
      passages: [
        passage('wiki/travel-policy-v2.md', { status: 'current', label: 'v2', effective: null, expires: null, supersededBy: null }),
        passage('wiki/travel-policy-v1.md', { status: 'expired', label: 'v1', effective: null, expires: '2023-12-31', supersededBy: null }),
        passage('wiki/retry.md'),
      ],
      mode: 'keyword', keywordOnlyReason: null, missingRefs: [], rejectedRefs: [], noExactMatch: [],
      timings: { totalMs: 1, embedMs: null, keywordMs: 1, vectorMs: null, fuseMs: 0, statements: { total: 9, keyword: 6, vector: 0, other: 3 } },
    };
    const heads = formatResults(result).split('\n').filter((l) => l.startsWith('['));
    expect(heads).toEqual([
      '[1] Travel policy — wiki/travel-policy-v2.md · Hotels · current v2  [0, 4)',
      '[2] Travel policy — wiki/travel-policy-v1.md · Hotels · expired v1  [0, 4)',
      '[3] Travel policy — wiki/retry.md · Hotels  [0, 4)',
    ]);
  });
});
