/**
 * Identical passages do not fill the results (issue #25 item 3): the same README in four packages, and a
 * manual whose chapter is repeated in an all-in-one file, come back once each, the passage kept naming
 * the other pages that hold it; pages that only share a few words stay apart.
 */
import { describe, expect, it } from 'vitest';
import { collapseDuplicates } from './duplicates';
import { keywordKbForTests } from './testing/test-kb';

const README = '# fast-glob\n\nFast and reliable glob matching for Node.js: traverses the file system and returns pathnames that match a pattern, with support for negation, brace expansion and dotfiles.\n';
const CHAPTER = '## Timers\n\nsetTimeout schedules a callback after a delay in milliseconds; clearTimeout cancels it. The event loop runs timers in order of their expiry.\n';
const FILES = {
  'pkg-a/README.md': README,
  'pkg-b/README.md': README,
  'pkg-c/README.md': README,
  // The same README, one word changed: a near duplicate.
  'pkg-d/README.md': README.replace('reliable', 'dependable'),
  'manual/timers.md': `# Timers\n\n${CHAPTER}`,
  'manual/all.md': `# Node.js manual\n\n## Buffers\n\nBuffers hold raw bytes outside the V8 heap.\n\n${CHAPTER}\n## Streams\n\nStreams move data in chunks.\n`,
  'other/globbing.md': '# Shell globbing\n\nThe shell expands a glob pattern such as *.md before the program runs; quote it to pass it through.\n',
};

const kb = keywordKbForTests('duplicates', FILES);

describe('repeated passages', () => {
  it('the same README in four packages is one passage that says where else it is', async () => {
    const result = await kb.keyword('glob pattern matching brace expansion');
    const readmes = result.passages.filter((p) => p.pagePath.endsWith('README.md'));
    expect(readmes).toHaveLength(1);
    expect(readmes[0]!.alsoIn?.map((e) => e.pagePath).sort()).toEqual(
      ['wiki/pkg-a/README.md', 'wiki/pkg-b/README.md', 'wiki/pkg-c/README.md', 'wiki/pkg-d/README.md'].filter((p) => p !== readmes[0]!.pagePath),
    );
    expect(result.passages.some((p) => p.pagePath === 'wiki/other/globbing.md')).toBe(true);
    expect(new Set(result.passages.map((p) => p.contentHash)).size).toBe(result.passages.length);
  });

  it('a chapter repeated in an all-in-one manual is shown once, from the chapter, with its other place', async () => {
    const result = await kb.keyword('setTimeout clearTimeout timers');
    const timers = result.passages.filter((p) => p.text.includes('setTimeout schedules'));
    expect(timers).toHaveLength(1);
    expect(timers[0]!.pagePath).toBe('wiki/manual/timers.md');
    expect(timers[0]!.alsoIn?.map((e) => e.pagePath)).toEqual(['wiki/manual/all.md']);
  });

  it("the passage shown is the shortest page's, in the place of the best-ranked one", () => {
    const span = (pagePath: string, text: string, pageLength: number) =>
      ({ pagePath, text, start: 0, end: text.length, page: { title: pagePath, text: 'x'.repeat(pageLength) } });
    const out = collapseDuplicates([
      span('print.html', CHAPTER, 90_000),
      span('other.md', README, 500),
      span('ch16.html', CHAPTER, 4_000),
      span('mirror.html', CHAPTER, 4_000),
      span('ch16-short.html', CHAPTER, 3_000),
    ]);
    expect(out.map((s) => s.pagePath)).toEqual(['ch16-short.html', 'other.md']);
    expect(out[0]!.alsoIn.map((e) => e.pagePath)).toEqual(['ch16.html', 'print.html', 'mirror.html']);
  });

  it('pages that share some words are not duplicates', () => {
    const span = (pagePath: string, text: string) => ({ pagePath, text, start: 0, end: text.length, page: { title: pagePath, text } });
    const out = collapseDuplicates([span('a', README), span('b', FILES['other/globbing.md']), span('a', README)]);
    expect(out.map((s) => s.pagePath)).toEqual(['a', 'b', 'a']);
  });
});
