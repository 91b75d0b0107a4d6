import { describe, expect, it } from 'vitest';
import {
  compareNumbers, mentionScore, preferVersions, versionMentions, versionStatus,
  type RankedVersion, type VersionMember,
} from './rank';

const TODAY = '2026-12-01';

function member(pageId: number, facts: Partial<VersionMember> = {}): VersionMember {
  return {
    pageId, path: `wiki/p${pageId}.md`, number: null, year: null, effective: null, expires: null, hasFacts: true,
    fileKey: `p${pageId}`, titleNorm: `page ${pageId}`, supersedes: [], supersededBy: [], ...facts,
  };
}

describe('compareNumbers', () => {
  it.each([['1.10', '1.9', 1], ['2', '2.0', 0], ['1.3', '2', -1], ['10', '9', 1]])('%s vs %s', (a, b, d) => {
    expect(compareNumbers(a, b)).toBe(d);
  });
});

describe('versionStatus', () => {
  const v1 = member(1, { number: '1' });
  const v2 = member(2, { number: '2' });
  it.each<[string, VersionMember, VersionMember[], string, string | null]>([
    ['the newest number is current', v2, [v1, v2], 'current', null],
    ['an older number is superseded by the newest', v1, [v1, v2, member(3, { number: '1.5' })], 'superseded', 'wiki/p2.md'],
    ['a later year supersedes', member(1, { year: 2023 }), [member(2, { year: 2024 })], 'superseded', 'wiki/p2.md'],
    ['effective days beat numbers', member(1, { number: '9', effective: '2023-01-01' }), [member(2, { number: '1', effective: '2024-01-01' })], 'superseded', 'wiki/p2.md'],
    ['a version not in force yet replaces nothing', member(1, { year: 2026 }), [member(2, { year: 2027, effective: '2027-01-01' })], 'current', null],
    ['past its expires day: expired', member(1, { year: 2024, expires: '2024-12-31' }), [], 'expired', null],
    ['expires today: still in force', member(1, { expires: TODAY }), [], 'current', null],
    ['expired and replaced: expired, naming the replacement', member(1, { year: 2023, expires: '2023-12-31' }), [member(2, { year: 2024 })], 'expired', 'wiki/p2.md'],
    ['superseded_by with the successor elsewhere', member(1, { supersededBy: ['policy v9'] }), [], 'superseded', null],
    ['superseded_by naming a page by title', member(1, { supersededBy: ['page 2'] }), [member(2)], 'superseded', 'wiki/p2.md'],
    ['another page supersedes it by file name', member(1, { hasFacts: false }), [member(2, { supersedes: ['p1'] })], 'superseded', 'wiki/p2.md'],
    ['no facts, versions beside it: undated', member(1, { hasFacts: false }), [v2], 'undated', null],
    ['versions that cannot be compared are both current', member(1, { number: '2' }), [member(2, { year: 2024 })], 'current', null],
  ])('%s', (_label, page, members, status, by) => {
    expect(versionStatus(page, members, TODAY)).toEqual({ status, supersededBy: by });
  });
});

describe('versionMentions', () => {
  it.each([
    ['2023 年的规定', [], [2023], []],
    ['2023年的差旅报销标准', [], [2023], []],
    ['the 2023 rules', [], [2023], []],
    ['policy v1', ['1'], [], []],
    ['what changed in V1.3?', ['1.3'], [], []],
    ['version 2 of the handbook', ['2'], [], []],
    ['第2版 员工手册', ['2'], [], []],
    ['rules in force on 2023-06-01', [], [2023], ['2023-06-01']],
    ['2023年6月1日起执行的规定', [], [2023], ['2023-06-01']],
    ['GET v1/chat returns 404', [], [], []],
    ['E_CONN_RESET after 12000 ms', [], [], []],
    ['how many days of leave', [], [], []],
  ])('%s', (query, numbers, years, days) => {
    expect(versionMentions(query)).toEqual({ numbers, years, days });
  });
});

const version = (group: number, status: RankedVersion['status'], facts: Partial<RankedVersion> = {}): RankedVersion => ({
  group, status, number: null, year: null, effective: null, expires: null, ...facts,
});

describe('mentionScore', () => {
  const v = version(1, 'superseded', { year: 2023, effective: '2023-01-01', expires: '2023-12-31' });
  it.each([
    [{ numbers: [], years: [2023], days: [] }, 2],
    [{ numbers: [], years: [], days: ['2023-06-01'] }, 2],
    [{ numbers: [], years: [2024], days: [] }, 0],
    [{ numbers: ['1'], years: [], days: [] }, 0],
  ])('%j → %d', (m, score) => {
    expect(mentionScore(v, m)).toBe(score);
  });
  it('a version in force during the year named scores 1', () => {
    expect(mentionScore(version(1, 'current', { year: 2022, effective: '2022-07-01' }), { numbers: [], years: [2023], days: [] })).toBe(1);
  });
});

describe('preferVersions', () => {
  type Item = { id: string; v?: RankedVersion };
  const old = { id: 'policy 2023', v: version(7, 'superseded', { year: 2023 }) };
  const cur = { id: 'policy 2024', v: version(7, 'current', { year: 2024 }) };
  const other = { id: 'other doc' };
  const none = { numbers: [], years: [], days: [] };
  const ids = (items: Item[]) => items.map((i) => i.id);

  it('puts the current version in the place the old one held; other documents keep theirs', () => {
    expect(ids(preferVersions([old, other, cur], (i: Item) => i.v, none))).toEqual(['policy 2024', 'other doc', 'policy 2023']);
  });

  it('never puts a version that does not match the query above one that does', () => {
    type Scored = Item & { match: number };
    const oldFull: Scored = { ...old, match: 1 };
    const curPart: Scored = { ...cur, match: 1 / 3 };
    const out = preferVersions<Scored>([oldFull, other as Scored, curPart], (i) => i.v, none, (i) => i.match);
    expect(ids(out)).toEqual(['policy 2023', 'other doc', 'policy 2024']);
    // Both answer (the current one a little less): the current one comes first.
    const curMost: Scored = { ...cur, match: 0.7 };
    expect(ids(preferVersions<Scored>([oldFull, curMost], (i) => i.v, none, (i) => i.match))).toEqual(['policy 2024', 'policy 2023']);
  });

  it('puts the version the query names first', () => {
    const named = versionMentions('2023 年的规定');
    expect(ids(preferVersions([cur, other, old], (i: Item) => i.v, named))).toEqual(['policy 2023', 'other doc', 'policy 2024']);
    const v1 = { id: 'v1', v: version(3, 'superseded', { number: '1' }) };
    const v2 = { id: 'v2', v: version(3, 'current', { number: '2' }) };
    expect(ids(preferVersions([v2, v1], (i: Item) => i.v, versionMentions('policy v1')))).toEqual(['v1', 'v2']);
  });

  it('never drops an item, keeps the ranked order among equals and leaves a lone version alone', () => {
    const undated = { id: 'policy', v: version(7, 'undated') };
    const expired = { id: 'policy 2022', v: version(7, 'expired', { year: 2022 }) };
    const lone = { id: 'lone', v: version(9, 'superseded') };
    const out = preferVersions([expired, lone, old, undated, cur, other], (i: Item) => i.v, none);
    expect(ids(out)).toEqual(['policy 2024', 'lone', 'policy', 'policy 2022', 'policy 2023', 'other doc']);
  });
});
