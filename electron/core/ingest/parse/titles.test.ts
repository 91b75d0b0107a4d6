/**
 * Page titles from real-shaped README heads: front matter, then the first level-1 heading without
 * its badges, images and link URLs, then (for files that name nothing) the file or folder name.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareFile, titleFromFileName } from '../prepare';
import { htmlToText } from './html';
import { parseMarkdown } from './markdown';

const README_HEADS: [string, string, string | null][] = [
  [
    'centred HTML block with a logo and an <h1>',
    '<p align="center">\n  <img src="logo.svg" width="200px" align="center" alt="Zod logo" />\n' +
      '  <h1 align="center">Zod</h1>\n  <p align="center">TypeScript-first schema validation</p>\n</p>\n<br/>\n\n' +
      '<p align="center">\n<a href="https://zod.dev">Read the docs →</a>\n</p>\n\n## Installation\n\nnpm i zod\n',
    'Zod',
  ],
  [
    '<h1> wrapping a logo image and a line break',
    '<h1><p align="center"><img alt="protobuf.js" src="https://example.org/pbjs.svg" height="100" />' +
      '<br/>protobuf.js</p></h1>\n' +
      '<p align="center"><a href="https://npmjs.org/package/protobufjs">' +
      '<img src="https://img.shields.io/npm/v/protobufjs.svg" alt=""></a></p>\n\n' +
      '## Contents\n\n* [Installation](#installation)\n',
    'protobuf.js',
  ],
  [
    'ATX heading followed by linked badges',
    '# better-sqlite3 [![Build Status](https://github.com/x/better-sqlite3/actions/workflows/build.yml/badge.svg)]' +
      '(https://github.com/x/better-sqlite3/actions)\n\nThe fastest and simplest library for SQLite in Node.js.\n\n' +
      '## Help this project stay strong! &#128170;\n',
    'better-sqlite3',
  ],
  [
    'badges after a sponsor block and an entity-only paragraph',
    '<div align="center">\n🎉 announcing <a href="https://example.org">dotenvx</a>.\n</div>\n\n&nbsp;\n\n' +
      '# dotenv [![NPM version](https://img.shields.io/npm/v/dotenv.svg?style=flat-square)]' +
      '(https://www.npmjs.com/package/dotenv)\n\n' +
      '<img src="https://example.org/dotenv.svg" alt="dotenv" align="right" width="200" />\n\n' +
      'Dotenv loads variables.\n',
    'dotenv',
  ],
  [
    'reference-style badges and a separator',
    '# buffer · [![travis][travis-image]][travis-url] [![npm][npm-image]][npm-url]\n\n' +
      '[travis-image]: https://img.shields.io/travis/feross/buffer/master.svg\n' +
      '[travis-url]: https://travis-ci.org/feross/buffer\n' +
      '[npm-image]: https://img.shields.io/npm/v/buffer.svg\n[npm-url]: https://npmjs.org/package/buffer\n\n' +
      '#### The buffer module from node.js, for the browser.\n',
    'buffer',
  ],
  ['setext heading with an entity', 'Caf&eacute; &amp; Bar &#128170;\n=====\n\nA place.\n', 'Café & Bar 💪'],
  [
    'linked heading keeps its text, not its URL',
    '# [node-bindings](https://github.com/TooTallNate/node-bindings)\n\ntext\n',
    'node-bindings',
  ],
  ['an autolinked URL is not a title', '# Docs <https://example.org/docs>\n\ntext\n', 'Docs'],
  ['a logo-only image heading', '# ![logo](logo.png) FlatBuffers\n\ntext\n', 'FlatBuffers'],
  [
    'a README with only level-2 headings has no title',
    '<p align="center"><picture><img alt="transformers.js javascript library logo" src="x.svg"></picture></p>\n\n' +
      '<h3 align="center">State-of-the-art Machine Learning for the web</h3>\n\n## Installation\n\nnpm i x\n',
    null,
  ],
  [
    'a first level-1 heading that names a part',
    '[![Build](https://x/b.svg)](https://x)\n\n# Introduction\n\ntext\n\n# Questions and issues\n',
    null,
  ],
  [
    'a level-1 heading after the level-2 ones of a README is a section',
    '<p align="center"><img src="./docs/bear.jpg" /></p>\n\n[![Build](https://x/b.svg)](https://x)\n\n' +
      'A small, fast state-management solution.\n\n## First create a store\n\ntext\n\n# Recipes\n\n## Fetching\n',
    null,
  ],
  ['front matter wins over the heading', '---\ntitle: 网关手册\n---\n\n# 网关超时处理手册\n\n正文。\n', '网关手册'],
  ['a Chinese level-1 heading', '# 网关超时处理手册\n\n## 背景\n\n正文。\n', '网关超时处理手册'],
];

describe('Markdown page titles', () => {
  it.each(README_HEADS)('%s', (_label, source, title) => {
    expect(parseMarkdown(source).title).toBe(title);
  });

  it('keeps image alt text in heading paths, where a heading is read in context', () => {
    expect(parseMarkdown('# ![logo](logo.png) FlatBuffers\n').headings[0]!.text).toBe('logo FlatBuffers');
  });
});

describe('HTML page titles', () => {
  it.each([
    [
      '<title> first',
      '<html><head><title>Mammoth &amp; friends</title></head><body><h1>Other</h1></body></html>',
      'Mammoth & friends',
    ],
    [
      'else the first <h1>, without its logo',
      '<body><h2>Sub</h2><h1><img alt="logo" src="l.png"> Zod</h1><p>x</p></body>',
      'Zod',
    ],
    ['else nothing', '<body><h2>Installation</h2><p>x</p></body>', null],
  ])('%s', (_label, html, title) => {
    expect(htmlToText(html).title).toBe(title);
  });
});

describe('titles from file names', () => {
  it.each([
    ['/kb/notes', 'zod/README.md', 'zod'],
    ['/kb/notes', 'packages/@huggingface/transformers/readme.markdown', '@huggingface/transformers'],
    ['/kb/node_modules', '@types/node/README.md', '@types/node'],
    ['/kb/node_modules/@types/react', 'README.md', '@types/react'],
    ['/kb/node_modules', '@types/node/LICENSE', '@types/node LICENSE'],
    ['/kb/notes', 'team@2024/README.md', 'team@2024'],
    ['/kb/notes', 'docs/index.html', 'docs'],
    ['/kb/better-sqlite3', 'README.md', 'better-sqlite3'],
    ['/kb/notes', 'README', 'notes'],
    ['/kb/notes', 'guides/retry-policy.md', 'retry-policy'],
    ['/kb/notes', 'Makefile', 'Makefile'],
    ['/usr/share/doc', 'bash/copyright', 'bash copyright'],
    ['/kb/zod', 'LICENSE', 'zod LICENSE'],
    ['/kb/notes', 'zod/CHANGELOG.md', 'zod CHANGELOG'],
    ['/kb/notes', 'copyright-notes.md', 'copyright-notes'],
  ])('%s + %s → %s', (folder, relPath, title) => {
    expect(titleFromFileName(folder, relPath)).toBe(title);
  });
});

describe('prepareFile titles a README by its folder when it names nothing', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-titles-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it.each([
    [
      'transformers/README.md',
      '<p align="center"><img alt="logo" src="x.svg"></p>\n\n## Installation\n\nnpm i x\n',
      'transformers',
    ],
    ['bluebird/README.md', '# Introduction\n\nBluebird is a promise library.\n', 'bluebird'],
    ['zod/README.md', '<h1 align="center">Zod</h1>\n\n## Installation\n', 'Zod'],
    ['zustand/README.md', 'A small store.\n\n## First create a store\n\ntext\n\n# Recipes\n\ntext\n', 'zustand'],
    ['@types/node/README.md', '# Installation\n> `npm install --save @types/node`\n\n# Summary\nThis package contains type definitions for node.\n', '@types/node'],
    ['docs/json-module.rst', '.. _json:\n\nJSON encoder\n============\n\nText.\n', 'JSON encoder'],
    ['bc/copyright', 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\nUpstream-Name: bc\n', 'bc copyright'],
  ])('%s', async (relPath, source, title) => {
    fs.mkdirSync(path.join(root, path.dirname(relPath)), { recursive: true });
    fs.writeFileSync(path.join(root, relPath), source);
    const outcome = await prepareFile({
      folder: root, relPath, absPath: path.join(root, relPath), pagePath: `wiki/${relPath}`,
      maxFileBytes: 1 << 20, knownSha256: null, size: 0,
    });
    expect(outcome.kind === 'page' && outcome.page.title).toBe(title);
  });
});
