/**
 * A page the query names comes first (titles.ts), on a real knowledge-base file: the page titled CMP0077 above
 * the list of policies that mentions CMP0077 twice in a short section, as on CMake's help.
 */
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { kbMigrations } from '../store/migrations/kb';
import { openDatabase } from '../store/open';
import { tempDir } from '../testing/temp';
import { toIndexText } from '../text/tokenize';
import { keywordSearch } from './keyword';
import { writeChunkedPages } from './testing/chunked-pages';
import { pagesNamed } from './titles';
import { keywordKbForTests } from './testing/test-kb';

const open: Database.Database[] = [];
afterEach(() => open.splice(0).forEach((db) => db.close()));

/** Pages given as [title, texts of their chunks], one section each; page n's chunks get ids in order. */
function kbOf(pages: [string, string[]][]): Database.Database {
  const db = openDatabase(path.join(tempDir(), 'kb.sqlite'), kbMigrations, 'test kb', { vectors: true });
  open.push(db);
  writeChunkedPages(db, pages.map(([title, texts], n) => ({
    texts, title, relPath: `${n}.rst`, titleTokens: toIndexText(title), pathTokens: toIndexText(`${n}.rst`), docTitle: title, headingPath: [title],
  })));
  return db;
}

const POLICY = [
  'CMP0077: option() honors normal variables. The option command is typically used to create a cache entry to allow users to set the option.',
  'However, there are cases in which a normal variable of the same name as the option may be defined by the project prior to calling the option command.',
  'For historical reasons in CMake 3.12 and below the option command removes a normal variable of the same name when a cache entry does not exist.',
  'Use CMAKE_POLICY_DEFAULT_CMP0077 to set CMP0077.',
];
const PAGES: [string, string[]][] = [
  ['cmake-policies(7)', ['Policies introduced by CMake 3.13: CMP0077 option() honors normal variables </policy/CMP0077>, CMP0076 target_sources.']],
  ['CMP0077', POLICY],
  ['CMP0076', ['CMP0076: the target_sources() command converts relative paths to absolute.']],
  ['RRF', ['Reciprocal rank fusion adds one over sixty plus the rank of each list.']],
  ['Fusion notes', ['RRF, or RRF-style fusion: we use RRF for every hybrid search.']],
];
const chunkOf = (page: number, index = 0) => PAGES.slice(0, page).reduce((n, [, texts]) => n + texts.length, 0) + index + 1;

describe('a page the query names comes first', () => {
  it('puts the page titled CMP0077 above the list that mentions it twice, and only its opening chunk', () => {
    const db = kbOf(PAGES);
    const without = keywordSearch(db, 'CMP0077', 10, null, { namedPagesFirst: false }).map((h) => h.chunkId);
    expect(without[0]).toBe(chunkOf(0));
    const order = keywordSearch(db, 'CMP0077', 10, null).map((h) => h.chunkId);
    expect(order[0]).toBe(chunkOf(1, 0));
    expect(order[1]).toBe(chunkOf(0));
  });

  it('reads a Chinese question by its term: "RRF 是什么意思？" names the page RRF', () => {
    const db = kbOf(PAGES);
    expect(keywordSearch(db, 'RRF 是什么意思？', 10, null, { namedPagesFirst: false })[0]!.chunkId).toBe(chunkOf(4));
    expect(keywordSearch(db, 'RRF 是什么意思？', 10, null)[0]!.chunkId).toBe(chunkOf(3));
  });

  it('names a page only by its whole title, function words aside', () => {
    const db = kbOf(PAGES);
    const ids = [1, 2, 3, 4, 5];
    expect([...pagesNamed(db, 'the CMP0077', ids)]).toEqual([2]);
    expect([...pagesNamed(db, 'CMP0077 option', ids)]).toEqual([]);
    expect([...pagesNamed(db, 'fusion', ids)]).toEqual([]);
    expect([...pagesNamed(db, 'notes on fusion', ids)]).toEqual([5]);
    expect([...pagesNamed(db, 'a b c d e f g', ids)]).toEqual([]);
  });

  it('names a page titled by an identifier by its words: "unity build" names UNITY_BUILD', () => {
    const db = kbOf([
      ['UNITY_BUILD_CODE_AFTER_INCLUDE', ['Code snippet included after each source file of a unity build: unity build unity build.']],
      ['UNITY_BUILD', ['When this property is set to true, the target source files are combined into batches.']],
      ['api-gateway', ['The gateway in front of every service.']],
    ]);
    expect([...pagesNamed(db, 'unity build', [1, 2, 3])]).toEqual([2]);
    expect([...pagesNamed(db, 'UNITY_BUILD', [1, 2, 3])]).toEqual([2]);
    expect([...pagesNamed(db, 'api gateway', [1, 2, 3])]).toEqual([3]);
    expect([...pagesNamed(db, 'unity', [1, 2, 3])]).toEqual([]);
    expect(keywordSearch(db, 'unity build', 10, null, { namedPagesFirst: false })[0]!.chunkId).toBe(1);
    expect(keywordSearch(db, 'unity build', 10, null)[0]!.chunkId).toBe(2);
    expect([...pagesNamed(db, 'CMP0077', [])]).toEqual([]);
  });
});

describe('the opening of a page the query names', () => {
  // rustdoc's page for an old link to the Rust book: a version sticker, then the page's heading and text.
  const OLD_LINK = `<!DOCTYPE html><html><head><title>Ownership</title></head><body>
<div id="versioninfo"><span class="white-sticker"><a href="https://www.rust-lang.org">Rust</a> 1.95.0</span><br>
<a href="https://github.com/rust-lang/rust/commit/59807616e" class="hash white-sticker">59807616e</a></div>
<h1 class="title">Ownership</h1>
<p><small>There is a new edition of the book and this is an old link.</small></p>
<blockquote><p>Ownership is Rust’s most unique feature, and it enables Rust to make memory safety guarantees without needing a garbage collector.</p></blockquote>
</body></html>`;
  const kb = keywordKbForTests('named openings', {
    'book/ownership.html': OLD_LINK,
    'book/ch04.md': '# Understanding Ownership\n\nOwnership is a set of rules that govern how a Rust program manages memory.\n',
  });

  it('is the first chunk whose text holds a term, not the chrome above its heading', async () => {
    const result = await kb.keyword('what is ownership');
    expect(result.passages[0]?.pagePath).toBe('wiki/book/ownership.html');
    expect(result.passages[0]?.text).toContain('Ownership is Rust’s most unique feature');
  });
});
