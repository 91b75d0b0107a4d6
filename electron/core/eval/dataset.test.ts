import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { tempDir } from '../testing/temp';
import { beirMarkdown, writeBeirCorpus } from './beir-corpus';
import { judgedQueries, loadDataset, parseQrels, parseQueries } from './dataset';

const BEIR_MINI = path.resolve(__dirname, 'testdata/beir-mini');
const BILINGUAL = path.resolve(__dirname, '../../../resources/eval/sift-bilingual');

const asObject = (qrels: Map<string, Map<string, number>>) => Object.fromEntries([...qrels].map(([q, docs]) => [q, Object.fromEntries(docs)]));

function thrown(fn: () => unknown): SiftError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SiftError);
    return err as SiftError;
  }
  throw new Error('expected an error');
}

describe('parseQrels', () => {
  it.each([
    { name: 'header skipped', text: 'query-id\tcorpus-id\tscore\nq1\td1\t1\n', expected: { q1: { d1: 1 } } },
    { name: 'no header', text: 'q1\td1\t2\nq1\td2\t0\n', expected: { q1: { d1: 2, d2: 0 } } },
    { name: 'CRLF and blank lines', text: 'query-id\tcorpus-id\tscore\r\n\r\nq1\td1\t1\r\nq2\td3\t2\r\n', expected: { q1: { d1: 1 }, q2: { d3: 2 } } },
    { name: 'corpus ids with spaces and Chinese', text: 'q\tnotes/旅行 计划.txt\t1\n', expected: { q: { 'notes/旅行 计划.txt': 1 } } },
    { name: 'a pair judged twice keeps the last score', text: 'q1\td1\t1\nq1\td1\t2\n', expected: { q1: { d1: 2 } } },
    { name: 'negative scores are kept', text: 'q1\td1\t-1\n', expected: { q1: { d1: -1 } } },
  ])('$name', ({ text, expected }) => {
    expect(asObject(parseQrels(text, 'qrels/test.tsv'))).toEqual(expected);
  });

  it.each([
    { text: 'q1\td1\t1\nq2 d2 1\n', message: 'qrels/test.tsv:2: expected 3 tab-separated fields (query-id, corpus-id, score), got 1' },
    { text: 'h\th\th\nq1\td1\tvery\n', message: 'qrels/test.tsv:2: the score "very" is not a number' },
    { text: 'q1\td1\t1\n\td1\t1\n', message: 'qrels/test.tsv:2: the query id or corpus id is empty' },
    { text: 'q1\td1\t1\tx\n', message: 'qrels/test.tsv:1: expected 3 tab-separated fields (query-id, corpus-id, score), got 4' },
  ])('names the line of a bad row: $message', ({ text, message }) => {
    const err = thrown(() => parseQrels(text, 'qrels/test.tsv'));
    expect(err.code).toBe('invalid_argument');
    expect(err.message).toBe(message);
  });
});

describe('parseQueries', () => {
  it('reads ids (numbers too), texts and optional categories', () => {
    const text = '{"_id": "q1", "text": "超时", "category": "zh-2char"}\n\n{"_id": 7, "text": "v1/chat", "metadata": {}}\n{"_id": "q3", "text": "x", "category": ""}\n';
    expect(parseQueries(text, 'queries.jsonl')).toEqual([
      { id: 'q1', text: '超时', category: 'zh-2char' },
      { id: '7', text: 'v1/chat', category: null },
      { id: 'q3', text: 'x', category: null },
    ]);
  });

  it.each([
    { text: '{"_id": "q1", "text": "a"}\n{"_id": "q1", "text": "b"}', message: 'queries.jsonl:2: the query id "q1" is used twice' },
    { text: '{"_id": "q1"}', message: 'queries.jsonl:1: the query "q1" has no "text"' },
    { text: '{"text": "a"}', message: 'queries.jsonl:1: the query has no "_id"' },
    { text: '{"_id": "q1", "text": "a", "category": 3}', message: 'queries.jsonl:1: "category" must be a string' },
    { text: '["q1", "a"]', message: 'queries.jsonl:1: each line must be one JSON object' },
  ])('refuses $message', ({ text, message }) => {
    expect(thrown(() => parseQueries(text, 'queries.jsonl')).message).toBe(message);
  });

  it('names the line of broken JSON', () => {
    expect(thrown(() => parseQueries('{"_id": "q1", "text": "a"}\n{oops', 'queries.jsonl')).message).toMatch(/^queries\.jsonl:2: not valid JSON/);
  });
});

describe('loadDataset', () => {
  it('reads the BEIR sample with its test split by default', () => {
    const ds = loadDataset(BEIR_MINI);
    expect(ds).toMatchObject({ name: 'beir-mini', split: 'test', corpus: { format: 'beir', corpusFile: path.join(BEIR_MINI, 'corpus.jsonl') } });
    expect(ds.queries.map((q) => q.id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    expect(asObject(ds.qrels).q3).toEqual({ d5: 2, d4: 0 });
    // q5 is judged, but only with score 0: not a query that can be scored.
    expect(judgedQueries(ds).map((q) => q.id)).toEqual(['q1', 'q2', 'q3', 'q4']);
    expect(judgedQueries(loadDataset(BEIR_MINI, 'dev')).map((q) => q.id)).toEqual(['q1', 'q4']);
  });

  it('reads the bilingual folder dataset: every judged document exists, every category has queries', () => {
    const ds = loadDataset(BILINGUAL);
    expect(ds.corpus.format).toBe('folder');
    expect(ds.queries.length).toBeGreaterThanOrEqual(40);
    const categories = new Set(ds.queries.map((q) => q.category));
    expect([...categories].sort()).toEqual(['api-path', 'en-paraphrase', 'error-code', 'followup', 'mixed', 'version', 'zh-2char']);
    // The follow-ups of followups.jsonl carry their earlier questions.
    expect(ds.queries.find((q) => q.id === 'fu-01')).toEqual({ id: 'fu-01', text: '那第二步呢？', category: 'followup', history: ['发布流程是怎样的？'] });
    expect(judgedQueries(ds)).toHaveLength(ds.queries.length);
    const docsDir = ds.corpus.format === 'folder' ? ds.corpus.docsDir : '';
    for (const judged of ds.qrels.values()) for (const doc of judged.keys()) expect(fs.existsSync(path.join(docsDir, doc)), doc).toBe(true);
    expect(fs.readdirSync(docsDir, { recursive: true }).filter((f) => fs.statSync(path.join(docsDir, String(f))).isFile()).length).toBeGreaterThanOrEqual(25);
  });

  it('refuses a follow-up without history, or one whose id is also a query', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'docs'));
    fs.mkdirSync(path.join(dir, 'qrels'));
    fs.writeFileSync(path.join(dir, 'queries.jsonl'), '{"_id": "q1", "text": "retry"}\n');
    fs.writeFileSync(path.join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\ta.md\t1\n');
    fs.writeFileSync(path.join(dir, 'followups.jsonl'), '{"_id": "f1", "text": "and then?", "history": []}\n');
    expect(thrown(() => loadDataset(dir)).message).toMatch(/followups\.jsonl:1: the follow-up "f1" needs "history"/);
    fs.writeFileSync(path.join(dir, 'followups.jsonl'), '{"_id": "q1", "text": "and then?", "history": ["retry?"]}\n');
    expect(thrown(() => loadDataset(dir)).message).toMatch(/the id "q1" is also a query of queries\.jsonl/);
  });

  it('says what is missing', () => {
    const dir = tempDir();
    expect(thrown(() => loadDataset(path.join(dir, 'nope')))).toMatchObject({ code: 'not_found', message: expect.stringContaining('there is no dataset folder') });
    expect(thrown(() => loadDataset(dir)).message).toMatch(/needs corpus\.jsonl \(BEIR format\) or a docs\/ folder/);
    fs.mkdirSync(path.join(dir, 'docs'));
    expect(thrown(() => loadDataset(dir))).toMatchObject({ code: 'not_found', message: expect.stringContaining('the dataset has no queries.jsonl') });
    fs.writeFileSync(path.join(dir, 'queries.jsonl'), '{"_id": "q", "text": "a"}\n');
    expect(thrown(() => loadDataset(dir)).message).toMatch(/no split "test" .*; add qrels\/<split>\.tsv$/);
    expect(thrown(() => loadDataset(dir, '../../etc/passwd'))).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining('is not a name like test or dev') });
  });
});

describe('writeBeirCorpus', () => {
  it('writes <_id>.md with the title as heading, and a safe name for any other id', async () => {
    const dir = tempDir();
    const corpus = path.join(dir, 'corpus.jsonl');
    const rows = [
      { _id: 'd1', title: 'Gateway\nresets', text: 'E_CONN_RESET after 60 s.' },
      { _id: 'a/b', title: '', text: '---\nnot front matter' },
      { _id: 'D1', title: 'Same name in another case', text: 'x' },
      { _id: 'con', title: 'Reserved on Windows', text: 'y' },
      { _id: 42, title: 'Numeric id', text: 'z' },
    ];
    fs.writeFileSync(corpus, rows.map((r) => JSON.stringify(r)).join('\n') + '\n\n');
    const out = path.join(dir, 'out');
    const files = await writeBeirCorpus(corpus, out);
    expect(Object.fromEntries(files)).toEqual({ 'd1.md': 'd1', '_2.md': 'a/b', '_3.md': 'D1', '_4.md': 'con', '42.md': '42' });
    expect(fs.readFileSync(path.join(out, 'd1.md'), 'utf8')).toBe('# Gateway resets\n\nE_CONN_RESET after 60 s.\n');
    expect(fs.readFileSync(path.join(out, '_2.md'), 'utf8')).toBe('\n---\nnot front matter\n');
    expect(fs.readdirSync(out).sort()).toEqual(['42.md', '_2.md', '_3.md', '_4.md', 'd1.md']);
  });

  it('refuses a repeated or missing id, naming the line', async () => {
    const dir = tempDir();
    const corpus = path.join(dir, 'corpus.jsonl');
    fs.writeFileSync(corpus, '{"_id": "d1", "text": "a"}\n{"_id": "d1", "text": "b"}\n');
    await expect(writeBeirCorpus(corpus, path.join(dir, 'o1'))).rejects.toThrow(`${corpus}:2: the document id "d1" is used twice`);
    fs.writeFileSync(corpus, '{"title": "t", "text": "a"}\n');
    await expect(writeBeirCorpus(corpus, path.join(dir, 'o2'))).rejects.toThrow(`${corpus}:1: the document has no "_id"`);
  });

  it.each([
    { title: 'T', text: 'body', expected: '# T\n\nbody\n' },
    { title: '  spaced \t title ', text: 'b', expected: '# spaced title\n\nb\n' },
    { title: '', text: 'body', expected: '\nbody\n' },
  ])('beirMarkdown($title)', ({ title, text, expected }) => {
    expect(beirMarkdown(title, text)).toBe(expected);
  });
});
