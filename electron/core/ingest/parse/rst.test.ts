/**
 * reStructuredText pages are titled by their first section title, not the file stem, and their section titles
 * make the heading path (issue #25 item 8): underlined, overlined + underlined, levels in order of first use,
 * inline markup of a title read as text; indented lines, transitions and table borders are no titles.
 */
import { describe, expect, it } from 'vitest';
import { parseFile } from './index';
import { rstHeadings } from './rst';

const DOC = [
  '.. _json-module:',
  '',
  '=========================================',
  ':mod:`json` --- JSON encoder and decoder',
  '=========================================',
  '',
  'JSON is a lightweight data interchange format.',
  '',
  'Basic Usage',
  '-----------',
  '',
  'Serialize ``obj`` as a JSON formatted stream::',
  '',
  '    Not a title',
  '    -----------',
  '',
  'Encoders',
  '~~~~~~~~',
  '',
  'Text.',
  '',
  '----------',
  '',
  '=====  =====',
  'col a  col b',
  '=====  =====',
  '',
  'Command Line Interface',
  '----------------------',
  '',
  'Run it.',
  '',
].join('\n');

describe('reStructuredText titles', () => {
  it('reads section titles and their levels in order of first use', () => {
    const { headings, title } = rstHeadings(DOC);
    expect(title).toBe('json --- JSON encoder and decoder');
    expect(headings.map((h) => [h.level, h.text])).toEqual([
      [1, 'json --- JSON encoder and decoder'],
      [2, 'Basic Usage'],
      [3, 'Encoders'],
      [2, 'Command Line Interface'],
    ]);
    for (const h of headings.slice(1)) expect(DOC.slice(h.start, h.end)).toBe(h.text);
  });

  it('titles an .rst file by its first section title, and keeps its text as plain text', async () => {
    const doc = await parseFile('docs/json.rst', Buffer.from(DOC));
    expect(doc.kind).toBe('text');
    expect(doc.title).toBe('json --- JSON encoder and decoder');
    expect(doc.text).toBe(DOC);
    expect(doc.headings.map((h) => h.text)).toContain('Command Line Interface');
  });

  it('titles a Chinese .rst page, and a .txt page by the same underlined title (plain-headings.ts)', async () => {
    const zh = '安装指南\n========\n\n先安装依赖。\n\n配置\n----\n\n编辑配置文件。\n';
    expect((await parseFile('install.rst', Buffer.from(zh))).title).toBe('安装指南');
    expect((await parseFile('install.rst', Buffer.from(zh))).headings.map((h) => [h.level, h.text])).toEqual([[1, '安装指南'], [2, '配置']]);
    expect((await parseFile('install.txt', Buffer.from(zh))).title).toBe('安装指南');
    expect((await parseFile('install.txt', Buffer.from(`前言。\n\n${zh}`))).title).toBeNull();
  });

  it('finds no title in an .rst file without one', async () => {
    const doc = await parseFile('notes.rst', Buffer.from('Just a paragraph.\nAnother line.\n\n    indented\n    ========\n'));
    expect(doc.title).toBeNull();
    expect(doc.headings).toEqual([]);
  });
});
