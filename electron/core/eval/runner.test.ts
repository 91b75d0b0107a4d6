/** runEval on small datasets written in each test: id mapping, warnings, topK, clean-up, fallbacks. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp';
import { loadDataset } from './dataset';
import { runEval } from './runner';

function writeBeir(dir: string, docs: object[], queries: object[], qrels: string): string {
  fs.mkdirSync(path.join(dir, 'qrels'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'corpus.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n'));
  fs.writeFileSync(path.join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n'));
  fs.writeFileSync(path.join(dir, 'qrels', 'test.tsv'), `query-id\tcorpus-id\tscore\n${qrels}`);
  return dir;
}

function writeFolder(dir: string, files: Record<string, string>, queries: object[], qrels: string): string {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, 'docs', rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'docs', rel), text);
  }
  fs.mkdirSync(path.join(dir, 'qrels'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n'));
  fs.writeFileSync(path.join(dir, 'qrels', 'test.tsv'), qrels);
  return dir;
}

describe('runEval', () => {
  it('maps files back to BEIR ids that are not file names, warns about unknown ids, and removes its knowledge base', async () => {
    const dir = writeBeir(
      tempDir(),
      [
        { _id: 'doc/1', title: 'Zebra stripes', text: 'Every zebra has its own stripes.' },
        { _id: 'plain', title: 'Horses', text: 'Horses run fast.' },
      ],
      [
        { _id: 'q1', text: 'zebra stripes' },
        { _id: 'q2', text: 'horses' },
      ],
      'q1\tdoc/1\t1\nq2\tplain\t1\nq2\tgone\t1\nqX\tplain\t1\n',
    );
    const tempRoot = tempDir();
    const report = await runEval(loadDataset(dir), { mode: 'keyword', tempRoot });
    expect(report.perQuery.map((q) => [q.id, q.ranking])).toEqual([
      ['q1', ['doc/1']],
      ['q2', ['plain']],
    ]);
    expect(report.perQuery[1]!.scores.recallAt20).toBe(0.5); // "gone" is judged relevant but is not in the corpus
    expect(report.warnings).toEqual([
      expect.stringMatching(/^1 query id\(s\) of .*test\.tsv are not in queries\.jsonl: qX$/),
      expect.stringMatching(/^1 relevant document\(s\) of .*test\.tsv were not indexed and count as not found: gone$/),
    ]);
    expect(report.categories).toEqual([]);
    expect(fs.readdirSync(tempRoot)).toEqual([]);
  });

  it('searches again with more passages when the first ones name fewer documents than topK', async () => {
    const filler = 'Nothing to see in this paragraph, only words about weather and rain. '.repeat(12);
    const dir = writeFolder(
      tempDir(),
      {
        // Two separate sections full of the word: two passages of one page rank first.
        'many.md': `# Many\n\n## One\n\nzebra zebra zebra zebra.\n\n## Two\n\n${filler}\n\n## Three\n\nzebra zebra zebra zebra.\n`,
        'once.md': `# Once\n\nA single zebra, among ${filler}`,
      },
      [{ _id: 'q', text: 'zebra' }],
      'q\tonce.md\t1\n',
    );
    const report = await runEval(loadDataset(dir), { mode: 'keyword', topK: 2 });
    expect(report.perQuery[0]!.ranking).toEqual(['many.md', 'once.md']);
    expect(report.overall.recallAt5).toBe(1);
    const one = await runEval(loadDataset(dir), { mode: 'keyword', topK: 1 });
    expect(one.perQuery[0]!.ranking).toEqual(['many.md']);
    expect(one.overall.recallAt20).toBe(0);
  });

  it('declares keyword-only when hybrid was asked but no model can be loaded', async () => {
    const dir = writeFolder(tempDir(), { 'a.md': '# A\n\nzebra' }, [{ _id: 'q', text: 'zebra', category: 'animals' }], 'q\ta.md\t1\n');
    const report = await runEval(loadDataset(dir), {
      mode: 'hybrid',
      embedding: { provider: 'transformers', modelId: 'sift-test/not-there', localModelDir: tempDir(), allowDownload: false },
    });
    expect(report.mode).toBe('hybrid');
    expect(report.ranMode).toBe('keyword');
    expect(report.keywordOnlyReason).toMatch(/not-there/);
    expect(report.categories).toEqual([{ name: 'animals', queries: 1, scores: { hitAt5: 1, recallAt5: 1, recallAt20: 1, mrrAt10: 1, ndcgAt10: 1 } }]);
  });

  it('reports files that could not be indexed', async () => {
    const dir = writeFolder(tempDir(), { 'a.md': '# A\n\nzebra', 'broken.docx': 'this is not a Word file' }, [{ _id: 'q', text: 'zebra' }], 'q\ta.md\t1\n');
    const report = await runEval(loadDataset(dir), { mode: 'keyword' });
    expect(report.documents).toEqual({ indexed: 1, failed: 1 });
    expect(report.warnings).toEqual([expect.stringMatching(/^1 document\(s\) could not be indexed: broken\.docx \(/)]);
  });

  it.each([0, 51, 2.5])('refuses topK %s before making anything', async (topK) => {
    const tempRoot = tempDir();
    const dir = writeFolder(tempDir(), { 'a.md': 'a' }, [{ _id: 'q', text: 'a' }], 'q\ta.md\t1\n');
    await expect(runEval(loadDataset(dir), { mode: 'keyword', topK, tempRoot })).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(fs.readdirSync(tempRoot)).toEqual([]);
  });
});
