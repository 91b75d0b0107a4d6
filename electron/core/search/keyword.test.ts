/**
 * Which query terms the keyword stage searches for, on a real knowledge-base file: very common
 * terms are left out of large knowledge bases only, and never all of a query's terms.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { writePage, type PreparedPage } from '../ingest/page-store';
import { kbMigrations } from '../store/migrations/kb';
import { openDatabase } from '../store/open';
import { tempDir } from '../testing/temp';
import { toIndexText } from '../text/tokenize';
import { distinctiveTerms, FUNCTION_WORDS, keywordSearch, keywordTerms } from './keyword';
import { stageTerms } from './keyword-terms';
import { writeChunkedPages } from './testing/chunked-pages';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

/** A knowledge base of one-chunk pages with these texts. */
function kbOf(texts: string[]): Database.Database {
  const db = openDatabase(path.join(tempDir(), 'kb.sqlite'), kbMigrations, 'test kb', { vectors: true });
  open.push(db);
  texts.forEach((text, n) => writePage(db, onePage(n, text)));
  return db;
}

/** Note `n`, one chunk of `text`. */
function onePage(n: number, text: string): PreparedPage {
  return {
    folder: '/n', relPath: `${n}.md`, size: text.length, mtimeMs: 1, sha256: `s${n}`, path: `wiki/${n}.md`, title: `note ${n}`,
    doc: { kind: 'text', text, title: null, metadata: {}, headings: [], pages: null, language: null, encoding: 'utf-8' },
    titleTokens: '', pathTokens: '',
    sections: [{ index: 0, start: 0, end: text.length, headingPath: [] }],
    chunks: [{ index: 0, sectionIndex: 0, start: 0, end: text.length, hash: `h${n}`, tokens: toIndexText(text) }],
  };
}

/** A knowledge base of one-section pages, each given as the texts of its chunks. */
function kbOfSections(pages: string[][]): Database.Database {
  const db = openDatabase(path.join(tempDir(), 'kb.sqlite'), kbMigrations, 'test kb', { vectors: true });
  open.push(db);
  writeChunkedPages(db, pages.map((texts) => ({ texts })));
  return db;
}

// "gateway" is in 3 of 8 notes (37 %), "timeout" in 1.
const NOTES = ['the gateway resets idle links', 'gateway logs', 'gateway health', 'a timeout of ten seconds', 'alpha', 'beta', 'gamma', 'delta'];

describe('distinctiveTerms', () => {
  it('keeps every term of a small knowledge base', () => {
    const db = kbOf(NOTES);
    expect(distinctiveTerms(db, 'gateway timeout')).toEqual(['gatewai', 'timeout']);
    expect(keywordSearch(db, 'gateway timeout', 10, null)).toHaveLength(4);
  });

  it('leaves out a term in more than a quarter of the chunks of a large one, while rarer terms remain', () => {
    const db = kbOf(NOTES);
    expect(distinctiveTerms(db, 'gateway timeout', 0)).toEqual(['timeout']);
    expect(distinctiveTerms(db, 'E_TIMEOUT gateway', 0)).toEqual(['timeout']);
  });

  it('keeps the terms when all of them are that common', () => {
    const db = kbOf(NOTES);
    expect(distinctiveTerms(db, 'gateway', 0)).toEqual(['gatewai']);
    expect(distinctiveTerms(db, 'gateway gateways', 0)).toEqual(['gatewai']);
  });
});

// Issue #12 item 3: notes that share only parts of E_CONN_RESET with the query.
const PART_NOTES = [
  'call retryOperation.reset() before the next attempt',
  'Braces expand, e.g. {a,b} becomes a b',
  'protobufjs decodes the conn field of each message',
];

describe('identifiers: the whole form first, and saying when it is absent', () => {
  it('searches only the whole identifier when the knowledge base holds it', () => {
    const db = kbOf([...PART_NOTES, 'the gateway answers E_CONN_RESET when idle links close']);
    expect(keywordTerms(db, 'E_CONN_RESET')).toEqual({ terms: ['e_conn_reset'], names: [], noExactMatch: [], weak: [], partial: [] });
    const hits = keywordSearch(db, 'E_CONN_RESET', 10, null);
    expect(hits.map((h) => h.chunkId)).toEqual([4]);
  });

  it('falls back to its parts, never single letters, and names the identifier when it is absent', () => {
    const db = kbOf(PART_NOTES);
    expect(keywordTerms(db, 'what is E_CONN_RESET')).toEqual({ terms: ['what', 'is', 'conn', 'reset'], names: [], noExactMatch: ['E_CONN_RESET'], weak: ['what', 'is'], partial: ['conn', 'reset'] });
    // The "e" of "e.g." no longer matches: only the notes with "reset" and "conn" are found.
    const found = keywordSearch(db, 'E_CONN_RESET', 10, null).map((h) => h.chunkId).sort();
    expect(found).toEqual([1, 3]);
  });

  it('finds the whole identifier where it is written inside a longer one', () => {
    const db = kbOf([
      ...PART_NOTES,
      "if (err.code === errors.E_CONN_RESET) retry(); // from require('node:errors')",
      'the gateway answers E_CONN_RESET when idle links close',
      "const { Worker } = require('node:worker_threads'); the worker posts its result",
      'a worker thread pool keeps threads warm for every worker',
    ]);
    expect(keywordTerms(db, 'E_CONN_RESET').partial).toEqual([]);
    expect(keywordSearch(db, 'E_CONN_RESET', 10, null).map((h) => h.chunkId).sort()).toEqual([4, 5]);
    // Searched whole, so the note that only says "worker" and "thread" is not a match.
    expect(keywordSearch(db, 'worker_threads', 10, null).map((h) => h.chunkId)).toEqual([6]);
  });

  it('finds a name as another language spells it when the knowledge base lacks the spelling typed', () => {
    // Node writes ECONNRESET, Python max_retries, JavaScript maxRetries: one name, three spellings.
    const db = kbOf([...PART_NOTES, 'the socket emits ECONNRESET when the peer resets', 'retry up to max_retries times']);
    expect(keywordTerms(db, 'E_CONN_RESET')).toEqual({ terms: ['econnreset'], names: [], noExactMatch: [], weak: [], partial: [] });
    expect(keywordSearch(db, 'E_CONN_RESET', 10, null).map((h) => h.chunkId)).toEqual([4]);
    expect(keywordTerms(db, 'maxRetries')).toEqual({ terms: ['max_retries'], names: [], noExactMatch: [], weak: [], partial: [] });
    expect(keywordSearch(db, 'maxRetries', 10, null).map((h) => h.chunkId)).toEqual([5]);
    const js = kbOf([...PART_NOTES, 'const maxRetries = 5;']);
    expect(keywordSearch(js, 'max_retries', 10, null).map((h) => h.chunkId)).toEqual([4]);
    // The spelling typed, when held, is searched alone: another spelling does not dilute it.
    const both = kbOf(['const maxRetries = 5;', 'retry up to max_retries times']);
    expect(keywordTerms(both, 'max_retries').terms).toEqual(['max_retries']);
    expect(keywordSearch(both, 'maxRetries', 10, null).map((h) => h.chunkId)).toEqual([1]);
  });

  it('names every absent identifier-like word, and no plain word', () => {
    const db = kbOf(['ENOSPC means the disk is full', 'see v1/chat']);
    expect(keywordTerms(db, 'ENOSPC EPERM v1/chat v2/chat dLNs lunch').noExactMatch).toEqual(['EPERM', 'v2/chat', 'dLNs']);
  });
});

describe('hyphenated words: searched by their words, like plain BM25', () => {
  // SciFact claims say "T-cell" where the abstract that answers says "T cells"; the whole "t-cell"
  // found only the pages hyphenating it, and its rarity lifted them over the rest.
  const CELLS = ['activated T cells proliferate in the lymph node', 'the T-cell receptor binds the antigen', 'plant cell walls', 'lunch'];

  it('finds the word written with a space as well as with the hyphen, and names nothing as absent', () => {
    const db = kbOf(CELLS);
    expect(keywordTerms(db, 'T-cell')).toEqual({ terms: ['t', 'cell'], names: ['t-cell'], noExactMatch: [], weak: [], partial: [] });
    const top = keywordSearch(db, 'T-cell', 10, null).map((h) => h.chunkId);
    expect(top.slice(0, 2).sort()).toEqual([1, 2]);
    expect(top).toContain(3);
  });

  it('names a compound no chunk holds in a row, while its words stand in', () => {
    const db = kbOf(['CVE-2024-1234 is fixed in 1.2', 'patched in 2024', ...CELLS]);
    const { terms, noExactMatch } = keywordTerms(db, 'is CVE-2024-3094 fixed');
    expect(noExactMatch).toEqual(['CVE-2024-3094']);
    expect(terms).toEqual(['is', 'cve', '2024', '3094', 'fix']);
    // Held as words in a row, hyphenated or not, it is not absent.
    expect(keywordTerms(db, 'CVE-2024-1234 tissue-resident T-cells').noExactMatch).toEqual(['tissue-resident']);
    expect(keywordTerms(kbOf(['CVE 2024 1234 was patched']), 'CVE-2024-1234').noExactMatch).toEqual([]);
  });

  it('ranks the page named by the compound first, though its words are everywhere', () => {
    // On real READMEs, "dotenv-expand variables" by its words alone put dotenv's README first: it says
    // dotenv, expand and variables more often than dotenv-expand's own README does.
    const db = openDatabase(path.join(tempDir(), 'kb.sqlite'), kbMigrations, 'test kb', { vectors: true });
    open.push(db);
    const page = (folder: string, text: string, n: number): void => writePage(db, {
      folder: '/n', relPath: `${folder}/README.md`, size: text.length, mtimeMs: 1, sha256: `s${n}`, path: `wiki/${folder}/README.md`, title: folder,
      doc: { kind: 'text', text, title: folder, metadata: {}, headings: [], pages: null, language: null, encoding: 'utf-8' },
      titleTokens: toIndexText(folder), pathTokens: toIndexText(`${folder}/README.md`),
      sections: [{ index: 0, start: 0, end: text.length, headingPath: [] }],
      chunks: [{ index: 0, sectionIndex: 0, start: 0, end: text.length, hash: `h${n}`, tokens: toIndexText(text) }],
    });
    page('dotenv', 'dotenv loads environment variables from a .env file; to expand variables, use dotenv-expand', 0);
    page('dotenv-expand', 'Adds variable expansion on top of dotenv, for variables that refer to other variables in a long list', 1);
    ['lunch', 'weather', 'bread'].forEach((t, n) => page(t, `a note about ${t}`, n + 2));
    expect(keywordTerms(db, 'dotenv-expand variables').names).toEqual(['dotenv-expand']);
    const pageOf = (chunk: number) => db.prepare(`SELECT path FROM pages WHERE id = (SELECT page_id FROM chunks WHERE id = ?)`).pluck().get(chunk);
    expect(keywordSearch(db, 'dotenv-expand variables', 10, null).map((h) => pageOf(h.chunkId))).toEqual(['wiki/dotenv-expand/README.md', 'wiki/dotenv/README.md']);
  });

  it('keeps codes joined by other characters whole', () => {
    const db = kbOf(['set v1.2-beta in the config', 'beta testers']);
    expect(keywordTerms(db, 'v1.2-beta')).toEqual({ terms: ['v1.2-beta'], names: [], noExactMatch: [], weak: [], partial: [] });
    expect(keywordSearch(db, 'v1.2-beta', 10, null).map((h) => h.chunkId)).toEqual([1]);
  });
});

describe('British and American spellings', () => {
  // A reader who types one spelling finds the other: SciFact claims say "tumour" of abstracts that say
  // "tumor", and "ischemic" of abstracts that say "ischaemic".
  const NOTES_BY_SPELLING = ['haemorrhage after ischaemic stroke', 'the tumour colour under the microscope', 'randomised trial centres', 'lunch menu'];

  it.each([
    ['hemorrhage', 1], ['ischemic stroke', 1], ['tumor color', 2], ['randomized trial centers', 3],
    ['haemorrhage', 1], ['tumour', 2],
  ] as const)('finds the note for %s', (query, chunk) => {
    expect(keywordSearch(kbOf(NOTES_BY_SPELLING), query, 10, null).map((h) => h.chunkId)).toEqual([chunk]);
  });
});

describe('names written with symbols', () => {
  // `C++` was the token `c`: "C++ standard" found the C standard library's note as readily as the C++ one.
  const NOTES = [
    'The C standard library: stdio, stdlib and string functions, as every C compiler ships them.',
    'The C++ standard library: containers, iterators and algorithms, which every C++ compiler ships.',
    'Bindings for C# and F# programs, through the .NET runtime.',
    'Copyright (c) 2020 the authors (F. Smith); see the standard licence.',
  ];

  it.each([
    ['c++', [2]],
    ['C#', [3]],
    ['F#', [3]],
  ] as const)('finds only the note that names %s', (query, chunks) => {
    expect(keywordSearch(kbOf(NOTES), query, 10, null).map((h) => h.chunkId)).toEqual(chunks);
  });

  it('ranks the C++ note first for "C++ standard", the notes only "standard" after it', () => {
    expect(keywordSearch(kbOf(NOTES), 'C++ standard', 10, null).map((h) => h.chunkId)).toEqual([2, 4, 1]);
  });

  it('a search for C still finds C++ (its word stays a token)', () => {
    const hits = keywordSearch(kbOf(NOTES), 'C compiler', 10, null).map((h) => h.chunkId);
    expect(hits.slice(0, 2).sort()).toEqual([1, 2]);
  });
});

describe('section evidence', () => {
  // Chunk 1 and chunk 3 both say "lighthouse keeper"; only chunk 1's section goes on to the harbour.
  const PAGES = [['the lighthouse keeper wrote', 'the harbour master came'], ['the lighthouse keeper'], ['cats'], ['dogs']];

  it('ranks the chunk whose section answers the rest of the question above an equal or shorter one', () => {
    const db = kbOfSections(PAGES);
    const order = keywordSearch(db, 'lighthouse harbour', 10, null).map((h) => h.chunkId);
    expect(order.indexOf(1)).toBeLessThan(order.indexOf(3));
    // Chunks alone put the shorter chunk 3 first.
    const alone = keywordSearch(db, 'lighthouse harbour', 10, null, { sectionWeight: 0 }).map((h) => h.chunkId);
    expect(alone.indexOf(3)).toBeLessThan(alone.indexOf(1));
  });

  it('reads section evidence from the section index written at ingest, not from the page text', () => {
    const db = kbOfSections(PAGES);
    // Re-reading and tokenizing the section's text per query made the keyword stage 10× slower.
    db.prepare(`UPDATE pages SET text = ''`).run();
    const order = keywordSearch(db, 'lighthouse harbour', 10, null).map((h) => h.chunkId);
    expect(order.indexOf(1)).toBeLessThan(order.indexOf(3));
  });

  it('adds each candidate chunk its own section score, however many sections outrank that section', () => {
    // Three long sections say each word 15 times, once a chunk; the best chunk, the only one with both
    // words, is alone in its section, and that section is only the fourth best.
    const long = Array.from({ length: 30 }, (_, i) => (i % 2 ? 'harbour ropes' : 'lighthouse nets'));
    const others = ['cats', 'dogs', 'birds', 'fish', 'owls', 'bees', 'ants', 'moths'].map((t) => [t]);
    const db = kbOfSections([long, long, long, ['lighthouse harbour'], ...others]);
    const alone = keywordSearch(db, 'lighthouse harbour', 1, null, { sectionWeight: 0 });
    const withSections = keywordSearch(db, 'lighthouse harbour', 1, null);
    expect(alone.map((h) => h.chunkId)).toEqual([91]);
    expect(withSections.map((h) => h.chunkId)).toEqual([91]);
    const match = toIndexText('lighthouse harbour').split(' ').map((t) => `"${t}"`).join(' OR ');
    const section = db.prepare(`SELECT -bm25(sections_fts, 1, 2) FROM sections_fts WHERE sections_fts MATCH ? AND rowid = 4`).pluck().get(match) as number;
    expect(section).toBeGreaterThan(0.1);
    const ranked = db.prepare(`SELECT rowid FROM sections_fts WHERE sections_fts MATCH ? ORDER BY bm25(sections_fts, 1, 2)`).pluck().all(match);
    expect(ranked).toEqual([1, 2, 3, 4]);
    expect(withSections[0]!.score).toBeCloseTo(alone[0]!.score + 10 * section, 9);
  });

  it('keeps the section evidence inside the pages searched', () => {
    const db = kbOfSections(PAGES);
    const pageOf = (chunk: number) => db.prepare(`SELECT page_id FROM chunks WHERE id = ?`).pluck().get(chunk) as number;
    expect(keywordSearch(db, 'lighthouse harbour', 10, [pageOf(3)]).map((h) => h.chunkId)).toEqual([3]);
    expect(keywordSearch(db, 'lighthouse harbour', 10, [pageOf(1)]).map((h) => h.chunkId).sort()).toEqual([1, 2]);
  });
});

describe('the title decides the page, the text decides the passage', () => {
  /** One page titled `title`, one section and one chunk per text, plus unrelated pages. */
  function titledPage(title: string, texts: string[]): Database.Database {
    const db = openDatabase(path.join(tempDir(), 'kb.sqlite'), kbMigrations, 'test kb', { vectors: true });
    open.push(db);
    const text = texts.join('\n');
    let start = 0;
    const sections = texts.map((t, index) => ({ index, start, end: start + t.length, headingPath: [t.split(':')[0]!] }));
    const chunks = texts.map((t, index) => {
      const chunk = { index, sectionIndex: index, start, end: start + t.length, hash: `h${index}`, tokens: toIndexText(t) };
      start += t.length + 1;
      return chunk;
    });
    writePage(db, {
      folder: '/n', relPath: 'README.md', size: text.length, mtimeMs: 1, sha256: 's', path: 'wiki/README.md', title,
      doc: { kind: 'text', text, title, metadata: {}, headings: [], pages: null, language: null, encoding: 'utf-8' },
      titleTokens: toIndexText(title), pathTokens: toIndexText('README.md'), sections, chunks,
    });
    ['cats and dogs', 'the weather today', 'a recipe for bread'].forEach((t, n) => writePage(db, {
      folder: '/n', relPath: `${n}.md`, size: t.length, mtimeMs: 1, sha256: `o${n}`, path: `wiki/${n}.md`, title: `note ${n}`,
      doc: { kind: 'text', text: t, title: null, metadata: {}, headings: [], pages: null, language: null, encoding: 'utf-8' },
      titleTokens: toIndexText(`note ${n}`), pathTokens: '', sections: [{ index: 0, start: 0, end: t.length, headingPath: [] }],
      chunks: [{ index: 0, sectionIndex: 0, start: 0, end: t.length, hash: `o${n}`, tokens: toIndexText(t) }],
    }));
    return db;
  }

  // mammoth's README on a real folder: "docx to html" quoted "## Installation npm install mammoth".
  const SECTIONS = [
    'Installation: npm install mammoth',
    'Basic conversion: to convert an existing docx file to HTML, call convertToHtml with the path of the docx file and read the HTML it returns',
    'Images: by default images are included inline in the output',
  ];

  it('quotes the section about the question, not the shortest section of a page whose title matches', () => {
    const db = titledPage('Mammoth .docx to HTML converter', SECTIONS);
    const order = keywordSearch(db, 'docx to html', 10, null).map((h) => h.chunkId);
    expect(order[0]).toBe(2);
    // Scored with the title inside each chunk, the short Installation chunk came first.
    const old = keywordSearch(db, 'docx to html', 10, null, { textOrdersPage: false }).map((h) => h.chunkId);
    expect(old[0]).toBe(1);
  });

  it("picks a page's passage by the words its title lacks: \"dotenv override\" finds the override option", () => {
    // dotenv's README: the Examples chunk says "dotenv" most; the question is about `override`.
    const db = titledPage('dotenv', [
      'Examples: see examples of using dotenv with dotenv-expand, dotenv-vault, dotenv in docker and dotenv in nodejs',
      'override: default false. Override any environment variables that have already been set',
      'Install: npm install dotenv --save',
    ]);
    expect(keywordSearch(db, 'dotenv override', 10, null).map((h) => h.chunkId)[0]).toBe(2);
  });

  it('keeps the order of pages: a page ranks by its best score, whichever chunk carries it', () => {
    const db = titledPage('Mammoth .docx to HTML converter', SECTIONS);
    const score = (opts: { textOrdersPage?: boolean }) => keywordSearch(db, 'docx to html', 10, null, opts).map((h) => h.score);
    expect(score({})).toEqual(score({ textOrdersPage: false }));
  });
});

describe('function words', () => {
  // beir-mini (electron/core/eval/testdata): in six notes "to" is as rare as E_CONN_RESET.
  const NOTES_MINI = [
    'Connection resets at the gateway. Clients see E_CONN_RESET when the gateway closes idle keep-alive connections.',
    'Retry policy. Retry a failed request three times with backoff. Errors such as E_CONN_RESET and E_TIMEOUT are safe to retry.',
    '缓存过期 缓存的过期时间设置为十分钟，过期后从数据库重新加载。',
    'Chat API. POST v1/chat sends a message and streams the answer. Every call to v1/chat needs a bearer token.',
    'Access tokens. Ask v2/auth/token for a token. A token expires one hour after it was issued; refresh it before then.',
    'Sessions. Sessions last eight hours; then people sign in again.',
  ];

  it('ranks a chunk naming the identifier above one sharing only a function word with the question', () => {
    const db = kbOf(NOTES_MINI);
    const order = keywordSearch(db, 'is E_CONN_RESET safe to retry', 10, null).map((h) => h.chunkId);
    expect(order.slice(0, 2)).toEqual([2, 1]);
    expect(order).not.toContain(4);
  });

  it('leaves function words out only while other terms remain', () => {
    const db = kbOf(NOTES_MINI);
    expect(distinctiveTerms(db, 'when does a token expire')).toEqual(['token', 'expir']);
    expect(distinctiveTerms(db, 'what is it')).toEqual(['what', 'is', 'it']);
    expect(distinctiveTerms(db, 'token vs expire')).toEqual(['token', 'expir']);
    expect(FUNCTION_WORDS).not.toContain('not');
  });
});

describe('phrases', () => {
  // Debian's docs: a short Perl example with the words apart outranked Valgrind's "Invalid read of size 4".
  const APART = 'if bytes_read != 4 then die with invalid packet and read the pkt_size again';
  const PHRASE =
    'Illegal read / Illegal write errors. For example: Invalid read of size 4 at 0x40F6BBCC: (within /usr/lib/libpng.so) ' +
    'by 0x40F6B804: (within /usr/lib/libpng.so). This happens when your program reads or writes memory at a place ' +
    'which Memcheck reckons it should not. In this example, the program did a 4-byte read at an address in a library.';
  const OTHERS = ['invalid size of the read buffer: 4 bytes', 'read size 4, invalid', 'the log rotates daily'];

  it('puts the chunk holding the query as written above chunks with its words apart', () => {
    const db = kbOf([APART, PHRASE, ...OTHERS]);
    const order = keywordSearch(db, 'Invalid read of size 4', 10, null).map((h) => h.chunkId);
    expect(order[0]).toBe(2);
    // the rest keep their order by bm25: the short chunks with the words apart next
    expect(order.slice(1)).toEqual(keywordSearch(db, 'Invalid read size 4 of', 10, null).map((h) => h.chunkId).filter((id) => id !== 2));
  });

  it('finds the chunk holding the phrase when bm25 leaves it out of the candidates', () => {
    const db = kbOf([APART, ...OTHERS, PHRASE]);
    expect(keywordSearch(db, 'invalid read size 4', 1, null).map((h) => h.chunkId)).not.toEqual([5]);
    expect(keywordSearch(db, 'Invalid read of size 4', 1, null).map((h) => h.chunkId)).toEqual([5]);
    // inside a scope that leaves it out, it is not found
    const pageOf = (chunk: number) => db.prepare('SELECT page_id FROM chunks WHERE id = ?').pluck().get(chunk) as number;
    const scope = [pageOf(1), pageOf(2)];
    const inScope = keywordSearch(db, 'Invalid read of size 4', 1, scope).map((h) => h.chunkId);
    expect(inScope).toHaveLength(1);
    expect(inScope).toEqual(keywordSearch(db, 'invalid read size 4', 1, scope).map((h) => h.chunkId));
  });

  it('takes the quoted words as the phrase', () => {
    const db = kbOf(['the write was invalid, so the heap block moved', 'Invalid write of size 8 past a heap block', 'heap block heap block']);
    expect(keywordSearch(db, 'heap block "invalid write"', 10, null)[0]!.chunkId).toBe(2);
    expect(keywordSearch(db, 'heap block invalid write', 10, null)[0]!.chunkId).not.toBe(2);
  });
});

describe('common terms in a large knowledge base', () => {
  // 10,000 notes (COMMON_TERMS_FROM): "ledger" is in 400 of them (4 %, above SCORING_ONLY_SHARE), so it only adds to
  // the scores of the notes "quorum" finds; "quorum" is in 8, half of them with "ledger".
  const QUORUM = ['quorum ledger ledger', 'quorum lost', 'quorum ledger and a long tail of other words here', 'quorum quorum',
    'quorum ledger', 'a quorum of words that goes on', 'the quorum reads a ledger', 'quorum'];
  function largeKb(): Database.Database {
    const texts = Array.from({ length: 10_000 }, (_, n) => (n < 400 ? `ledger entry ${n}` : `filler note ${n}`));
    QUORUM.forEach((text, n) => (texts[1000 + n * 7] = text));
    const db = kbOf([]);
    db.transaction(() => texts.forEach((text, n) => writePage(db, onePage(n, text))))();
    return db;
  }

  it('scores the chunks the rare term finds over every term, as bm25 of all the terms would, and no chunk it does not find', () => {
    const db = largeKb();
    expect(stageTerms(db, keywordTerms(db, 'quorum ledger'))).toMatchObject({ choosing: ['quorum'], scoring: ['ledger'] });
    // bm25 of the plain OR over every row, the reference: all 8 notes with "quorum" and the 400 with "ledger"
    const all = db
      .prepare(`SELECT rowid AS chunkId, -bm25(chunks_fts, 1, 4, 2) AS score FROM chunks_fts WHERE chunks_fts MATCH '"quorum" OR "ledger"'`)
      .all() as { chunkId: number; score: number }[];
    const quorum = new Set((db.prepare(`SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH 'quorum'`).pluck().all() as number[]));
    const expected = all.filter((r) => quorum.has(r.chunkId)).sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
    const plain = { sectionWeight: 0, textOrdersPage: false, namedPagesFirst: false };
    for (const limit of [3, 5, 10]) {
      const hits = keywordSearch(db, 'quorum ledger', limit, null, plain);
      expect(hits.map((h) => h.chunkId)).toEqual(expected.slice(0, limit).map((r) => r.chunkId));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 9));
    }
  });
});
