import { describe, expect, it } from 'vitest';
import { keysIn, normalizeKey } from './terms';

const keys = (...list: string[]): [string, string][] => list.map((k) => [normalizeKey(k), k]);
const found = (text: string, ...list: string[]) => keysIn(text, keys(...list)).map((m) => m.value);

describe('normalizeKey', () => {
  it('applies NFKC, folds case and collapses whitespace', () => {
    expect(normalizeKey('  Ｒｅｃｉｐｒｏｃａｌ \n Rank\u3000FUSION ')).toBe('reciprocal rank fusion');
  });
});

describe('keysIn', () => {
  it.each([
    ['RRF 是什么？', ['RRF'], ['RRF']],
    ['RRF是什么？', ['RRF'], ['RRF']],
    ['what does rrf mean', ['RRF'], ['RRF']],
    ['RRFS are different', ['RRF'], []],
    ['the xrrf flag', ['RRF'], []],
    ['什么是倒数排名融合？', ['倒数排名融合'], ['倒数排名融合']],
    ['知识库里有什么', ['知识库'], ['知识库']],
    ['Ｋ8S cluster', ['k8s'], ['k8s']],
    ['How does Reciprocal Rank Fusion work?', ['Reciprocal Rank Fusion', 'Fusion'], ['Reciprocal Rank Fusion']],
    ['fusion and reciprocal rank fusion', ['Reciprocal Rank Fusion', 'Fusion'], ['Fusion', 'Reciprocal Rank Fusion']],
    ['a b c', ['a'], []],
  ])('%s with keys %j finds %j', (text, list, expected) => {
    expect(found(text, ...list)).toEqual(expected);
  });
});
