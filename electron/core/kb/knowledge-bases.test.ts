import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSift, type Sift } from '../sift';
import { tempDir } from '../testing/temp';

const open: Sift[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

function start(dataDir = tempDir()): Sift {
  const sift = createSift({ dataDir });
  open.push(sift);
  return sift;
}

async function value<T>(p: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe('knowledge bases', () => {
  it('creates, lists, renames and deletes, each with its own file under kbs/', async () => {
    const sift = start();
    const a = (await value(sift.invoke('kb.create', { name: 'Notes' }))) as { id: string };
    const b = (await value(sift.invoke('kb.create', { name: '论文 Papers' }))) as { id: string };
    const file = (id: string) => path.join(sift.dataDir, 'kbs', `${id}.sqlite`);
    expect(fs.existsSync(file(a.id)) && fs.existsSync(file(b.id))).toBe(true);
    const list = (await value(sift.invoke('kb.list', {}))) as { name: string }[];
    expect(list.map((k) => k.name)).toEqual(['Notes', '论文 Papers']);

    const renamed = (await value(sift.invoke('kb.rename', { kb: 'Notes', name: 'Journal' }))) as { id: string; name: string };
    expect(renamed).toMatchObject({ id: a.id, name: 'Journal' });

    expect(await sift.invoke('kb.delete', { kb: a.id })).toEqual({ ok: true, value: { id: a.id } });
    expect(fs.existsSync(file(a.id))).toBe(false);
    expect(fs.existsSync(file(b.id))).toBe(true);
    expect(((await value(sift.invoke('kb.list', {}))) as unknown[]).length).toBe(1);
  });

  it('keeps each knowledge base isolated in its own database file', async () => {
    const sift = start();
    const a = (await value(sift.invoke('kb.create', { name: 'A' }))) as { id: string };
    const b = (await value(sift.invoke('kb.create', { name: 'B' }))) as { id: string };
    await sift.close();
    open.length = 0;
    for (const [id, other] of [[a.id, b.id], [b.id, a.id]] as const) {
      const db = new Database(path.join(sift.dataDir, 'kbs', `${id}.sqlite`), { readonly: true });
      const ids = db.prepare('SELECT value FROM kb_meta WHERE key = ?').pluck().all('kb_id');
      expect(ids).toEqual([id]);
      expect(ids).not.toContain(other);
      db.close();
    }
  });

  it('answers with clear error codes', async () => {
    const sift = start();
    await value(sift.invoke('kb.create', { name: 'Notes' }));
    expect(await sift.invoke('kb.create', { name: 'Notes' })).toMatchObject({ ok: false, error: { code: 'already_exists' } });
    expect(await sift.invoke('kb.create', { name: '   ' })).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(await sift.invoke('kb.create', { name: 42 })).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(await sift.invoke('kb.rename', { kb: 'nope', name: 'x' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await sift.invoke('kb.delete', { kb: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await sift.invoke('kb.explode', {})).toMatchObject({ ok: false, error: { code: 'unknown_operation' } });
  });

  it('refuses names of only zero-width characters, with NUL or a bidi override, saying why (issue #27 item 3)', async () => {
    const sift = start();
    const refused = async (name: string) => {
      const r = await sift.invoke('kb.create', { name });
      expect(r.ok, JSON.stringify(name)).toBe(false);
      return r.ok ? '' : `${r.error.code}: ${r.error.message}`;
    };
    expect(await refused('\u200b\u200b\u200b')).toMatch(/^invalid_argument: .*no visible character/);
    expect(await refused('Notes\u0000')).toMatch(/^invalid_argument: .*control character \(such as NUL/);
    expect(await refused('gpj.\u202eexe')).toMatch(/^invalid_argument: .*bidirectional control character \(such as U\+202E\)/);
    const kb = await value(sift.invoke('kb.create', { name: 'Notes' })) as { id: string };
    expect(await sift.invoke('kb.rename', { kb: kb.id, name: '\ufeff\u200d' })).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(((await value(sift.invoke('kb.list', {}))) as { name: string }[]).map((k) => k.name)).toEqual(['Notes']);
  });

  it('survives a restart: knowledge bases persist in the data folder', async () => {
    const dir = tempDir();
    const first = start(dir);
    await value(first.invoke('kb.create', { name: 'Keep me' }));
    await first.close();
    open.length = 0;
    const second = start(dir);
    expect(((await value(second.invoke('kb.list', {}))) as { name: string }[]).map((k) => k.name)).toEqual(['Keep me']);
  });

  it('emits kb.changed for every change', async () => {
    const sift = start();
    const seen: unknown[] = [];
    sift.onEvent((event, payload) => seen.push([event, payload]));
    const kb = (await value(sift.invoke('kb.create', { name: 'N' }))) as { id: string };
    await value(sift.invoke('kb.rename', { kb: kb.id, name: 'M' }));
    await value(sift.invoke('kb.delete', { kb: kb.id }));
    expect(seen).toEqual([
      ['kb.changed', { kbId: kb.id, change: 'created' }],
      ['kb.changed', { kbId: kb.id, change: 'renamed' }],
      ['kb.changed', { kbId: kb.id, change: 'deleted' }],
    ]);
  });
});
