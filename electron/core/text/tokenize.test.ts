/*
 * Throughput, measured once on this machine (Node 20, 2 cores) with 10 M characters of repeated
 * sample text through toIndexText: English with identifiers ≈ 11–12 MB/s, mixed Chinese/English
 * ≈ 4 MB/s, pure Chinese ≈ 2.5 MB/s (UTF-8). Chinese is bound by ICU's word segmenter itself
 * (≈ 1.4 M characters/s on its own). No timed assertion here: timing belongs to the benchmark.
 */
import Database from 'better-sqlite3';
import { stemmer } from 'stemmer';
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_LENGTH, TOKEN_CHARS, queryTerms, toIndexText, tokenize } from './tokenize';

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
