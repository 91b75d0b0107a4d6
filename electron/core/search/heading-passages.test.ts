/**
 * A bare heading never wins a search: the passage that answers beats a heading that only repeats
 * the query's words, and a heading-only chunk left by an older index is not returned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageDetail, SearchResult } from '../../../shared/models';
import { makeKb, openKbFile, search, startCore, valueOf, type TestCore } from './testing/test-kb';

const styles =
  'Style maps decide which paragraph styles become which elements. A style map is a list of rules, one per ' +
  'line, each naming a paragraph style and the element it becomes. Rules that come later win over earlier ones, ' +
  'and unknown styles fall back to plain paragraphs with a warning in the messages.';

const FILES = {
  'converter.md': [
    '# Mammoth',
    '',
    '## Usage',
    '',
    '### Docx to HTML',
    '',
    '### Styles',
    '',
    styles,
    '',
    '#### Basic conversion',
    '',
    'To convert a docx file to HTML, call convertToHtml with the path of the file; the promise resolves to the ' +
      'HTML and any messages.',
    '',
  ].join('\n'),
  'lone.md': '# Lighthouse keeping\n\nThe keeper lit the lamp at dusk and logged the weather.\n',
  'zebrafish.md': '# zebrafish notes\n',
  '旅行.md': '# 京都旅行计划\n\n## 清水寺\n\n## 伏见稻荷\n',
};

let core: TestCore;
let kb: string;
beforeAll(async () => {
  core = await startCore('none');
  kb = (await makeKb(core, 'headings', { notes: FILES })).id;
}, 60_000);
afterAll(async () => core?.close());

async function run(query: string): Promise<SearchResult> {
  return valueOf<SearchResult>(await search(core, { kb, query, mode: 'keyword' }));
}

const bareHeading = /^(#{1,6} [^\n]*\s*)+$/;

describe('headings in search results', () => {
  it('the passage that answers beats a bare heading repeating the query words', async () => {
    const result = await run('docx to html');
    expect(result.passages[0]!.text).toContain('To convert a docx file to HTML, call convertToHtml');
    expect(result.passages[0]!.provenance.headingPath).toEqual(['Mammoth', 'Usage', 'Styles', 'Basic conversion']);
    for (const p of result.passages) expect(p.text).not.toMatch(bareHeading);
  });

  it('leaves out a heading-only chunk that an index made before this rule still holds', async () => {
    const page = valueOf<PageDetail>(await core.sift.invoke('pages.get', { kb, path: 'wiki/lone.md' }));
    expect(page.chunkSpans).toHaveLength(1);
    const heading = page.headings[0]!;
    // What the old chunker stored: chunk 0 ended at the heading line; its keyword row is unchanged.
    const db = openKbFile(core, kb);
    try {
      db.prepare(`UPDATE chunks SET end = ? WHERE id = ?`).run(heading.end, page.chunkSpans[0]!.id);
    } finally {
      db.close();
    }
    const result = await run('lighthouse keeper lamp');
    expect(result.passages.map((p) => p.pagePath)).not.toContain('wiki/lone.md');
  });

  it('a page whose whole text is one heading is found by it (issue #27 item 4)', async () => {
    const result = await run('zebrafish notes');
    expect(result.passages[0]?.pagePath).toBe('wiki/zebrafish.md');
    expect(result.passages[0]!.text).toContain('zebrafish notes');
  });

  it('a page of headings only is found by any of them', async () => {
    const result = await run('伏见稻荷');
    expect(result.passages[0]?.pagePath).toBe('wiki/旅行.md');
  });
});
