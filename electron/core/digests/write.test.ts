import { describe, expect, it } from 'vitest';
import type { Passage } from '../../../shared/models';
import { checkDigest, digestMarkdown } from './write';

function passage(text: string, start: number, headingPath: string[] = []): Passage {
  return {
    evidenceId: 'e', pagePath: 'wiki/notes/retry.md', title: 'Retry', start, end: start + text.length, text,
    contentHash: 'h',
    provenance: { headingPath, pdfPages: null, lines: null }, hitReason: 'body',
    keywordRank: null, keywordScore: null, vectorRank: null, vectorDistance: null, rrfScore: null,
  };
}

const PASSAGES = [
  passage('The client retries three times.', 0, ['Retry']),
  passage('Waits two seconds between attempts.', 40),
];

describe('checkDigest', () => {
  it.each([
    ['- Retries three times [1].\n- Waits two seconds [2].', ['Retries three times [1].', 'Waits two seconds [2].']],
    ['1. Retries three times [1][2].', ['Retries three times [1][2].']],
    ['Here is the digest:\n* It says "retries three times" [1].', ['It says "retries three times" [1].']],
    ['- 客户端重试三次【1】。', ['客户端重试三次【1】。']],
  ])('keeps the key points of %j', (reply, points) => {
    expect(checkDigest(reply, PASSAGES)).toEqual({ ok: true, points });
  });

  it.each([
    ['', 'the reply has no key points (a bullet list was asked for)'],
    ['The page is about retries [1].', 'the reply has no key points (a bullet list was asked for)'],
    ['- Retries [1].\n- Forever [3].', 'it cites [3], but only 2 passages were given'],
    ['- Retries [1].\n- Waits a while.', 'key point 2 cites no passage'],
    ['- It says "retries forever" [1].', 'a quotation attributed to [1] is not in that passage'],
  ])('refuses %j', (reply, reason) => {
    expect(checkDigest(reply, PASSAGES)).toEqual({ ok: false, reason });
  });
});

describe('digestMarkdown', () => {
  it('lists only the cited passages under Sources, in number order, with heading path and span', () => {
    expect(digestMarkdown('Digest: Retry', ['Waits two seconds [2].'], PASSAGES)).toBe(
      '# Digest: Retry\n\n- Waits two seconds [2].\n\n## Sources\n\n- [2] wiki/notes/retry.md (characters 40–75)\n',
    );
    expect(digestMarkdown('D', ['A [2][1].'], PASSAGES)).toContain(
      '- [1] wiki/notes/retry.md · Retry (characters 0–31)\n- [2] wiki/notes/retry.md (characters 40–75)',
    );
  });
});
