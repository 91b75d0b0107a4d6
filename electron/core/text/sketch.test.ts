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
});
