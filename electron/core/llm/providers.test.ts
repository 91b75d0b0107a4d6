import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, Settings, type ProviderSettings } from '../../../shared/settings';
import { providerFor } from './providers';

const box: ProviderSettings = { name: 'box', kind: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', apiKeyRef: null, defaultModel: 'qwen3:4b' };
const cloud: ProviderSettings = { name: 'Cloud', kind: 'openai', baseUrl: 'https://api.example.com/v1', apiKeyRef: 'env', defaultModel: null };
const settings: Settings = {
  ...DEFAULT_SETTINGS, model: 'llama3.2', providers: [box, cloud], defaultProvider: 'box', kbProviders: { kb2: 'cloud', kb3: 'ollama' },
};

describe('providerFor', () => {
  it.each([
    ['kb1', {}, 'box'],
    ['kb2', {}, 'Cloud'], // a knowledge base's choice wins over the default, names compared without case
    ['kb3', {}, 'ollama'],
    [null, {}, 'box'],
    ['kb2', { provider: 'box' }, 'box'], // the host's choice (--provider) wins over both
    ['kb1', { custom: { ...cloud, name: 'base-url' } }, 'base-url'],
  ] as const)('for %s with %j is %s', (kb, overrides, expected) => {
    expect(providerFor(settings, kb, overrides).name).toBe(expected);
  });

  it('is the built-in Ollama at its host (or the host override) with the settings model when nothing else is chosen', () => {
    expect(providerFor(DEFAULT_SETTINGS, 'kb1')).toEqual({
      name: 'ollama', kind: 'ollama', baseUrl: 'http://127.0.0.1:11434', apiKeyRef: null, defaultModel: null, builtin: true,
    });
    expect(providerFor(settings, 'kb3', { host: 'http://10.0.0.2:11434' })).toMatchObject({ baseUrl: 'http://10.0.0.2:11434', defaultModel: 'llama3.2' });
  });

  it('names the providers there are when the chosen one is gone', () => {
    expect(() => providerFor({ ...settings, defaultProvider: 'lab' }, 'kb1')).toThrow('There is no provider "lab" in Settings (there are: ollama, box, Cloud).');
  });

  it('refuses a provider list that could hold a key, repeat a name or take the built-in name', () => {
    const check = (providers: ProviderSettings[]) => Settings.safeParse({ ...DEFAULT_SETTINGS, providers }).success;
    expect(check([box, cloud])).toBe(true);
    expect(check([{ ...box, apiKeyRef: 'sk-abc123' }])).toBe(false);
    expect(check([box, { ...cloud, name: 'BOX' }])).toBe(false);
    expect(check([{ ...box, name: 'Ollama' }])).toBe(false);
    expect(check([{ ...box, apiKeyRef: 'file:/home/me/.keys/lm' }, { ...cloud, apiKeyRef: 'env:LAB_KEY' }])).toBe(true);
  });
});
