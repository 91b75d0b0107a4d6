/**
 * An identifier the knowledge base does not hold is searched by its parts (issue #25 item 4), but a
 * chunk that only those parts find weighs less than one a whole word of the query finds: `dLNs` falls
 * back to `ln`, and a short note saying "LN" twice must not outrank the page about the question's other
 * word. A query of only the missing identifier still finds its parts at full weight.
 */
import { describe, expect, it } from 'vitest';
import { keywordKbForTests } from './testing/test-kb';

const FILES = {
  'lymph.md': '# Nodes\n\nLN size. LN count.',
  'ribosome.md': '# Protein synthesis\n\nRibosome assembly takes place in the nucleolus of the cell, and the number of ribosome units varies with growth conditions.',
  'kafka.md': '# Kafka\n\nConsumer lag grows when partitions are few.',
  'pool.md': '# Pools\n\nA connection pool keeps sockets open between requests.',
  'retry.md': '# Retries\n\nRequests are retried three times with backoff.',
  'notes.md': '# Notes\n\nMeeting notes from Monday about the roadmap.',
};

const kb = keywordKbForTests('partial-identifiers', FILES);

describe('parts of a missing identifier', () => {
  it('weigh less than a whole word of the query', async () => {
    const result = await kb.keyword('dLNs ribosome');
    expect(result.passages[0]?.pagePath).toBe('wiki/ribosome.md');
    expect(result.passages.map((p) => p.pagePath)).toContain('wiki/lymph.md');
    expect(result.noExactMatch).toEqual(['dLNs']);
  });

  it('stand in at full weight when the query has nothing else', async () => {
    const result = await kb.keyword('dLNs');
    expect(result.passages[0]?.pagePath).toBe('wiki/lymph.md');
  });
});
