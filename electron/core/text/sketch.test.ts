import { describe, expect, it } from 'vitest';
import { ALIKE_FROM, similarity, sketchHashes, sketchOf } from './sketch';

const handbook = (days: number) =>
  `Staff handbook. Holidays: ${days} days a year. Expenses are paid within 30 days of the claim. Laptops are replaced every four years. Travel is booked through the office.`;

describe('page sketches', () => {
  it.each([
    ['two editions of one handbook', handbook(25), handbook(27), true],
    ['a text and itself', handbook(25), handbook(25), true],
    ['two RFCs that share a name stem', 'This memo sets aside private address space for hosts that need no outside connectivity.',
      'HTTP/1.1 caches and proxies on private networks; persistent connections and chunked transfer coding.', false],
    ['两版差旅政策', '出差住宿费每晚最高报销500元，交通费按实际发生报销，需提供发票。', '出差住宿费每晚最高报销600元，交通费按实际发生报销，需提供发票。', true],
    ['different Chinese notes', '今天学习了潮汐能的测量方法。', '养蜂的季节记录和蜂蜜产量。', false],
  ])('%s: alike %s', (_name, a, b, alike) => {
    expect(similarity(sketchOf(a), sketchOf(b)) >= ALIKE_FROM).toBe(alike);
  });

  it('is empty for nothing and short for a short text', () => {
    expect(similarity(sketchOf(''), sketchOf('x'))).toBe(0);
    expect(sketchOf('one two').split(' ')).toHaveLength(1);
  });

  it('gives an ASCII text the sketch the general word rule gives it', () => {
    // A no-break space is no word and NFKC makes it a space, but it sends the text down the general path.
    const pieces = ['Staff', 'handbook.', 'HTTP/1.1', 'E_CONN_RESET', 'x86-64', '2024', 'getUserName()', '--flag=on', "don't", '\t', '\n', 'a', 'B'];
    let seed = 11;
    const next = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    for (let t = 0; t < 300; t++) {
      const text = Array.from({ length: next() % 120 }, () => pieces[next() % pieces.length]).join(next() % 3 ? ' ' : '');
      const hashes = sketchHashes(text);
      expect(sketchHashes(`${text}\u00a0`), text).toEqual(hashes);
      expect(sketchHashes(text.replace(/ /g, '\u00a0')), text).toEqual(hashes);
    }
    expect(sketchHashes('Holidays: 25 days')).toEqual(sketchHashes('holidays 25 DAYS\u00a0'));
  });
  it('gives the sketches stored by earlier versions (a page stored before must still match itself)', () => {
    // Written by the first implementation; a long text repeats shingles and keeps only the 64 smallest.
    expect(sketchOf('The quick brown fox jumps over the lazy dog, again and again, until the dog wakes up.')).toBe(
      'c1e7854 f68a36e 13a0fa7f 205ffaf2 2812da32 30182fd6 433ebdfc 569fc5ea 7bcdcbc5 8a482b35 a1fc453e c0422c9f c5a5306b cdd397bd',
    );
    expect(sketchOf('检索增强生成把文档切成段落，再用向量和关键词一起找到最相关的段落。')).toBe(
      '3d08f18 444617b 116b4f9b 126eefc1 13c34070 1744c7ae 18d1ea5e 27616b75 409c5caf 43c97a5d 4d001a8e 6e98de6b 7f8362f7 ' +
        'a6139be9 a91e4df2 b357c201 bbe59a1c be83ddec ccbdc647 cdbd7882 cfa582fa e481c8e8 e7b8571c ed61164d ef7c8a74 f31f7201 ' +
        'f99bfb0d fd2853cb',
    );
    const long = sketchOf(Array.from({ length: 200 }, (_, i) => `w${(i * 37) % 101}`).join(' ')).split(' ');
    expect(long).toHaveLength(64);
    expect(long.slice(0, 4)).toEqual(['431ba9e', 'cb37cbc', 'cc3816c', '104b03db']);
    expect(long.at(-1)).toBe('a517f0fb');
  });

  it('finds the words the pattern-based first implementation found, in every script and odd character', () => {
    // Written by the implementation that matched /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu:
    // a CJK radical is a word though not a letter, a run begun by a Latin letter runs on through Chinese,
    // NFKC turns half-width katakana and ligatures into letters, astral letters and lone surrogates are scanned.
    const cases: [string, string][] = [
      ['abc中文 ⺀⼀ 々〇 Straße ﬁle Ⅻ ½ ٣٤ e\u0301cole', '5638bf1 45d1d8c0 47c94306 4bc306d5 a707d3ae d9456e66 ec9865d4 f4b6f6c4 fa10bd54'],
      ['ｶﾞｲﾄﾞ ガイド ひらがな 한글 텍스트 𠀀𠀁 𝐀𝐁𝐂 😀 x', 'cc326db ed05516 19bee9ca 262fb99c 2d645244 4fe5e0d0 692f02ad 744f273c 767e40b3 a3a548c2 aa91df64 bb2f2bc3 fa4d9a97'],
      ['lone \ud800 high and \udc00 low surrogates, İstanbul ΣΑΣ ς 〡〢 ㋐ 🈀', 'fe589fc 17ebe312 394d0f3f 4a66155d 4d6f3924 6ee3401b 775821c2 ba6b98b3 d5a7d41c e5342b61 e70a8b62'],
    ];
    for (const [text, sketch] of cases) expect(sketchOf(text), text).toBe(sketch);
  });
});
