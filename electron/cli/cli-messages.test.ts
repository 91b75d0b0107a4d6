/**
 * What the CLI says when it is typed wrong or pointed at the wrong place (issue #27 item 10): the version, clean
 * messages for flags, no operation names, a data folder that is a file, and what to type next for a missing or empty
 * knowledge base. `serve --port abc` runs as the installed bin script: it must exit, not hang.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { tempDir } from '../core/testing/temp';
import { runLines as run } from './testing/run';

const BIN = path.resolve(__dirname, '../../bin/sift.mjs');

/** Run the bin script as a person would; resolves with its exit code and output (or `hung` after 20 s). */
function spawnSift(args: string[]): Promise<{ code: number | 'hung'; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { timeout: 20_000, env: { ...process.env, SIFT_EMBEDDING: 'none' } },
      (err, stdout, stderr) => {
        const killed = (err as { killed?: boolean } | null)?.killed;
        resolve({ code: killed ? 'hung' : child.exitCode ?? 0, stdout, stderr });
      });
  });
}

describe('sift CLI messages', () => {
  it('--version and -v print the version', async () => {
    expect(await run('--version')).toEqual({ code: 0, out: pkg.version, err: '' });
    expect((await run('-v')).out).toBe(pkg.version);
  });

  it('--help lists every MCP tool, ask among them', async () => {
    const help = (await run('--help')).out;
    const mcp = help.slice(help.indexOf('  mcp [--kb KB]'), help.indexOf('Chat:'));
    for (const tool of ['search', 'get_context', 'read_page', 'list_pages', 'list_knowledge_bases', 'ask']) expect(mcp).toContain(tool);
  });

  it('serve --port abc prints the error and exits', async () => {
    const served = await spawnSift(['--data-dir', tempDir(), 'serve', '--port', 'abc']);
    expect(served).toMatchObject({ code: 2, stderr: 'sift: --port must be a number from 0 to 65535, got abc\n' });
  }, 30_000);

  it('says a wrong flag in its own words, and how to search for text that starts with "-"', async () => {
    const data = tempDir();
    const wrong = await run('--data-dir', data, 'kb', 'list', '--nope');
    expect(wrong).toMatchObject({ code: 2, out: '' });
    expect(wrong.err).toBe('sift: unknown option --nope. See sift --help. A query or name that starts with "-" goes after --, as in: sift search KB -- "--nope"');
    expect(wrong.err).not.toMatch(/To specify a positional argument|'/);
    expect(await run('--data-dir', data, 'search', 'Docs', '--port')).toMatchObject({ code: 2, err: 'sift: --port needs a value. See sift --help.' });
    expect(await run('--data-dir', data, 'kb', 'list', '--json=yes')).toMatchObject({ code: 2, err: 'sift: --json takes no value. See sift --help.' });
    await run('--data-dir', data, 'kb', 'create', 'Docs');
    // After `--`, the query is the query.
    const dashed = await run('--data-dir', data, 'search', 'Docs', '--mode', 'keyword', '--', '--verbose flag');
    expect(dashed.code).toBe(0);
  });

  it('names no internal operation in an error', async () => {
    const empty = await run('--data-dir', tempDir(), 'kb', 'create', '');
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/^sift: name: /);
    expect(empty.err).not.toContain('kb.create');
  });

  it('says clearly when the data folder is a file, or inside one', async () => {
    const file = path.join(tempDir(), 'data');
    fs.writeFileSync(file, 'not a folder');
    const onFile = await run('--data-dir', file, 'kb', 'list');
    expect(onFile).toMatchObject({ code: 1, err: `sift: the data folder cannot be used: ${file} is a file, not a folder; choose another data folder` });
    const inside = await run('--data-dir', path.join(file, 'sub'), 'kb', 'list');
    expect(inside.err).toBe(`sift: the data folder cannot be used: ${file} is a file, so no folder can be made inside it; choose another data folder`);
    expect(fs.readFileSync(file, 'utf8')).toBe('not a folder');
  });

  it('suggests sift kb create for a missing knowledge base, and sift folder add / ingest for an empty one', async () => {
    const data = tempDir();
    const missing = await run('--data-dir', data, 'search', 'Ghost', 'anything');
    expect(missing).toMatchObject({
      code: 1, err: 'sift: no knowledge base has the id or name "Ghost". See them with: sift kb list; create one with: sift kb create NAME',
    });
    await run('--data-dir', data, 'kb', 'create', 'Notes');
    const empty = await run('--data-dir', data, 'search', 'Notes', 'anything', '--mode', 'keyword');
    expect(empty).toMatchObject({ code: 0, err: 'sift: This knowledge base has no folders yet. Add one: sift folder add Notes PATH' });
    expect(empty.out).toContain('Nothing matched in this knowledge base.');
    const ingested = await run('--data-dir', data, 'ingest', 'Notes');
    expect(ingested.err).toBe('sift: This knowledge base has no folders yet. Add one: sift folder add Notes PATH');
    const docs = tempDir();
    await run('--data-dir', data, 'folder', 'add', 'Notes', docs);
    const notIndexed = await run('--data-dir', data, 'search', 'Notes', 'anything', '--mode', 'keyword');
    expect(notIndexed.err).toBe('sift: This knowledge base has no pages yet. Index its folders: sift ingest Notes');
    fs.writeFileSync(path.join(docs, 'a.md'), '# Alpha\n\nSomething else entirely.\n');
    await run('--data-dir', data, 'ingest', 'Notes');
    expect((await run('--data-dir', data, 'search', 'Notes', 'zebrafish', '--mode', 'keyword')).err).toBe('');
  }, 60_000);
});
