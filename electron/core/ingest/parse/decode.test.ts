import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../types';
import { decodeText, normaliseNewlines } from './decode';
import { chinesePairShares, guessLegacyEncoding, normaliseCharsetLabel, sniffUtf16 } from './detect-encoding';

const SIMPLIFIED = '重试策略：连接失败后等待三秒再重试，最多重试五次。Error code E_CONN_RESET.';
const TRADITIONAL = '重試策略：連線失敗後等待三秒再重試，最多重試五次。如果仍然失敗，請檢查網路設定。';

function bytesOf(text: string, encoding: string, bom = false): Buffer {
  return iconv.encode(text, encoding, { addBOM: bom });
}

function reasonOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return err instanceof ParseError ? `${err.reason}: ${err.message}` : `other: ${String(err)}`;
  }
}

describe('decodeText', () => {
  it.each([
    ['UTF-8', Buffer.from('héllo 世界 😀'), 'héllo 世界 😀', 'utf-8'],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a 中')]), 'a 中', 'utf-8'],
    ['plain ASCII', Buffer.from('just ascii'), 'just ascii', 'utf-8'],
    ['GBK sentence', bytesOf(SIMPLIFIED, 'gbk'), SIMPLIFIED, 'gb18030'],
    ['short GBK word', bytesOf('测试', 'gbk'), '测试', 'gb18030'],
    ['GB18030 four-byte character', bytesOf(`${SIMPLIFIED}𠀀`, 'gb18030'), `${SIMPLIFIED}𠀀`, 'gb18030'],
    ['Big5 sentence', bytesOf(TRADITIONAL, 'big5'), TRADITIONAL, 'big5'],
    ['short Big5 word', bytesOf('中文', 'big5'), '中文', 'big5'],
    ['UTF-16LE with BOM', bytesOf('Retry 重试 policy', 'utf-16le', true), 'Retry 重试 policy', 'utf-16le'],
    ['UTF-16BE with BOM', bytesOf('Retry 重试 policy', 'utf-16be', true), 'Retry 重试 policy', 'utf-16be'],
    ['UTF-16LE without BOM', bytesOf('Retry policy, 重试', 'utf-16le'), 'Retry policy, 重试', 'utf-16le'],
    ['UTF-16BE without BOM', bytesOf('Retry policy, 重试', 'utf-16be'), 'Retry policy, 重试', 'utf-16be'],
    ['windows-1252', bytesOf('Caf\u00e9 \u201cquoted\u201d d\u00e9j\u00e0 vu, na\u00efve fa\u00e7ade', 'windows-1252'),
      'Caf\u00e9 \u201cquoted\u201d d\u00e9j\u00e0 vu, na\u00efve fa\u00e7ade', 'windows-1252'],
  ])('%s', (_label, bytes, text, encoding) => {
    expect(decodeText(bytes)).toEqual({ text, encoding });
  });

  it('normalises line endings and keeps a U+FEFF that is content, not a BOM', () => {
    expect(decodeText(Buffer.from('a\r\nb\rc\n\ufeffd')).text).toBe('a\nb\nc\n\ufeffd');
    expect(decodeText(bytesOf('a\r\nb', 'utf-16le', true)).text).toBe('a\nb');
  });

  it('follows a declared charset, but not a declared UTF-8 that the bytes are not', () => {
    const gbk = bytesOf(SIMPLIFIED, 'gbk');
    expect(decodeText(gbk, 'GBK')).toEqual({ text: SIMPLIFIED, encoding: 'gb18030' });
    expect(decodeText(gbk, 'utf-8')).toEqual({ text: SIMPLIFIED, encoding: 'gb18030' });
    expect(decodeText(bytesOf('Caf\u00e9', 'windows-1252'), 'iso-8859-1').encoding).toBe('windows-1252');
    expect(decodeText(Buffer.from('plain'), 'no-such-charset').encoding).toBe('utf-8');
  });

  it.each([
    ['a NUL byte', Buffer.from([0x68, 0x69, 0x00, 0x01, 0x02, 0x68, 0x69]), 'binary: binary file with a text extension'],
    ['a PNG header', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), 'binary: binary file with a text extension'],
    ['many control characters', Buffer.from('ab\x01\x02\x03\x04cd\x05\x06\x07\x0e\x0f'), 'binary: binary file with a text extension'],
    ['NUL with a declared charset', Buffer.from([0x61, 0x00, 0x62, 0x00, 0x00, 0x00, 0x01, 0x00]), 'binary: binary file with a text extension'],
    ['nothing', Buffer.alloc(0), 'empty: the file is empty'],
    ['only whitespace', Buffer.from(' \r\n\t \n'), 'empty: the file is empty'],
    ['only a BOM', Buffer.from([0xef, 0xbb, 0xbf]), 'empty: the file is empty'],
  ])('refuses %s', (label, bytes, reason) => {
    const declared = label.includes('declared') ? 'gbk' : null;
    expect(reasonOf(() => decodeText(bytes, declared))).toBe(reason);
  });

  it('accepts tabs, form feeds and ANSI colour escapes in logs', () => {
    const log = '\x1b[31mERROR\x1b[0m\tconnection reset\f\n'.repeat(20);
    expect(decodeText(Buffer.from(log)).text).toBe(log);
  });
});

describe('normaliseNewlines', () => {
  it.each([
    ['a\r\nb', 'a\nb'],
    ['a\rb', 'a\nb'],
    ['a\r\r\nb', 'a\n\nb'],
    ['\ufeffx', 'x'],
    ['x\ufeff', 'x\ufeff'],
    ['', ''],
  ])('%j → %j', (input, output) => {
    expect(normaliseNewlines(input)).toBe(output);
  });
});

describe('encoding detection parts', () => {
  it.each([
    [bytesOf('hello world', 'utf-16le'), 'utf-16le'],
    [bytesOf('hello world', 'utf-16be'), 'utf-16be'],
    [Buffer.from('hello world'), null],
    [Buffer.from([0x61, 0x00]), null],
    [bytesOf(SIMPLIFIED, 'gbk'), null],
  ])('sniffUtf16 #%# → %s', (bytes, expected) => {
    expect(sniffUtf16(bytes)).toBe(expected);
  });

  it.each([
    ['GBK', bytesOf('测试数据库连接', 'gbk'), (s: { gb: number; big5: number }) => s.gb === 1 && s.big5 < 1],
    ['Big5', bytesOf('資料庫連線測試', 'big5'), (s: { gb: number; big5: number }) => s.big5 === 1 && s.gb < 1],
    ['Latin-1', bytesOf('na\u00efve caf\u00e9', 'windows-1252'), (s: { gb: number; big5: number }) => s.gb === 0 && s.big5 === 0],
  ])('chinesePairShares tells %s apart', (_label, bytes, check) => {
    expect(check(chinesePairShares(bytes))).toBe(true);
  });

  it.each([
    [bytesOf(SIMPLIFIED, 'gbk'), 'gb18030'],
    [bytesOf(TRADITIONAL, 'big5'), 'big5'],
    [bytesOf('日本語のテキストです。これは長い文章のサンプルで、検出のために使います。', 'shift_jis'), 'shift_jis'],
    [bytesOf('Stra\u00dfe \u00fcber M\u00fcnchen, sch\u00f6n und gro\u00df', 'windows-1252'), 'windows-1252'],
  ])('guessLegacyEncoding #%# → %s', (bytes, expected) => {
    expect(guessLegacyEncoding(bytes)).toBe(expected);
  });

  it.each([
    ['UTF-8', 'utf-8'],
    ['utf8', 'utf-8'],
    [' gb2312 ', 'gb18030'],
    ['GBK', 'gb18030'],
    ['Big5', 'big5'],
    ['ISO-8859-1', 'windows-1252'],
    ['shift_jis', 'shift_jis'],
    ['x-unknown', null],
    ['', null],
  ])('normaliseCharsetLabel(%j) → %s', (label, expected) => {
    expect(normaliseCharsetLabel(label)).toBe(expected);
  });
});
