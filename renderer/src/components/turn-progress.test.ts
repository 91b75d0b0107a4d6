/**
 * The words of a turn's search step, in both UI languages: a catalogue that shows some of the pages mentioning
 * its topic says how many there are in all (the answer says "26 pages mention X (showing 12)"; the step must not
 * say "Found 12 pages").
 */
import i18next, { type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';
import { stepText } from './TurnProgress';

async function tIn(language: 'en' | 'zh-CN'): Promise<TFunction> {
  const i18n = i18next.createInstance();
  await i18n.init({ lng: language, resources: { en: { translation: en }, 'zh-CN': { translation: zhCN } }, interpolation: { escapeValue: false } });
  return i18n.t as TFunction;
}

const paths = (n: number) => Array.from({ length: n }, (_, i) => `wiki/flux-${i}.md`);

describe('the search step', () => {
  it('says how many pages a catalogue found and how many it shows', async () => {
    const t = await tIn('en');
    expect(stepText({ kind: 'found', count: 12, paths: paths(12), total: 26 }, t)).toBe('Found 26 pages · showing 12');
    expect(stepText({ kind: 'found', count: 5, paths: paths(3) }, t)).toBe('Found 3 pages');
    expect(stepText({ kind: 'found', count: 3, paths: paths(3), total: 3 }, t)).toBe('Found 3 pages');
  });

  it('says it in Chinese', async () => {
    const t = await tIn('zh-CN');
    expect(stepText({ kind: 'found', count: 12, paths: paths(12), total: 26 }, t)).toBe('找到 26 个页面 · 显示 12 个');
    expect(stepText({ kind: 'found', count: 3, paths: paths(3) }, t)).toBe('找到 3 个页面');
  });
});
