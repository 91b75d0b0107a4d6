/**
 * Plain text is cut at its own section titles (plain-headings.ts): Vim's help (titles after rules, numbered
 * titles with tags, titles in capitals, a numbering that starts again inside a section), RFC-style numbered
 * titles, underlined READMEs and Org headlines; and the lines that only look like titles are left alone:
 * tables of contents, numbered paragraphs and list items, licence text in capitals, key names, sentences
 * after a rule.
 */
import { describe, expect, it } from 'vitest';
import { buildSections, chunkSections } from '../../text/chunk';
import { parseFile } from './index';
import { plainHeadings } from './plain-headings';

const RULE = '='.repeat(78);

const VIM_HELP = [
  '*change.txt*    For Vim version 9.0.  Last change: 2022 Dec 26',
  '',
  '',
  '\t\t  VIM REFERENCE MANUAL    by Bram Moolenaar',
  '',
  '1. Deleting text\t\t|deleting|',
  '2. Complex changes\t\t|complex-change|',
  '3. Copying and moving text\t|copy-move|',
  '',
  RULE,
  '1. Deleting text\t\t\t\t\t*deleting* *E470*',
  '',
  '["x]<Del>\tDelete [count] characters under and after the cursor.',
  '',
  RULE,
  '2. Complex changes\t\t\t\t\t*complex-change*',
  '',
  '4.4 Changing tabs\t\t\t\t\t*change-tabs*',
  '\t\t\t\t\t\t\t*:ret* *:retab*',
  ':[range]ret[ab][!] [new_tabstop]',
  '\t\t\tReplace all sequences of white-space containing a <Tab>.',
  '',
  'SHIFTING LINES LEFT OR RIGHT',
  '',
  'The >> command shifts lines.',
  '',
  'CTRL-W CTRL-V\t\t\t\t\t*CTRL-W_CTRL-V*',
  '\t\tLike :split, but split vertically.',
  '',
  RULE,
  '3. Copying and moving text\t\t\t\t*copy-move*',
  '',
  'There are ten types of registers:',
  '',
  '1. Unnamed register ""\t\t\t\t*quote_quote* *quotequote*',
  'Vim fills this register with text deleted.',
  '',
  '2. Numbered registers "0 to "9\t\t*quote_number* *quote0*',
  'Vim fills these registers with text from yank and delete commands.',
  '',
  RULE,
  '4. Sorting text\t\t\t\t\t\t*sorting*',
  '',
  'Vim has a sorting function.',
  '',
  RULE,
  '*10.5*\tVisual block mode',
  '',
  'With CTRL-V you can start selection of a rectangular area of text.',
  '',
].join('\n');

const titlesOf = (text: string, org = false) => plainHeadings(text, org).headings.map((h) => `${h.level} ${h.text}`);

describe('plain text section titles', () => {
  it("reads Vim's help: titles after rules, numbered titles before their tags, capitals, a restarted numbering one level down", () => {
    expect(titlesOf(VIM_HELP)).toEqual([
      '1 1. Deleting text',
      '1 2. Complex changes',
      '2 4.4 Changing tabs',
      '3 SHIFTING LINES LEFT OR RIGHT',
      '1 3. Copying and moving text',
      '2 1. Unnamed register ""',
      '2 2. Numbered registers "0 to "9',
      '1 4. Sorting text',
      '2 10.5 Visual block mode',
    ]);
  });

  it('gives each heading the offsets of its line in the text', () => {
    for (const h of plainHeadings(VIM_HELP).headings) {
      const line = VIM_HELP.slice(h.start, h.end);
      expect(line.startsWith(h.text.split(' ')[0]!.replace(/^10\.5$/, '*10.5*'))).toBe(true);
      expect(line).not.toContain('\n');
    }
  });

  it("drops a Vim fold marker with the tags before it", () => {
    const netrw = ['x', '', RULE, '1. Contents\t\t\t\t*netrw-contents* {{{1', '', 'text', '', RULE, '2. Starting With Netrw\t\t*netrw-start* {{{1', '', 'text'].join('\n');
    expect(titlesOf(netrw)).toEqual(['1 1. Contents', '1 2. Starting With Netrw']);
  });

  it('reads RFC-style numbered titles, and underlined titles by the order of their styles', () => {
    const rfc = ['Abstract', '', '   This memo ...', '', '1.  Introduction', '', '   Text.', '', '3.2.  Private Address Space', '', '   10.0.0.0/8'].join('\n');
    expect(titlesOf(rfc)).toEqual(['1 1. Introduction', '2 3.2. Private Address Space']);
    const readme = ['Frobnicator', '===========', '', 'Intro text.', '', 'Installation', '------------', '', 'Run make.', '', 'Usage', '-----', '', '~~~~~~~~~~~', 'Appendix', '~~~~~~~~~~~', ''].join('\n');
    expect(titlesOf(readme)).toEqual(['1 Frobnicator', '2 Installation', '2 Usage', '3 Appendix']);
  });

  it('reads Org headlines by their stars, without their tags, and the title of #+TITLE', () => {
    const org = ['#+TITLE: Reading notes', '* Projects   :work:', 'text', '** Sift', '*bold* is not a headline', '* Reading'].join('\n');
    expect(titlesOf(org, true)).toEqual(['1 Projects', '2 Sift', '1 Reading']);
    expect(plainHeadings(org, true).title).toBe('Reading notes');
  });

  it('reads a text written as Markdown by its # headings, but not a licence in comments or a fenced # comment', () => {
    const notes = ['# 检索增强设计', '', '## 1. 问题', '', '正文。', '', '```bash', '# not a title', 'make', '```', '', '### 1.1 背景', '', '细节。'].join('\n');
    const at = (line: string) => ({ start: notes.indexOf(line), end: notes.indexOf(line) + line.length });
    expect(plainHeadings(notes)).toEqual({
      title: '检索增强设计',
      headings: [
        { ...at('# 检索增强设计'), level: 1, text: '检索增强设计' },
        { ...at('## 1. 问题'), level: 2, text: '1. 问题' },
        { ...at('### 1.1 背景'), level: 3, text: '1.1 背景' },
      ],
    });
    const licence = ['# Copyright (C) 1999 Free Software Foundation, Inc.', '#', '# This file is part of groff.', '', 'Report bugs.', '', '##### Emacs settings', '# Local Variables:'].join('\n');
    expect(plainHeadings(licence).headings).toEqual([]);
    const script = ['#!/bin/sh', '', '# Build', '', 'make', '', '## Install', '', 'make install'].join('\n');
    expect(plainHeadings(script).headings).toEqual([]);
    expect(plainHeadings('# only one\n\ntext\n').headings).toEqual([]);
  });

  it('reads the titles a copied web page keeps its permalink mark on; the opening one names the page', () => {
    const copied = ['知識庫：檢索與 Agent¶', '', '把 in-house 文件變成可引用的段落。', '', '職責與邊界¶', '', '負責：檢索。', '', 'A sentence that ends with a mark ¶ inside.', ''].join('\n');
    expect(plainHeadings(copied)).toMatchObject({ title: '知識庫：檢索與 Agent', headings: [{ level: 1, text: '知識庫：檢索與 Agent' }, { level: 2, text: '職責與邊界' }] });
  });

  it('titles the page by an underlined title that opens the text, and by no other', () => {
    const notes = ['', 'Git v2.34.4 Release Notes', '=========================', '', 'Fixes since v2.34.3', '-------------------', '', ' * A fix.', ''].join('\n');
    expect(plainHeadings(notes)).toMatchObject({ title: 'Git v2.34.4 Release Notes', headings: [{ level: 1 }, { level: 2 }] });
    const late = ['Some words before.', '', 'Installation', '============', '', 'Run make.'].join('\n');
    expect(plainHeadings(late).title).toBeNull();
    expect(plainHeadings(VIM_HELP).title).toBeNull();
    const script = ['#!/usr/bin/perl -w', '##################', '', 'print "hi";'].join('\n');
    expect(plainHeadings(script)).toEqual({ title: null, headings: [] });
  });

  it('leaves alone what only looks like a title', () => {
    const text = [
      'A licence.',
      '',
      '1. This LICENSE AGREEMENT is between the Python Software Foundation',
      '   ("PSF"), and the Individual or Organization ("Licensee").',
      '',
      '2. Subject to the terms and conditions of this License Agreement, PSF',
      '   hereby grants Licensee a nonexclusive, royalty-free license.',
      '',
      'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR',
      'IMPLIED.',
      '',
      'NOTICE',
      'COPYRIGHT HOLDERS',
      '',
      'Steps:',
      '',
      '1. Type your commands.',
      '',
      '-------------------------------------------',
      'This paragraph follows a rule and is a sentence.',
      '',
      'A long line of text that somebody underlined with a short rule below it',
      '---',
      '',
      'CTRL-W F',
      '',
      'tag\t\tchar\t\taction in Insert mode\t~',
      '------------------------------------------------------------------------------',
      '|i_CTRL-@|\tCTRL-@\t\tinsert previously inserted text',
      '',
    ].join('\n');
    expect(titlesOf(text)).toEqual([]);
  });

  it("reads a title set in the middle of the line under a rule (Vim's tutor), and no indented line that is not one", async () => {
    const tilde = '~'.repeat(78);
    const tutor = [
      '===============================================================================',
      '=      欢     迎     阅     读   《 V I M  教  程 》   ——    版本 1.7      =',
      '===============================================================================',
      '',
      '     Vim 是一个具有很多命令的功能非常强大的编辑器。',
      '',
      tilde,
      '\t\t    第二讲第七节：撤消类命令',
      '',
      '',
      '  ** 输入 u 来撤消最后执行的命令，输入 U 来撤消对整行的修改。**',
      '',
      tilde,
      '\t\t      Lesson 6.4: COPY AND PASTE TEXT (YANK)',
      '',
      '  ** Use the  y  operator to copy text and  p  to paste it. **',
      '',
      tilde,
      '\t\t第五讲第一节：在 VIM 内执行外部命令的方法',
      '',
      '\t   ** 输入 :! 然后紧接着输入一个外部命令可以执行该外部命令。**',
      '',
    ].join('\n');
    const lessons = ['第二讲第七节：撤消类命令', 'Lesson 6.4: COPY AND PASTE TEXT (YANK)', '第五讲第一节：在 VIM 内执行外部命令的方法'];
    expect(titlesOf(tutor)).toEqual(lessons.map((t) => `1 ${t}`));
    // A file named by its language, as the tutors are, is read as text and cut at its lessons.
    const doc = await parseFile('tutor.zh_cn.utf-8', Buffer.from(tutor));
    const sections = buildSections(doc.text, doc.headings);
    const outside = sections.find((s) => s.headingPath.at(-1) === lessons[2]);
    expect(doc.text.slice(outside!.start).startsWith(lessons[2]!)).toBe(true);
    const chunk = chunkSections(doc.text, sections).find((c) => c.text.includes('执行该外部命令'));
    expect(chunk?.start).toBe(outside!.start);
    expect(chunk?.text).not.toContain('COPY AND PASTE');

    const alike = [
      'Intro.',
      '',
      '  ----------------------------------------------------------------------',
      '  Ran 2 tests in 0.016s',
      '',
      'Changes in 0.12.0',
      '=================',
      '',
      '  - Give a more useful AttributeError',
      '',
      '-------------------------------------------',
      '    result = compute(value);',
      '',
      '-------------------------------------------',
      '    while x > 0',
      '',
    ].join('\n');
    expect(titlesOf(alike)).toEqual(['1 Changes in 0.12.0']);
  });

  it('cuts a .txt page and a file without an extension at their titles, so a chunk starts at its section', async () => {
    for (const name of ['change.txt', 'README.Debian']) {
      const doc = await parseFile(name, Buffer.from(VIM_HELP));
      expect(doc.headings.map((h) => h.text)).toContain('4.4 Changing tabs');
      const sections = buildSections(doc.text, doc.headings);
      const tabs = sections.find((s) => s.headingPath.at(-1) === '4.4 Changing tabs');
      expect(tabs?.headingPath).toEqual(['2. Complex changes', '4.4 Changing tabs']);
      // "2. Complex changes" has no words of its own, so its title opens the section of 4.4 (chunk.ts).
      expect(doc.text.slice(tabs!.start).startsWith('2. Complex changes')).toBe(true);
      const chunk = chunkSections(doc.text, sections).find((c) => c.text.includes(':[range]ret'));
      expect(chunk?.start).toBe(tabs!.start);
      expect(chunk?.text).not.toContain('["x]<Del>');
    }
  });

  it('gives a .txt page the title that opens it, and a page without one none (its file name names it)', async () => {
    expect((await parseFile('2.34.4.txt', Buffer.from('Git v2.34.4 Release Notes\n=========================\n\nFixes.\n'))).title).toBe('Git v2.34.4 Release Notes');
    expect((await parseFile('README.Debian', Buffer.from('lsof for Debian\n---------------\n\nNotes.\n'))).title).toBe('lsof for Debian');
    expect((await parseFile('change.txt', Buffer.from(VIM_HELP))).title).toBeNull();
  });

  it('keeps .rst files to their own titles', async () => {
    const doc = await parseFile('guide.rst', Buffer.from(['Guide', '=====', '', '1. First step', '', 'x', '', '2. Second step', ''].join('\n')));
    expect(doc.headings.map((h) => h.text)).toEqual(['Guide']);
    expect(doc.title).toBe('Guide');
  });
});
