import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../core/testing/temp';
import { runLines as run } from './testing/run';

describe('sift CLI', () => {
  it('manages knowledge bases and folders by id or exact name', async () => {
    const data = tempDir();
    const folder = fs.realpathSync(tempDir());
    const created = await run('--data-dir', data, 'kb', 'create', 'Notes');
    expect(created.code).toBe(0);
    const id = created.out.trim();
    expect(id).toMatch(/^[0-9a-f]{12}$/);
    expect((await run('--data-dir', data, 'folder', 'add', 'Notes', folder)).out).toBe(`added ${folder}`);
    const listed = JSON.parse((await run('--data-dir', data, 'kb', 'list', '--json')).out);
    expect(listed).toMatchObject([{ id, name: 'Notes', folderCount: 1 }]);
    expect((await run('--data-dir', data, 'folder', 'list', id)).out).toBe(folder);
    expect((await run('--data-dir', data, 'kb', 'rename', id, 'Journal')).out).toBe(`renamed ${id} to "Journal"`);
    expect((await run('--data-dir', data, 'kb', 'list')).out).toMatch(new RegExp(`ID\\s+NAME\\s+FOLDERS\\n${id}\\s+Journal\\s+1`));
    expect((await run('--data-dir', data, 'folder', 'remove', 'Journal', folder)).code).toBe(0);
    expect((await run('--data-dir', data, 'kb', 'delete', 'Journal')).out).toBe(`deleted ${id}`);
    expect(fs.existsSync(path.join(data, 'kbs', `${id}.sqlite`))).toBe(false);
  });

  it('adds a folder that follows links out only with --follow-links, and refuses the root', async () => {
    const data = tempDir();
    const [plain, linked] = [fs.realpathSync(tempDir()), fs.realpathSync(tempDir())];
    await run('--data-dir', data, 'kb', 'create', 'Notes');
    expect((await run('--data-dir', data, 'folder', 'add', 'Notes', plain)).code).toBe(0);
    expect((await run('--data-dir', data, 'folder', 'add', 'Notes', linked, '--follow-links')).code).toBe(0);
    const folders = JSON.parse((await run('--data-dir', data, 'folder', 'list', 'Notes', '--json')).out) as { path: string; followExternalLinks: boolean }[];
    expect(folders.map((f) => [f.path, f.followExternalLinks])).toEqual([
      [plain, false],
      [linked, true],
    ]);
    const root = path.parse(plain).root;
    expect(await run('--data-dir', data, 'folder', 'add', 'Notes', root)).toMatchObject({ code: 1, err: `sift: ${root} is the root of a file system; add the folders that hold your documents instead` });
  });

  it('search says when a code of the query occurs nowhere, and not when it does', async () => {
    const data = tempDir();
    const folder = tempDir();
    fs.writeFileSync(path.join(folder, 'retry.md'), '# Retry\n\nCall retryOperation.reset() before the next attempt.\n');
    fs.writeFileSync(path.join(folder, 'gateway.md'), '# Gateway\n\nThe gateway answers E_TIMEOUT after thirty seconds.\n');
    await run('--data-dir', data, 'kb', 'create', 'Docs');
    await run('--data-dir', data, 'folder', 'add', 'Docs', folder);
    await run('--data-dir', data, 'ingest', 'Docs');
    const absent = await run('--data-dir', data, 'search', 'Docs', 'E_CONN_RESET', '--mode', 'keyword');
    expect(absent.out).toContain('(no exact match for E_CONN_RESET in this knowledge base: passages below match only other words or parts)');
    const json = JSON.parse((await run('--data-dir', data, 'search', 'Docs', 'E_CONN_RESET', '--mode', 'keyword', '--json')).out);
    expect(json.noExactMatch).toEqual(['E_CONN_RESET']);
    const held = await run('--data-dir', data, 'search', 'Docs', 'E_TIMEOUT', '--mode', 'keyword');
    expect(held.out).not.toContain('no exact match');
    expect(held.out).toMatch(/^\[1\] Gateway/m);
  }, 60_000);

  it('prints one clear line to stderr and exits non-zero on errors', async () => {
    const data = tempDir();
    expect(await run('--data-dir', data, 'kb', 'delete', 'ghost')).toEqual({ code: 1, out: '', err: 'sift: no knowledge base has the id or name "ghost". See them with: sift kb list; create one with: sift kb create NAME' });
    expect(await run('--data-dir', data, 'kb', 'create')).toMatchObject({ code: 2, err: 'sift: expected NAME, got 0 argument(s). See sift --help.' });
    expect(await run('--data-dir', data, 'frobnicate')).toMatchObject({ code: 2, err: 'sift: unknown command "frobnicate". See sift --help.' });
    expect((await run('--data-dir', data, 'kb', 'list', '--nope')).code).toBe(2);
    expect((await run('--data-dir', data, 'folder', 'add', 'x', '/definitely/not/here')).err).toBe('sift: no knowledge base has the id or name "x". See them with: sift kb list; create one with: sift kb create NAME');
  });

  it('takes the data folder from SIFT_DATA_DIR when no flag is given', async () => {
    const data = tempDir();
    const before = process.env.SIFT_DATA_DIR;
    process.env.SIFT_DATA_DIR = data;
    try {
      expect((await run('kb', 'create', 'Env')).code).toBe(0);
    } finally {
      if (before === undefined) delete process.env.SIFT_DATA_DIR;
      else process.env.SIFT_DATA_DIR = before;
    }
    expect(fs.readdirSync(path.join(data, 'kbs'))).toHaveLength(1);
  });

  it('runs as the installed bin script', async () => {
    const data = tempDir();
    const bin = path.resolve(__dirname, '../../bin/sift.mjs');
    const exec = promisify(execFile);
    const { stdout } = await exec(process.execPath, [bin, '--data-dir', data, 'kb', 'create', 'Bin']);
    expect(stdout.trim()).toMatch(/^[0-9a-f]{12}$/);
    const failed = await exec(process.execPath, [bin, '--data-dir', data, 'kb', 'create', 'Bin']).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1, stderr: 'sift: a knowledge base named "Bin" already exists\n' });
  });
});
