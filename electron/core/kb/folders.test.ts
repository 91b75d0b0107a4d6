import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSift, type Sift } from '../sift';
import { tempDir } from '../testing/temp';

let sift: Sift;
afterEach(async () => {
  await sift?.close();
});

function setup() {
  sift = createSift({ dataDir: tempDir() });
  const root = fs.realpathSync(tempDir());
  for (const d of ['notes/daily', 'papers', 'other']) fs.mkdirSync(path.join(root, d), { recursive: true });
  fs.writeFileSync(path.join(root, 'file.txt'), 'x');
  return root;
}

describe('folders of a knowledge base', () => {
  it('adds, lists and removes folders', async () => {
    const root = setup();
    await sift.invoke('kb.create', { name: 'K' });
    const added = await sift.invoke('folder.add', { kb: 'K', path: path.join(root, 'notes') });
    expect(added).toMatchObject({ ok: true, value: { path: path.join(root, 'notes'), name: 'notes', excludeGlobs: [] } });
    await sift.invoke('folder.add', { kb: 'K', path: path.join(root, 'papers') + '/' });
    const list = await sift.invoke('folder.list', { kb: 'K' });
    expect(list.ok && (list.value as { path: string }[]).map((f) => f.path)).toEqual([path.join(root, 'notes'), path.join(root, 'papers')]);
    expect(await sift.invoke('kb.list', {})).toMatchObject({ ok: true, value: [{ name: 'K', folderCount: 2 }] });
    expect(await sift.invoke('folder.remove', { kb: 'K', path: path.join(root, 'notes') })).toEqual({ ok: true, value: { path: path.join(root, 'notes') } });
    expect(await sift.invoke('folder.list', { kb: 'K' })).toMatchObject({ ok: true, value: [{ name: 'papers' }] });
  });

  it('validates paths: missing, a file, twice, nested, containing', async () => {
    const root = setup();
    await sift.invoke('kb.create', { name: 'K' });
    await sift.invoke('folder.add', { kb: 'K', path: path.join(root, 'notes') });
    const code = async (p: string) => {
      const r = await sift.invoke('folder.add', { kb: 'K', path: p });
      return r.ok ? 'ok' : r.error.code;
    };
    expect(await code(path.join(root, 'missing'))).toBe('not_found');
    expect(await code(path.join(root, 'file.txt'))).toBe('invalid_argument');
    expect(await code(path.join(root, 'notes'))).toBe('already_exists');
    expect(await code(path.join(root, 'notes', 'daily'))).toBe('conflict');
    expect(await code(root)).toBe('conflict');
    expect(await code('')).toBe('invalid_argument');
    expect(await code(path.join(root, 'other'))).toBe('ok');
  });

  it('treats a symlink to an added folder as the same folder', async () => {
    const root = setup();
    fs.symlinkSync(path.join(root, 'notes'), path.join(root, 'link'));
    await sift.invoke('kb.create', { name: 'K' });
    await sift.invoke('folder.add', { kb: 'K', path: path.join(root, 'notes') });
    expect(await sift.invoke('folder.add', { kb: 'K', path: path.join(root, 'link') })).toMatchObject({ ok: false, error: { code: 'already_exists' } });
  });

  it('allows the same folder in two knowledge bases, and removes a folder gone from disk', async () => {
    const root = setup();
    await sift.invoke('kb.create', { name: 'A' });
    await sift.invoke('kb.create', { name: 'B' });
    const dir = path.join(root, 'papers');
    expect((await sift.invoke('folder.add', { kb: 'A', path: dir })).ok).toBe(true);
    expect((await sift.invoke('folder.add', { kb: 'B', path: dir })).ok).toBe(true);
    fs.rmSync(dir, { recursive: true });
    expect(await sift.invoke('folder.remove', { kb: 'A', path: dir })).toEqual({ ok: true, value: { path: dir } });
    expect(await sift.invoke('folder.remove', { kb: 'A', path: dir })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('page prefixes', () => {
  it('leaves the first folder unprefixed and names later ones, uniquely', async () => {
    const root = setup();
    fs.mkdirSync(path.join(root, 'x', 'papers'), { recursive: true });
    await sift.invoke('kb.create', { name: 'K' });
    const prefixes: string[] = [];
    for (const dir of ['notes', 'papers', 'x/papers']) {
      const r = await sift.invoke('folder.add', { kb: 'K', path: path.join(root, dir) });
      prefixes.push(r.ok ? (r.value as { pagePrefix: string }).pagePrefix : r.error.message);
    }
    expect(prefixes).toEqual(['', 'papers', 'papers-2']);
    await sift.invoke('folder.remove', { kb: 'K', path: path.join(root, 'notes') });
    const again = await sift.invoke('folder.add', { kb: 'K', path: path.join(root, 'other') });
    expect(again).toMatchObject({ ok: true, value: { pagePrefix: '' } });
  });
});

describe('folder exclude globs', () => {
  it('updates a folder’s globs and rejects unknown folders', async () => {
    const root = setup();
    await sift.invoke('kb.create', { name: 'K' });
    await sift.invoke('folder.add', { kb: 'K', path: path.join(root, 'notes') });
    const updated = await sift.invoke('folder.update', { kb: 'K', path: path.join(root, 'notes'), excludeGlobs: ['drafts/', '*.log'] });
    expect(updated).toMatchObject({ ok: true, value: { excludeGlobs: ['drafts/', '*.log'] } });
    expect(await sift.invoke('folder.list', { kb: 'K' })).toMatchObject({ ok: true, value: [{ excludeGlobs: ['drafts/', '*.log'] }] });
    expect(await sift.invoke('folder.update', { kb: 'K', path: path.join(root, 'papers'), excludeGlobs: [] })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await sift.invoke('folder.update', { kb: 'K', path: path.join(root, 'notes'), excludeGlobs: [''] })).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('accepts a glob with a run of ** segments, and refuses one too complex to match safely', async () => {
    const root = setup();
    await sift.invoke('kb.create', { name: 'K' });
    await sift.invoke('folder.add', { kb: 'K', path: path.join(root, 'notes') });
    const update = (glob: string) => sift.invoke('folder.update', { kb: 'K', path: path.join(root, 'notes'), excludeGlobs: [glob] });
    expect(await update(`a/${'**/'.repeat(12)}b`)).toMatchObject({ ok: true });
    expect(await update('a/**/b/**/c/**/d/**/e')).toEqual({
      ok: false,
      error: { code: 'invalid_argument', message: 'the exclude glob "a/**/b/**/c/**/d/**/e" is too complex to match safely: 4 separate "**" segments (at most 3)' },
    });
  });
});

describe('folders that are never documents', () => {
  const refusal = async (p: string) => {
    const r = await sift.invoke('folder.add', { kb: 'K', path: p });
    return r.ok ? 'ok' : `${r.error.code}: ${r.error.message}`;
  };

  it('refuses the file-system root and system folders, also through a link', async (ctx) => {
    if (process.platform === 'win32') ctx.skip();
    const root = setup();
    fs.symlinkSync('/proc', path.join(root, 'proc-link'));
    await sift.invoke('kb.create', { name: 'K' });
    expect(await refusal('/')).toBe('invalid_argument: / is the root of a file system; add the folders that hold your documents instead');
    expect(await refusal('/proc')).toBe('invalid_argument: /proc is inside /proc, a system folder whose files are not documents');
    expect(await refusal('/proc/self')).toMatch(/^invalid_argument: \/proc\/\d+ is inside \/proc, a system folder/);
    expect(await refusal(path.join(root, 'proc-link'))).toMatch(/^invalid_argument: \/proc is inside \/proc/);
    for (const dir of ['/sys', '/dev']) expect(await refusal(dir)).toMatch(new RegExp(`^invalid_argument: ${dir} is inside ${dir}, a system folder`));
    expect(await sift.invoke('folder.list', { kb: 'K' })).toEqual({ ok: true, value: [] });
  });

  it("refuses Sift's data folder and folders inside it, but accepts a folder that contains it", async () => {
    const home = fs.realpathSync(tempDir());
    const dataDir = path.join(home, '.config', 'Sift');
    sift = createSift({ dataDir });
    await sift.invoke('kb.create', { name: 'K' });
    expect(await refusal(dataDir)).toBe(`invalid_argument: ${dataDir} is inside Sift's data folder ${dataDir}, which holds its own index files`);
    expect(await refusal(path.join(dataDir, 'kbs'))).toMatch(/^invalid_argument: .* is inside Sift's data folder/);
    expect(await refusal(home)).toBe('ok');
  });

  it('records followExternalLinks per folder, off unless asked for', async () => {
    const root = setup();
    await sift.invoke('kb.create', { name: 'K' });
    await sift.invoke('folder.add', { kb: 'K', path: path.join(root, 'notes') });
    await sift.invoke('folder.add', { kb: 'K', path: path.join(root, 'papers'), followExternalLinks: true });
    const list = await sift.invoke('folder.list', { kb: 'K' });
    expect(list.ok && (list.value as { name: string; followExternalLinks: boolean }[]).map((f) => [f.name, f.followExternalLinks])).toEqual([
      ['notes', false],
      ['papers', true],
    ]);
  });
});
