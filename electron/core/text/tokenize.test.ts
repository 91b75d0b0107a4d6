/*
 * Throughput, measured once on this machine (Node 20, 2 cores) with 10 M characters of repeated
 * sample text through toIndexText: English with identifiers ≈ 11–12 MB/s, mixed Chinese/English
 * ≈ 4 MB/s, pure Chinese ≈ 2.5 MB/s (UTF-8). Chinese is bound by ICU's word segmenter itself
 * (≈ 1.4 M characters/s on its own). With the ASCII word loop and joint segmentation of CJK runs,
 * every chunk, title and path of the 10k-note benchmark corpus (46.3 M characters) takes 7.9 s of
 * CPU instead of 12.2 s; what remains is half Intl.Segmenter (≈ 0.5 µs per segment it returns).
 * No timed assertion here: timing belongs to the benchmark.
 */
import Database from 'better-sqlite3';
import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { americanSpelling } from './spelling';
import { MAX_TOKEN_LENGTH, TOKEN_CHARS, isCjkToken, queryTerms, queryWords, toIndexText, tokenize, wordTokens } from './tokenize';

describe('tokenize', () => {
  // [description, input, tokens that must appear, tokens that must not]
  const cases: [string, string, string[], string[]][] = [
    ['full-width letters and digits are NFKC-folded', 'ＡＢＣ１２', ['abc12'], ['ＡＢＣ１２']],
    ['case is folded', 'Hello WORLD', ['hello', 'world'], ['Hello', 'WORLD']],
    ['English words are Porter-stemmed', 'connections retrying', [stemmer('connections'), stemmer('retrying')], ['connections']],
    ['a Chinese word split by the segmenter is still found as a bigram', '连接超时重试', ['连接', '超时', '重试'], []],
    ['bigrams overlap', '网络配置', ['网络', '络配', '配置'], []],
    ['Japanese runs use the same segmenter', '東京に行きます', ['東京', '行き'], []],
    ['Korean runs give bigrams', '안녕하세요', ['안녕', '하세'], []],
    ['full-width CJK punctuation separates runs', '超时，重试。', ['超时', '重试'], ['时重', '，', '。']],
    ['an identifier is kept whole and split', 'E_CONN_RESET', ['e_conn_reset', 'e', 'conn', 'reset'], []],
    ['a slash identifier', 'v1/chat', ['v1/chat', 'v1', 'chat'], []],
    ['a hyphenated term (parts stemmed)', 'api-gateway', ['api-gateway', 'api', stemmer('gateway')], []],
    ['dots and underscores', 'foo.bar_baz', ['foo.bar_baz', 'foo', 'bar', 'baz'], []],
    ['a protocol version', 'HTTP/1.1', ['http/1.1', 'http', '1'], []],
    ['hex stays one token', '0x1F', ['0x1f'], ['0', 'x1f']],
    ['camelCase parts', 'getUserName', ['getusername', 'get', 'user', 'name'], []],
    ['acronym then word', 'HTTPServer', ['httpserver', 'http', 'server'], []],
    ['a plural acronym is not split', 'APIs', ['api'], ['ap', 'is']],
    ['trailing sentence punctuation is not part of an identifier', 'see api-gateway.', ['see', 'api-gateway'], ['api-gateway.']],
    ['a version at the end of a sentence', 'use HTTP/1.1.', ['http/1.1'], ['http/1.1.']],
    ['a URL path loses its leading slash', '/api/v1/chat', ['api/v1/chat', 'api', 'v1', 'chat'], ['/api/v1/chat']],
    ['an email address', 'ops@example.com', ['ops@example.com', 'op', stemmer('example'), 'com'], []],
    ['apostrophes join a word', "don't user’s", ['dont', 'user'], ['don', 't', 's']],
    ['dotted capital I folds without a combining mark', 'İstanbul', ['istanbul'], ['i̇stanbul']],
    ['decomposed accents are composed', 'cafe\u0301 naïve', ['café', 'naïve'], ['cafe']],
    ['a supplementary-plane ideograph run', '𠀀𠀁𠀂', ['𠀀', '𠀀𠀁', '𠀁𠀂'], []],
    ['keycaps and circled digits become digits', '1️⃣ ①', ['1'], []],
    ['a stray combining mark after a connector is not a word part', 'abc@\u0301 x', ['abc', 'x'], ['abc@']],
  ];
  it.each(cases)('%s', (_name, input, present, absent) => {
    const tokens = tokenize(input);
    for (const token of present) expect(tokens).toContain(token);
    for (const token of absent) expect(tokens).not.toContain(token);
  });

  // Exact outputs, where the whole list matters.
  const exact: [string, string, string[]][] = [
    ['empty text', '', []],
    ['only emoji and symbols', '🙂👍🏽 👨‍👩‍👧 ★ → © ™', ['tm']],
    ['emoji around a Chinese word', '🙂👍🏽 家庭 👨‍👩‍👧', ['家庭']],
    ['one CJK character alone is one token', '时', ['时']],
    ['a two-character word is counted once', '超时', ['超', '时', '超时']],
    ['plain identifier without stemming of the whole', 'E_CONN_RESET', ['e_conn_reset', 'e', 'conn', 'reset']],
    ['names written with symbols get a token of their own', 'C++17, g++ and libstdc++; C# or F#.',
      ['cplusplus', 'c', '17', 'gplusplus', 'g', 'and', 'libstdcplusplus', 'libstdc', 'csharp', 'c', 'or', 'fsharp', 'f']],
    ['C++ inside Chinese text', '用C++写', ['用', 'cplusplus', 'c', '写']],
    ['symbols that do not make a name', 'i+++j C++x index.html#top item#1 #12 C#7 ab#',
      ['i', 'j', 'c', 'x', 'index.html', 'index', 'html', 'top', 'item', '1', '12', 'c', '7', 'ab']],
    [
      'mixed Chinese and identifiers',
      '使用api-gateway时出现E_CONN_RESET错误',
      ['使用', 'api-gateway', 'api', 'gatewai', '时', '出现', '时出', 'e_conn_reset', 'e', 'conn', 'reset', '错误'],
    ],
  ];
  it.each(exact)('%s', (_name, input, expected) => {
    expect(tokenize(input)).toEqual(expected);
  });

  it('drops tokens longer than MAX_TOKEN_LENGTH but keeps the parts of a long identifier', () => {
    const long = 'a'.repeat(MAX_TOKEN_LENGTH + 1);
    expect(tokenize(`${long} ok`)).toEqual(['ok']);
    const path = `${'segment'.repeat(12)}/leaf`;
    expect(tokenize(path)).toEqual([stemmer('segment'.repeat(12)), 'leaf']);
  });

  it('yields only letters, digits and TOKEN_CHARS, never at the edges, for arbitrary text', () => {
    const allowed = new RegExp(`^[\\p{L}\\p{N}${TOKEN_CHARS.replace(/[-\\/]/g, '\\$&')}]+$`, 'u');
    const edge = new RegExp(`^[${TOKEN_CHARS.replace(/[-\\/]/g, '\\$&')}]|[${TOKEN_CHARS.replace(/[-\\/]/g, '\\$&')}]$`);
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const text of randomTexts(300)) {
      for (const token of tokenize(text)) {
        expect(token, JSON.stringify(text)).toMatch(allowed);
        expect(token).not.toMatch(edge);
        expect(token).not.toMatch(lone);
        expect(token).toBe(token.toLowerCase());
        expect(token.length).toBeLessThanOrEqual(MAX_TOKEN_LENGTH);
      }
    }
  });
});

describe('tokenize: the fast paths give what the general rules give', () => {
  // Exact outputs at the edges of the ASCII word loop (hand-over to the pattern at non-ASCII
  // characters), the ASCII identifier splitting and the joint segmentation of CJK runs.
  const exact: [string, string, string[]][] = [
    ['full-width letters next to ASCII identifiers', 'ＡＢＣ_def ａｐｉ-gateway', ['abc_def', 'abc', 'def', 'api-gateway', 'api', 'gatewai']],
    ['a curly apostrophe and precomposed letters after ASCII', 'HTTPServer’s naïve café', ['httpservers', 'http', 'server', 'naïve', 'café']],
    ['a combining mark inside an ASCII word', 'ab\u0301c-d', ['abc-d', 'abc', 'd']],
    ['a mark after a connector does not extend the word', 'a-\u0301b', ['a', 'b']],
    ['dotted capital I starts an identifier', 'İstanbul_Road', ['istanbul_road', 'istanbul', 'road']],
    ['camel case right before a CJK run', 'getUserName超时', ['getusername', 'get', 'user', 'name', '超', '时', '超时']],
    ['camel case right after a CJK run', '超时getUserName', ['超', '时', '超时', 'getusername', 'get', 'user', 'name']],
    ['a connector between ASCII and CJK joins nothing', 'api-网关', ['api', '网', '关', '网关']],
    ['connectors at the edges of a run', '-超时-', ['超', '时', '超时']],
    ['a trailing connector after a run', '超时_', ['超', '时', '超时']],
    ['an identifier, full-width comma, run, ideographic full stop', 'E_CONN_RESET，超时。', ['e_conn_reset', 'e', 'conn', 'reset', '超', '时', '超时']],
    ['a supplementary ideograph before a run', '𠀀超时', ['𠀀', '超', '时', '𠀀超', '超时']],
    ['a supplementary ideograph after a run', '超时𠀁', ['超', '时', '𠀁', '超时', '时𠀁']],
    ['a supplementary ideograph between ASCII words', 'abc𠀀def', ['abc', '𠀀', 'def']],
    ['an ASCII apostrophe joins, a left quote does not', "don't‘s", ['dont', 's']],
    ['a curly apostrophe between ASCII letters', 'x’y', ['xy']],
    ['two capitals then a word', 'aBCde', ['abcde', 'a', 'b', 'cde']],
    ['acronyms inside camel case', 'XMLHttpRequest', ['xmlhttprequest', 'xml', 'http', 'request']],
    ['connectors and camel case together, parts distinct', 'foo_barBaz-Qux2', ['foo_barbaz-qux2', 'foo', 'barbaz', 'bar', 'baz', 'qux2']],
    ['dots between digits', 'v1.2.3', ['v1.2.3', 'v1', '2', '3']],
    ['connectors at both ends are not part of the word', '__init__', ['init']],
    ['capitalised and upper-case words are stemmed like lower-case ones', 'It’s The RUNNING Runners', ['it', 'the', 'run', 'runner']],
    ['half-width katakana after an ASCII word', 'ok-ﾊﾝｶｸ', ['ok', 'ハン', 'カク', 'ンカ']],
    ['several runs of one text', '超时，重试，连接，超时', ['超', '时', '超时', '重', '试', '重试', '连接', '超', '时', '超时']],
    ['a non-ASCII letter after a connector continues the identifier', 'foo-été_x', ['foo-été_x', 'foo', 'été', 'x']],
    ['a host and port before a run', 'db.example.com:5432/超时', ['db.example.com:5432', 'db.example.com', 'db', 'exampl', 'com', '5432', '超', '时', '超时']],
    // The joined names inside a longer identifier are tokens too: a search for the name finds where it is written.
    ['a module name after a scheme', 'node:worker_threads', ['node:worker_threads', 'worker_threads', 'node', 'worker', 'thread']],
    ['an error code after an object', 'errors.E_CONN_RESET', ['errors.e_conn_reset', 'e_conn_reset', 'error', 'e', 'conn', 'reset']],
    ['a file name in a path', 'nodejs/api/worker_threads.md', ['nodejs/api/worker_threads.md', 'worker_threads.md', 'worker_threads', 'nodej', 'api', 'worker', 'thread', 'md']],
    ['a mail domain, a package and its module', 'me@my-site.org @scope/some-pkg', ['me@my-site.org', 'my-site.org', 'my-site', 'me', 'my', 'site', 'org', 'scope/some-pkg', 'some-pkg', 'scope', 'some', 'pkg']],
    ['no names of one word or starting with a digit', 'fs.promises.readFile v1.2-beta', ['fs.promises.readfile', 'fs', 'promis', 'readfile', 'read', 'file', 'v1.2-beta', 'v1', '2', 'beta']],
    ['a non-ASCII identifier gives its joined names too', 'café.au_lait', ['café.au_lait', 'au_lait', 'café', 'au', 'lait']],
  ];
  it.each(exact)('%s', (_name, input, expected) => {
    expect(tokenize(input)).toEqual(expected);
  });

  it('gives every CJK run its segmenter words and bigrams, however many runs a text has', () => {
    const codePoints = [...'超时重试连接网络配置的我们需要已经东京に行きますカタカナー안녕하세요𠀀𠀁丽㐀〇々'];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let t = 0; t < 200; t++) {
      // Mostly short runs (segmented together), now and then one longer than a segmenter piece.
      const runs = Array.from({ length: 1 + (next() % 40) }, () => {
        const length = next() % 7 === 0 ? 200 + (next() % 700) : 1 + (next() % 30);
        return Array.from({ length }, () => codePoints[next() % codePoints.length]).join('');
      });
      const separators = ['，', ' ', '-', '🙂', '。\n', ' x '];
      // A supplementary character right where a long run is cut into pieces.
      if (t % 10 === 0) runs.push(`${'中'.repeat(511)}𠀀${'文'.repeat(t)}`);
      const text = runs.map((run, i) => (i === 0 ? run : separators[next() % separators.length] + run)).join('');
      const together = tokenize(text).filter((token) => token !== 'x');
      expect(together, text).toEqual(runs.flatMap(cjkRule));
    }
  });

  it('gives the same tokens again for a text seen before, and never shares the arrays it returns', () => {
    // Consecutive texts share runs (chunk overlap), which the tokenizer remembers.
    const text = '超时之后会重试三次，连接池 connection_pool 已满';
    const first = tokenize(text);
    const expected = [...first];
    expect(expected).toContain('connection_pool');
    first.length = 0;
    first.push('changed');
    expect(tokenize(text)).toEqual(expected);
    const overlap = tokenize('重试三次，连接池');
    overlap.fill('changed');
    expect(tokenize(text)).toEqual(expected);
    expect(tokenize('重试三次，连接池')).toEqual([...tokenize('重试三次'), ...tokenize('连接池')]);
  });

  it('gives, without segmenting, exactly the tokens that do not come from CJK runs (wordTokens)', () => {
    const texts = [
      '超时之后会重试三次，连接池 connection_pool 已满 (E_CONN_RESET)',
      'Ｆｕｌｌ-width ＡＢＣ１２ 与 东京に行きます and 안녕하세요 getUserName',
      'café naïve İstanbul 𠀀丽 v1.2-beta 中文node:worker_threads',
      'plain ASCII only, with api/v1/chat and 3.14',
      '',
    ];
    for (const text of texts) {
      const all = tokenize(text);
      expect(wordTokens(text), text).toEqual(all.filter((t) => !isCjkToken(t)));
      expect(all.filter(isCjkToken).every((t) => /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+$/u.test(t))).toBe(true);
    }
    expect(wordTokens('连接池 connection_pool 已满')).toEqual(['connection_pool', 'connect', 'pool']);
    expect(['超时', '东京', 'に行', '안녕'].every(isCjkToken)).toBe(true);
    expect(['pool', 'café', '12', 'connection_pool'].some(isCjkToken)).toBe(false);
  });

  it('handles an ASCII word exactly as the general word rule does', () => {
    // `“` before a word makes the tokenizer find that word with its general pattern; alone, the
    // word goes through the ASCII loop. Both must agree for every kind of ASCII identifier.
    const parts = ['a', 'Z', 'Ab', 'aB', 'ABc', 'ABcd', 'abc', 'running', '0', '9', '_', '-', '.', '/', ':', '@', "'", ',', 'tion', 's', 'é', 'Ω', '’'];
    let seed = 11;
    const next = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let t = 0; t < 3000; t++) {
      const word = Array.from({ length: 1 + (next() % 12) }, () => parts[next() % parts.length]).join('');
      expect(tokenize(`“${word}`), word).toEqual(tokenize(word));
    }
  });

  it('stems every plain word like the stemmer (after the spelling fold), however many distinct words come by', () => {
    // Every word of 3 to 8 letters over a 4-letter alphabet: more distinct words than the stem
    // memo has slots, and each word is a prefix of many others, so memo slots are shared often.
    const words: string[] = [];
    const grow = (word: string): void => {
      if (word.length >= 3) words.push(word);
      if (word.length < 8) for (const letter of 'aein') grow(word + letter);
    };
    grow('');
    words.push('haemorrhage', 'tumours', 'centre', 'randomised', 'analysed', 'catalogue');
    for (const order of [1, 7919, 104729]) {
      for (let i = 0; i < words.length; i++) {
        const word = words[(i * order) % words.length]!;
        expect(toIndexText(`${word} x`)).toBe(`${stemmer(americanSpelling(word))} x`);
      }
    }
  });
});

describe('toIndexText and queryTerms', () => {
  it('joins tokens with single spaces', () => {
    expect(toIndexText('Retry the E_CONN_RESET, 超时!')).toBe('retri the e_conn_reset e conn reset 超 时 超时');
    expect(toIndexText('')).toBe('');
  });

  it('gives distinct terms in first-appearance order', () => {
    expect(queryTerms('reset E_CONN_RESET reset 超时 超时')).toEqual(['reset', 'e_conn_reset', 'e', 'conn', '超', '时', '超时']);
    expect(queryTerms('🙂 !!')).toEqual([]);
  });
});

describe('queryWords', () => {
  const words = (q: string) => queryWords(q).map((w) => [w.text, w.term, w.parts.join(' '), w.identifier]);

  it('keeps an identifier whole, with only its parts that can stand in for it', () => {
    expect(words('E_CONN_RESET')).toEqual([['E_CONN_RESET', 'e_conn_reset', 'conn reset', true]]);
    // dLNs once became dlns + d + ln: one letter is no search term.
    expect(words('dLNs')).toEqual([['dLNs', 'dlns', 'ln', true]]);
    expect(words('v1.2 v2/auth/token')).toEqual([['v1.2', 'v1.2', 'v1', true], ['v2/auth/token', 'v2/auth/token', 'v2 auth token', true]]);
    expect(words('step_10_20')).toEqual([['step_10_20', 'step_10_20', 'step', true]]);
  });

  it('gives an identifier the spellings other languages give its name', () => {
    const spellings = (q: string) => queryWords(q).map((w) => w.spellings ?? []);
    expect(spellings('E_CONN_RESET max_retries maxRetries getHTTPResponse')).toEqual([['econnreset'], ['maxretries'], ['max_retries'], ['get_http_response']]);
    // None for a name with no other spelling, a code with other connectors, or a plain word.
    expect(spellings('ECONNRESET sha256 v1.2 v2/auth/token step__10 _private reset')).toEqual([[], [], [], [], [], [], []]);
  });

  it('marks codes without connectors as identifiers, and plain words as words', () => {
    expect(words('ENOSPC sha256 OOMKilled the connections')).toEqual([
      ['ENOSPC', 'enospc', '', true], ['sha256', 'sha256', '', true], ['OOMKilled', 'oomkilled', 'oom kill', true],
      ['the', 'the', '', false], ['connections', 'connect', '', false],
    ]);
  });

  it('splits a hyphenated compound into its words, each marked with the compound', () => {
    expect(words('T-cell HIV-1 iPSC-derived')).toEqual([
      ['T', 't', '', false], ['cell', 'cell', '', false], ['HIV', 'hiv', '', true], ['1', '1', '', false],
      ['iPSC', 'ipsc', 'psc', true], ['derived', 'deriv', '', false],
    ]);
    expect(queryWords('T-cell').map((w) => w.compound)).toEqual([{ text: 'T-cell', term: 't-cell', phrase: ['t', 'cell'] }, { text: 'T-cell', term: 't-cell', phrase: ['t', 'cell'] }]);
    expect(queryWords('iPSC-derived')[0]!.compound).toEqual({ text: 'iPSC-derived', term: 'ipsc-derived', phrase: ['ipsc', 'i', 'psc', 'deriv'] });
    // Other connectors keep a code whole; the plain words of a query have no compound.
    expect(words('v1.2-beta')).toEqual([['v1.2-beta', 'v1.2-beta', 'v1 beta', true]]);
    expect(queryWords('api gateway').map((w) => w.compound)).toEqual([undefined, undefined]);
  });

  it('takes a name written with symbols whole', () => {
    expect(queryWords('C++ standard, libstdc++ and C#').map((w) => [w.text, w.term, w.parts])).toEqual([
      ['C++', 'cplusplus', []], ['standard', 'standard', []], ['libstdc++', 'libstdcplusplus', ['libstdc']],
      ['and', 'and', []], ['C#', 'csharp', []],
    ]);
  });

  it('gives CJK tokens as plain words and leaves out repeats', () => {
    expect(words('超时 超时 reset')).toEqual([['超', '超', '', false], ['时', '时', '', false], ['超时', '超时', '', false], ['reset', 'reset', '', false]]);
  });
});

describe('FTS5 round trip', () => {
  const docs = [
    '连接超时后客户端会重试三次。',
    'The gateway closed connections with E_CONN_RESET under load.',
    'POST to /api/v1/chat streams tokens; see the api-gateway docs.',
    '使用api-gateway时出现E_CONN_RESET错误',
    'Nothing to see here: a plain note about lunch.',
    'The e_conn flag is different.',
  ];

  function openIndex(): Database.Database {
    const db = new Database(':memory:');
    db.exec(
      `CREATE VIRTUAL TABLE t USING fts5(body, tokenize = "unicode61 remove_diacritics 0 tokenchars '${TOKEN_CHARS}'")`,
    );
    const insert = db.prepare('INSERT INTO t(rowid, body) VALUES (?, ?)');
    docs.forEach((doc, i) => insert.run(i + 1, toIndexText(doc)));
    return db;
  }

  function search(db: Database.Database, match: string): number[] {
    const rows = db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid').all(match) as { rowid: number }[];
    return rows.map((r) => r.rowid);
  }

  const orQuery = (q: string): string => queryTerms(q).map((t) => `"${t}"`).join(' OR ');

  it('stores every token whole: the FTS5 vocabulary is exactly our tokens', () => {
    const db = openIndex();
    db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')");
    const vocab = (db.prepare('SELECT term FROM v').all() as { term: string }[]).map((r) => r.term).sort();
    const ours = [...new Set(docs.flatMap(tokenize))].sort();
    expect(vocab).toEqual(ours);
  });

  // [query, rows it must find, rows it must not find]
  const queries: [string, number[], number[]][] = [
    ['超时', [1], [2, 3, 5]],
    ['E_CONN_RESET', [2, 4], [5]],
    ['api-gateway', [3, 4], [5]],
    ['v1/chat', [3], [5]],
    ['connection', [2], [5]],
  ];
  it.each(queries)('%s finds the right rows', (q, found, notFound) => {
    const rows = search(openIndex(), orQuery(q));
    for (const row of found) expect(rows).toContain(row);
    for (const row of notFound) expect(rows).not.toContain(row);
  });

  it('ranks the whole identifier first', () => {
    const db = openIndex();
    const top = db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 2').all(orQuery('E_CONN_RESET')) as {
      rowid: number;
    }[];
    expect(top.map((r) => r.rowid).sort()).toEqual([2, 4]);
  });

  it('e_conn is not a prefix match of e_conn_reset as a whole token; it reaches it only through parts', () => {
    const db = openIndex();
    // The whole token alone finds only the document that really says e_conn.
    expect(search(db, '"e_conn"')).toEqual([6]);
    // The OR of all query terms (whole + parts `e`, `conn`) also reaches E_CONN_RESET documents.
    expect(search(db, orQuery('e_conn'))).toEqual([2, 4, 6]);
  });
});

/**
 * The CJK rule written plainly, as the spec for the tokenizer's batched version: the segmenter's
 * words of each 512-unit piece of the run, then every bigram that is not already a two-character
 * word at the same place.
 */
function cjkRule(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return [run];
  const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
  const tokens: string[] = [];
  const twoCharWordAt = new Set<number>();
  for (let from = 0; from < run.length; ) {
    let to = Math.min(run.length, from + 512);
    if (to < run.length && /[\uDC00-\uDFFF]/.test(run[to]!)) to--;
    for (const s of segmenter.segment(run.slice(from, to))) {
      if (s.isWordLike === false) continue;
      if (s.segment.length <= MAX_TOKEN_LENGTH) tokens.push(s.segment);
      if ([...s.segment].length === 2) twoCharWordAt.add(from + s.index);
    }
    from = to;
  }
  for (let i = 0, at = 0; i + 1 < chars.length; at += chars[i]!.length, i++) {
    if (!twoCharWordAt.has(at)) tokens.push(chars[i]! + chars[i + 1]!);
  }
  return tokens;
}

/** Deterministic pseudo-random strings mixing every kind of character the tokenizer meets. */
function randomTexts(count: number): string[] {
  const pieces = [
    'abc', 'ABC', 'Connections', 'getUserName', '_', '-', '.', '/', ':', '@', "'", '’', ' ', '\n', '"', '\t',
    '超时', '连接', '東京に', '안녕', '𠀀', '🙂', '👍🏽', '👨‍👩‍👧', '\u0301', '\u200d', '\ufe0f', 'İ', 'ß', 'ＡＢＣ',
    '１２', '①', '½', '™', '#', '+', '$', '%', '"quoted"', '0x1F', 'v1', '\uD800', '\uDC00', 'ﬁ', 'Ⅻ', 'ـ', 'नमस्ते',
  ];
  let seed = 42;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  return Array.from({ length: count }, () => {
    let text = '';
    const n = 1 + (next() % 20);
    for (let i = 0; i < n; i++) text += pieces[next() % pieces.length];
    return text;
  });
}
