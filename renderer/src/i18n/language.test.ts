import { describe, expect, it } from 'vitest';
import { formatsFor, parseAppearance, resolveLanguage } from './language';

describe('resolveLanguage', () => {
  it.each([
    ['en', 'zh-CN', 'en'],
    ['zh-CN', 'en-US', 'zh-CN'],
    ['system', 'zh-CN', 'zh-CN'],
    ['system', 'zh', 'zh-CN'],
    ['system', 'zh-TW', 'zh-CN'],
    ['system', 'zh-Hans-CN', 'zh-CN'],
    ['system', 'ZH-cn', 'zh-CN'],
    ['system', 'en-GB', 'en'],
    ['system', 'de-DE', 'en'],
    ['system', 'zu-ZA', 'en'],
    ['system', '', 'en'],
    ['system', undefined, 'en'],
  ] as const)('setting %s with system language %s reads %s', (setting, system, expected) => {
    expect(resolveLanguage(setting, system)).toBe(expected);
  });
});

describe('parseAppearance', () => {
  it.each([
    ['{"language":"zh-CN","theme":"dark"}', { language: 'zh-CN', theme: 'dark' }],
    ['{"language":"system","theme":"system","extra":1}', { language: 'system', theme: 'system' }],
    ['{"language":"fr","theme":"dark"}', null],
    ['{"language":"en","theme":"sepia"}', null],
    ['{"language":"en"}', null],
    ['"en"', null],
    ['null', null],
    ['{not json', null],
    [null, null],
  ])('%s → %j', (raw, expected) => {
    expect(parseAppearance(raw)).toEqual(expected);
  });
});

describe('formatsFor', () => {
  const at = '2026-11-29T14:05:09.000Z';
  it.each([
    ['en', 12345, '12,345', 'Nov 29, 2026', /^2:05:09\sPM$/],
    ['zh-CN', 12345, '12,345', '2026年11月29日', /^14:05:09$/],
  ])('%s: %d → %s, dates and times in that language', (language, n, number, date, time) => {
    const f = formatsFor(language, 'UTC');
    expect(f.number(n)).toBe(number);
    expect(f.date(at)).toBe(date);
    expect(f.time(at)).toMatch(time);
  });

  it.each([
    ['en', '2:05 PM', 'Nov 29', '11/29/2025'],
    ['zh-CN', '14:05', '11月29日', '2025/11/29'],
  ])('%s: short dates for a narrow list', (language, sameDay, sameYear, older) => {
    const f = formatsFor(language, 'UTC');
    expect(f.shortDate(at, new Date('2026-11-29T20:00:00Z')).replace(/\s/g, ' ')).toBe(sameDay);
    expect(f.shortDate(at, new Date('2026-12-01T05:00:00Z'))).toBe(sameYear);
    expect(f.shortDate('2025-11-29T14:05:09Z', new Date('2026-12-01T05:00:00Z'))).toBe(older);
  });
});
