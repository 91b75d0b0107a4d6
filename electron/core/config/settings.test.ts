import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/settings';
import { ollamaHostFromEnv } from './settings';
import { createSift, type Sift } from '../sift';
import { tempDir } from '../testing/temp';

let sift: Sift | null = null;
afterEach(async () => {
  await sift?.close();
  sift = null;
});

describe('settings', () => {
  it('starts from the defaults (adjusted by the host) and persists changes across restarts', async () => {
    const dataDir = tempDir();
    sift = createSift({ dataDir, settingsDefaults: { ollamaHost: 'http://10.0.0.5:11434', theme: undefined } });
    expect(await sift.invoke('settings.get', {})).toEqual({ ok: true, value: { ...DEFAULT_SETTINGS, ollamaHost: 'http://10.0.0.5:11434' } });
    const seen: unknown[] = [];
    sift.onEvent((e, p) => e === 'settings.changed' && seen.push(p));
    const set = await sift.invoke('settings.set', { patch: { theme: 'dark', language: 'zh-CN', searchBudget: 5, embedding: { provider: 'none' } } });
    expect(set).toMatchObject({ ok: true, value: { theme: 'dark', language: 'zh-CN', searchBudget: 5, embedding: { provider: 'none', modelId: 'Xenova/multilingual-e5-small' } } });
    expect(seen).toHaveLength(1);
    await sift.close();
    sift = createSift({ dataDir });
    expect(await sift.invoke('settings.get', {})).toMatchObject({ ok: true, value: { theme: 'dark', language: 'zh-CN', searchBudget: 5, ollamaHost: DEFAULT_SETTINGS.ollamaHost } });
  });

  it.each([
    [{ ollamaHost: 'ftp://example.com' }, /ollamaHost: must be an http\(s\) URL/],
    [{ ollamaHost: 'not a url' }, /ollamaHost: must be an http\(s\) URL/],
    [{ searchBudget: -1 }, /searchBudget: must be at least 1/],
    [{ contextPercent: 90 }, /contextPercent: must be at most 60/],
    [{ topK: 2.5 }, /topK: must be a whole number/],
    [{ theme: 'purple' }, /theme/],
    [{ embedding: { provider: 'magic' } }, /embedding\.provider/],
    [{ colour: 'red' }, /colour|Unrecognized/],
  ])('refuses %o with a clear error', async (patch, message) => {
    sift = createSift({ dataDir: tempDir() });
    const r = await sift.invoke('settings.set', { patch });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(!r.ok && r.error.message).toMatch(message);
    expect(await sift.invoke('settings.get', {})).toEqual({ ok: true, value: DEFAULT_SETTINGS });
  });

  it('applies the Ollama host to the next status check', async () => {
    sift = createSift({ dataDir: tempDir() });
    await sift.invoke('settings.set', { patch: { ollamaHost: 'http://127.0.0.1:9' } });
    expect(await sift.invoke('llm.status', {})).toMatchObject({ ok: true, value: { reachable: false, host: 'http://127.0.0.1:9' } });
  });

  it.each([
    [undefined, undefined],
    ['', undefined],
    ['127.0.0.1', 'http://127.0.0.1:11434'],
    ['localhost:8080', 'http://localhost:8080'],
    ['https://ollama.example.com', 'https://ollama.example.com'],
    ['http://10.0.0.2:11434/', 'http://10.0.0.2:11434'],
  ])('reads OLLAMA_HOST %s as %s', (value, expected) => {
    expect(ollamaHostFromEnv(value)).toBe(expected);
  });
});
