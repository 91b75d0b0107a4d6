import { describe, expect, it } from 'vitest';
import { isSupported } from './index';
import { kindOf } from './kinds';

describe('kindOf', () => {
  it.each([
    ['notes.md', 'markdown', null],
    ['Notes.MARKDOWN', 'markdown', null],
    ['page.mdx', 'markdown', null],
    ['a.txt', 'text', null],
    ['server.log', 'text', null],
    ['data.csv', 'sheet', null],
    ['data.tsv', 'sheet', null],
    ['Q3.XLSX', 'sheet', null],
    ['budget.xls', 'sheet', null],
    ['budget.ods', 'sheet', null],
    ['季度回顾.pptx', 'slides', null],
    ['deck.odp', 'slides', null],
    ['book.epub', 'epub', null],
    ['guide.rst', 'text', null],
    ['todo.org', 'text', null],
    ['perldiag.pod', 'text', null],
    ['README', 'text', null],
    ['readme', 'text', null],
    ['LICENSE', 'text', null],
    ['/usr/share/doc/bc/copyright', 'text', null],
    ['CHANGELOG', 'text', null],
    ['Makefile', 'code', 'makefile'],
    ['Dockerfile', 'code', 'dockerfile'],
    ['index.html', 'html', null],
    ['old.HTM', 'html', null],
    ['paper.pdf', 'pdf', null],
    ['report.DOCX', 'docx', null],
    ['app.ts', 'code', 'typescript'],
    ['App.tsx', 'code', 'tsx'],
    ['x.mjs', 'code', 'javascript'],
    ['x.cjs', 'code', 'javascript'],
    ['main.py', 'code', 'python'],
    ['lib.rs', 'code', 'rust'],
    ['main.go', 'code', 'go'],
    ['a.h', 'code', 'c'],
    ['a.hpp', 'code', 'cpp'],
    ['a.cs', 'code', 'csharp'],
    ['run.sh', 'code', 'bash'],
    ['q.sql', 'code', 'sql'],
    ['c.yml', 'code', 'yaml'],
    ['Cargo.toml', 'code', 'toml'],
    ['package.json', 'code', 'json'],
    ['feed.xml', 'code', 'xml'],
    ['styles.scss', 'code', 'scss'],
    ['docs/guide/intro.md', 'markdown', null],
    ['scan.PNG', 'image', null],
    ['photo.jpeg', 'image', null],
    ['fax.tif', 'image', null],
    ['old.bmp', 'image', null],
    ['shot.webp', 'image', null],
    ['C:\\notes\\a.py', 'code', 'python'],
  ])('%s is %s (%s)', (name, kind, language) => {
    expect(kindOf(name)).toEqual({ kind, language });
    expect(isSupported(name)).toBe(true);
  });

  it.each([
    'photo.gif', 'archive.zip', 'old.doc', 'deck.ppt', 'old.odt', 'x.exe', '.gitignore', '.env', 'Makefile.bak',
    'noext', 'constructor', 'toString', 'a.constructor', 'a.',
  ])('%s is not read', (name) => {
    expect(kindOf(name)).toBeNull();
    expect(isSupported(name)).toBe(false);
  });
});
