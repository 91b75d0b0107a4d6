/**
 * Files whose names say nothing (issue #25 item 7): Debian's `README.Debian`, `README.source`, a `configure`
 * script, `app.conf` are read as text when their content is text; every file that is not read is listed with its
 * reason (a name that says "not text", content that is binary), in the status, the manifest and the scan.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing/temp';
import { call, makeKb, openCore, writeFiles } from './testing/fixtures';
import { scanFolder } from './scan';
import { looksLikeText } from './parse/decode';

/** Bytes that look like a compiled program: an ELF header, then NULs and a few strings. */
function binaryBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  Buffer.from('\x7fELF\x02\x01\x01', 'latin1').copy(bytes);
  for (let i = 64; i < size; i += 97) bytes.write('libc.so.6', i, 'latin1');
  return bytes;
}

describe('files whose names say nothing about their kind', () => {
  it('text by content is read; binary content and "not text" names are listed as skipped with their reason', async () => {
    const root = fs.realpathSync(tempDir());
    writeFiles(root, {
      'bash/README.Debian': 'Debian notes for bash\n\nThe system-wide bashrc lives in /etc/bash.bashrc; tweak HISTSIZE there.\n',
      'bash/README.source': 'This package uses quilt to manage all modifications to the upstream source.\n',
      'tools/configure': '#!/bin/sh\n# Configure the build: checks for a C compiler and zlib.\necho "checking for zlib"\n',
      'tools/app.conf': 'listen_port = 8080\n# 中文注释：监听端口可以改\nmax_clients = 64\n',
      'notes.md': '# Notes\n\nplain markdown\n',
    });
    fs.writeFileSync(path.join(root, 'bash/changelog.Debian.gz'), gzipSync('bash (5.2) unstable; urgency=medium\n'));
    fs.writeFileSync(path.join(root, 'tools/helper'), binaryBytes(40_000));
    fs.writeFileSync(path.join(root, 'tools/blob.unknownext'), binaryBytes(3000));

    const scan = await scanFolder(root);
    expect(scan.files.map((f) => f.relPath)).toEqual([
      'bash/README.Debian', 'bash/README.source', 'notes.md', 'tools/app.conf', 'tools/blob.unknownext', 'tools/configure', 'tools/helper',
    ]);
    expect(scan.skipped).toEqual([{ relPath: 'bash/changelog.Debian.gz', reason: 'Sift does not read this kind of file (changelog.Debian.gz)' }]);

    const sift = openCore(tempDir());
    try {
      const kb = await makeKb(sift, 'Debian docs', [root]);
      const status = await sift.ingest(kb);
      expect(status.state).toBe('done');
      const pages = (await call(sift, 'pages.list', { kb })).map((p) => p.path);
      expect(pages).toEqual(['wiki/bash/README.Debian', 'wiki/bash/README.source', 'wiki/notes.md', 'wiki/tools/app.conf', 'wiki/tools/configure']);
      expect(status.problems.map((p) => [p.relPath, p.status, p.reason])).toEqual([
        ['bash/changelog.Debian.gz', 'skipped', 'Sift does not read this kind of file (changelog.Debian.gz)'],
        ['tools/blob.unknownext', 'skipped', 'not a text file, and its name is of no kind Sift reads (blob.unknownext)'],
        ['tools/helper', 'skipped', 'not a text file, and its name is of no kind Sift reads (helper)'],
      ]);
      const found = await call(sift, 'search.query', { kb, query: 'bashrc HISTSIZE', mode: 'keyword' });
      expect(found.passages[0]?.pagePath).toBe('wiki/bash/README.Debian');
      const zh = await call(sift, 'search.query', { kb, query: '监听端口', mode: 'keyword' });
      expect(zh.passages[0]?.pagePath).toBe('wiki/tools/app.conf');
      const page = await call(sift, 'pages.get', { kb, path: 'wiki/tools/configure' });
      expect(page.kind).toBe('text');
    } finally {
      await sift.close();
    }
  }, 40_000);

  it('an index of names made by ctags is listed as not read, while the help and code it points into are indexed', async () => {
    const root = fs.realpathSync(tempDir());
    const names = ['E37', 'E492', 'quickfix', ':make', "'tabstop'", 'ts', 'mapleader', '<Leader>', 'E42', 'persistent-undo', 'undo-persistence'];
    writeFiles(root, {
      // Vim's help keeps one without a header; Universal Ctags starts its own with !_TAG_ lines.
      'doc/tags': names.map((n, i) => `${n}\t${i % 2 ? 'message.txt' : 'options.txt'}\t/*${n}*`).join('\n') + '\n',
      'src/tags': '!_TAG_FILE_FORMAT\t2\t/extended format/\n!_TAG_PROGRAM_NAME\tUniversal Ctags\t//\nconnect\tnet.c\t/^int connect(void)$/;"\tf\n',
      'doc/message.txt': 'E492: Not an editor command ~\n\nYou typed something that is not an Ex command.\n',
      'src/net.c': 'int connect(void) { return 0; }\n',
      // Tab-separated data that is not an index: fewer than ten lines, and lines of two fields.
      'data/scores': 'alice\t12\nbob\t7\n',
    });
    const sift = openCore(tempDir());
    try {
      const kb = await makeKb(sift, 'help', [root]);
      const status = await sift.ingest(kb);
      expect(status.state).toBe('done');
      const pages = (await call(sift, 'pages.list', { kb })).map((p) => p.path);
      expect(pages).toEqual(['wiki/data/scores', 'wiki/doc/message.txt', 'wiki/src/net.c']);
      expect(status.problems.map((p) => [p.relPath, p.status, p.reason])).toEqual([
        ['doc/tags', 'skipped', 'an index of names made by ctags, not a document (tags)'],
        ['src/tags', 'skipped', 'an index of names made by ctags, not a document (tags)'],
      ]);
      const found = await call(sift, 'search.query', { kb, query: 'E492', mode: 'keyword' });
      expect(found.passages.map((p) => p.pagePath)).toEqual(['wiki/doc/message.txt']);
    } finally {
      await sift.close();
    }
  }, 40_000);

  it('a UTF-8 character cut at the end of the sample is still text; NULs and control bytes are not', () => {
    const chinese = Buffer.from('监听端口'.repeat(3000), 'utf8'); // 36 000 bytes: the 8 K sample ends mid-character
    expect(8192 % 3).not.toBe(0);
    expect(looksLikeText(chinese)).toBe(true);
    expect(looksLikeText(Buffer.from('plain ascii\n'))).toBe(true);
    expect(looksLikeText(binaryBytes(9000))).toBe(false);
    expect(looksLikeText(Buffer.from(Array.from({ length: 500 }, (_, i) => (i * 7) % 32)))).toBe(false);
  });
});
