import { describe, expect, it } from 'vitest';
import { parseGlobs, pathProblem } from './paths';

describe('pathProblem', () => {
  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['notes', 'not-full'],
    ['./notes', 'not-full'],
    ['~notes', 'not-full'],
    ['C:notes', 'not-full'],
    ['/home/me/notes', null],
    ['  /home/me/笔记  ', null],
    ['~', null],
    ['~/notes', null],
    ['C:\\Users\\me', null],
    ['d:/data', null],
    ['\\\\server\\share', null],
  ])('%j → %s', (path, expected) => {
    expect(pathProblem(path)).toBe(expected);
  });
});

describe('parseGlobs', () => {
  it.each([
    ['', []],
    ['papers/', ['papers/']],
    ['  *.log  \n\n drafts/ ', ['*.log', 'drafts/']],
    ['a\r\nb\r\n', ['a', 'b']],
    ['# comment\n*.tmp\n  # indented comment', ['*.tmp']],
    ['x/\ny\nx/', ['x/', 'y']],
    ['草稿/\n**/*.bak', ['草稿/', '**/*.bak']],
  ])('%j → %j', (text, expected) => {
    expect(parseGlobs(text)).toEqual(expected);
  });
});
