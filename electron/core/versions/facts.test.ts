import { describe, expect, it } from 'vitest';
import { hasVersionFacts, linkKey, parseDay, splitVersion, versionFacts, versionKeys } from './facts';

describe('splitVersion: the version part a file name ends with', () => {
  it.each([
    ['policy_v2', 'policy', 'v2', '2', null],
    ['guide-v1.3', 'guide', 'v1.3', '1.3', null],
    ['Guide V10', 'Guide', 'V10', '10', null],
    ['handbook version 3', 'handbook', 'version 3', '3', null],
    ['report-2024', 'report', '2024', null, 2024],
    ['report_2023', 'report', '2023', null, 2023],
    ['差旅报销政策（2024版）', '差旅报销政策', '(2024版)', null, 2024],
    ['差旅报销政策(2023 版)', '差旅报销政策', '(2023 版)', null, 2023],
    ['信息安全规定2023版', '信息安全规定', '2023版', null, 2023],
    ['信息安全规定-2023年版', '信息安全规定', '2023年版', null, 2023],
    ['员工手册第3版', '员工手册', '第3版', '3', null],
    ['Handbook (2024 edition)', 'Handbook', '(2024 edition)', null, 2024],
    ['Handbook [v2]', 'Handbook', '[v2]', '2', null],
  ])('%s', (name, rest, label, number, year) => {
    // Only a bare year after a dash or underscore is unmarked: it reads as a version only beside an alike page.
    const marked = !/^report[-_]/.test(name);
    expect(splitVersion(name)).toEqual({ rest, label, number, year, marked });
  });

  it.each([
    ['no version', 'retry notes'],
    ['a year alone is a year’s notes, not a version', '2024'],
    ['a version alone names nothing', 'v2'],
    ['a date is not a version', 'meeting-2024-03-05'],
    ['a year inside the name', '2024 roadmap draft'],
    ['a number that is not a version', 'chapter-12'],
    ['an identifier ending in digits', 'utf8'],
    ['a year that is no year', 'order-3024'],
  ])('no version: %s', (_label, name) => {
    expect(splitVersion(name)).toEqual({ rest: name, label: null, number: null, year: null, marked: false });
  });
});

describe('parseDay', () => {
  it.each([
    ['2024-01-05', false, '2024-01-05'],
    ['2024/1/5', false, '2024-01-05'],
    ['2024.1.5', false, '2024-01-05'],
    ['2024年1月5日', false, '2024-01-05'],
    ['２０２４年１月５日', false, '2024-01-05'],
    ['2024-02', false, '2024-02-01'],
    ['2024-02', true, '2024-02-29'],
    ['2024', true, '2024-12-31'],
    [2023, false, '2023-01-01'],
    ['2024-02-30', false, null],
    ['2024-13-01', false, null],
    ['next year', false, null],
    [true, false, null],
  ])('%s (end: %s) → %s', (value, end, day) => {
    expect(parseDay(value, end)).toBe(day);
  });
});

describe('versionFacts: front matter first, else the file name', () => {
  const none = { label: null, number: null, year: null, effective: null, expires: null, supersedes: [], supersededBy: [], declared: false, marked: false };

  it.each([
    ['nothing', {}, 'notes/retry.md', none],
    ['file name _v2', {}, 'policy_v2.md', { ...none, label: 'v2', number: '2', marked: true }],
    ['file name （2024版）', {}, 'hr/差旅报销政策（2024版）.md', { ...none, label: '(2024版)', year: 2024, marked: true }],
    ['a bare year in the file name is not marked', {}, 'rfc-1918.md', { ...none, label: '1918', year: 1918 }],
    ['front matter version number', { version: 2 }, 'policy.md', { ...none, label: '2', number: '2', declared: true }],
    ['front matter v1.3 wins over the file name', { version: 'v1.3' }, 'policy_v9.md', { ...none, label: 'v1.3', number: '1.3', declared: true }],
    ['front matter year', { version: '2023版' }, 'rules.md', { ...none, label: '2023版', year: 2023, declared: true }],
    ['free-text version is a label only', { version: 'draft' }, 'rules.md', { ...none, label: 'draft', declared: true }],
    [
      'dates and links',
      { effective: '2024-01-01', expires: '2024', supersedes: 'archive/policy_v1.md', superseded_by: ['Policy V3', 7] },
      'policy.md',
      { ...none, year: 2024, effective: '2024-01-01', expires: '2024-12-31', supersedes: ['policy v1'], supersededBy: ['policy v3', '7'], declared: true },
    ],
    ['a year from the name beats the effective year', { effective: '2023-07-01' }, 'rules-2024.md', { ...none, label: '2024', year: 2024, effective: '2023-07-01', declared: true }],
    ['dates that are no dates are ignored', { effective: 'soon', expires: { at: 1 } }, 'rules.md', none],
  ])('%s', (_label, metadata, relPath, facts) => {
    expect(versionFacts(metadata, relPath)).toEqual(facts);
  });

  it('says whether a page has any version facts', () => {
    expect(hasVersionFacts(versionFacts({}, 'notes/retry.md'))).toBe(false);
    expect(hasVersionFacts(versionFacts({}, 'policy_v2.md'))).toBe(true);
    expect(hasVersionFacts(versionFacts({ superseded_by: 'x' }, 'a.md'))).toBe(true);
  });
});

describe('versionKeys and linkKey', () => {
  it('groups versions by file name or title without the version part', () => {
    expect(versionKeys('hr/差旅报销政策（2023版）.md', '差旅报销政策（2023版）')).toEqual({
      nameKey: '差旅报销政策', titleKey: '差旅报销政策', fileKey: '差旅报销政策(2023版)', titleNorm: '差旅报销政策(2023版)',
    });
    expect(versionKeys('policies/travel_policy_v2.md', 'Travel Policy')).toEqual({
      nameKey: 'travel policy', titleKey: 'travel policy', fileKey: 'travel policy v2', titleNorm: 'travel policy',
    });
  });

  it('matches a link by the last path segment without a document extension', () => {
    expect(linkKey('wiki/policies/travel_policy_v1.md')).toBe('travel policy v1');
    expect(linkKey('Travel-Policy v1')).toBe('travel policy v1');
    expect(linkKey('guide.v2')).toBe('guide v2');
    expect(linkKey('（2023版）差旅报销政策.docx')).toBe('(2023版)差旅报销政策');
  });
});
