/**
 * Settings section "Model providers": model servers besides the built-in Ollama (another Ollama, or any
 * OpenAI-compatible server: LM Studio, llama-server, vLLM, LocalAI, Jan, a hosted API), each with "Test connection";
 * which one answers by default, and per knowledge base. An API key typed here goes straight to the core's encrypted
 * store (desktop app) and never into the settings; elsewhere the key comes from an environment variable or a key file.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpResult } from '../../../shared/contract';
import { isLoopbackUrl } from '../../../shared/providers';
import { nameProblem } from '../../../shared/names';
import { BUILTIN_PROVIDER, type ProviderSettings, type Settings } from '../../../shared/settings';
import { client } from '../client';
import { speak } from '../lib/spoken';
import { useKbs } from '../state/kbs';
import { useSettings } from '../state/settings';
import { Field, SelectSetting } from './SettingFields';

type TestResult = OpResult<'providers.test'> | string;

/** The section. */
export function ProvidersSettings({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const save = useSettings((s) => s.save);
  const kbs = useKbs((s) => s.kbs);
  const [keyStorage, setKeyStorage] = useState(false);
  useEffect(() => {
    void client.invoke('app.info', {}).then((r) => r.ok && setKeyStorage(r.value.keyStorage === true));
  }, []);
  const names = settings.providers.map((p) => p.name);
  const choices: [string, string][] = [[BUILTIN_PROVIDER, t('providers.builtin')], ...names.map((n): [string, string] => [n, n])];

  async function remove(name: string) {
    // What chose the provider goes back to the default, so nothing points at a provider that is gone.
    const kbProviders = Object.fromEntries(Object.entries(settings.kbProviders).filter(([, n]) => n !== name));
    const defaultProvider = settings.defaultProvider === name ? null : settings.defaultProvider;
    await save({ providers: settings.providers.filter((p) => p.name !== name), kbProviders, defaultProvider });
  }
  return (
    <section className="settings-section" aria-labelledby="settings-providers">
      <h3 id="settings-providers">{t('providers.title')}</h3>
      <p className="field-help">{t('providers.help')}</p>
      <ul className="provider-list" aria-label={t('providers.list')}>
        {settings.providers.map((p) => (
          <ProviderRow key={p.name} provider={p} onRemove={() => void remove(p.name)} />
        ))}
      </ul>
      <AddProvider existing={settings.providers} keyStorage={keyStorage} />
      <SelectSetting
        id="setting-default-provider"
        label={t('providers.default')}
        help={t('providers.defaultHelp')}
        value={settings.defaultProvider ?? BUILTIN_PROVIDER}
        options={choices}
        onCommit={(name) => save({ defaultProvider: name === BUILTIN_PROVIDER ? null : name })}
      />
      {kbs.map((kb) => (
        <SelectSetting
          key={kb.id}
          id={`setting-kb-provider-${kb.id}`}
          label={t('providers.forKb', { name: kb.name })}
          value={settings.kbProviders[kb.id] ?? ''}
          options={[['', t('providers.useDefault')], ...choices]}
          onCommit={(name) => {
            const { [kb.id]: _old, ...rest } = settings.kbProviders;
            return save({ kbProviders: name ? { ...rest, [kb.id]: name } : rest });
          }}
        />
      ))}
    </section>
  );
}

/** One provider of the list: what it is, where its key comes from, "Test connection" and "Remove". */
function ProviderRow({ provider, onRemove }: { provider: ProviderSettings; onRemove(): void }) {
  const { t } = useTranslation();
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);
  async function test() {
    setTesting(true);
    const answer = await client.invoke('providers.test', { provider });
    setResult(answer.ok ? answer.value : answer.error.message);
    setTesting(false);
  }
  return (
    <li className="provider-row" aria-label={provider.name}>
      <div className="provider-head">
        <strong>{provider.name}</strong>
        <span className="muted">{provider.kind === 'openai' ? t('providers.kindOpenAi') : t('providers.kindOllama')}</span>
        <code>{provider.baseUrl}</code>
        {!isLoopbackUrl(provider.baseUrl) && <span className="badge hosted">{t('providers.hosted')}</span>}
      </div>
      <p className="muted">
        {t('providers.keyFrom', { source: keySourceLabel(provider.apiKeyRef, { none: t('providers.keyNone'), stored: t('providers.keyStored') }) })}
        {provider.defaultModel ? ` · ${t('providers.modelIs', { model: provider.defaultModel })}` : ''}
        {provider.connectTimeoutMs ? ` · ${t('providers.waitIs', { seconds: provider.connectTimeoutMs / 1000 })}` : ''}
      </p>
      <div className="row">
        <button type="button" disabled={testing} onClick={() => void test()}>
          {testing ? t('settings.testing') : t('settings.testConnection')}
        </button>
        <button type="button" onClick={onRemove}>
          {t('providers.remove')}
        </button>
      </div>
      {result !== null && <TestOutcome result={result} />}
    </li>
  );
}

/** Whole seconds from 1 to 600: what the wait for an answer to start may be. */
function validWaitSeconds(text: string): boolean {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 600;
}

/** Where a key comes from, for people: none, stored, the variables, or the key file's path. */
function keySourceLabel(ref: string | null, labels: { none: string; stored: string }): string {
  if (ref === null) return labels.none;
  if (ref === 'stored') return labels.stored;
  if (ref === 'env') return 'SIFT_API_KEY / OPENAI_API_KEY';
  return ref.startsWith('env:') ? ref.slice(4) : ref.slice(5);
}

/** What "Test connection" found: the models the server lists, or why it could not be used. */
function TestOutcome({ result }: { result: TestResult }) {
  const { t } = useTranslation();
  if (typeof result === 'string' || !result.ok) {
    return (
      <p role="status" className="connection-result down">
        {typeof result === 'string' ? result : result.message}
      </p>
    );
  }
  return (
    <div role="status" className="connection-result ok">
      <p>{t('providers.listed', { count: result.models.length, models: result.models.join(', ') })}</p>
      {result.message && <p className="muted">{result.message}</p>}
    </div>
  );
}

type KeySource = 'none' | 'stored' | 'env' | 'file';

/** The form that adds a provider; its key (desktop app) is stored encrypted before the provider is saved. */
function AddProvider({ existing, keyStorage }: { existing: ProviderSettings[]; keyStorage: boolean }) {
  const { t } = useTranslation();
  const save = useSettings((s) => s.save);
  const [form, setForm] = useState({
    name: '', kind: 'openai' as ProviderSettings['kind'], baseUrl: '', model: '', source: 'none' as KeySource, key: '', file: '', context: '',
    wait: '',
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<TestResult | null>(null);
  const set = (change: Partial<typeof form>) => setForm({ ...form, ...change });
  const ref = form.source === 'none' ? null : form.source === 'file' ? `file:${form.file.trim()}` : form.source;
  const provider: ProviderSettings = {
    name: form.name.trim(), kind: form.kind, baseUrl: form.baseUrl.trim(), apiKeyRef: ref, defaultModel: form.model.trim() || null,
    // Blank: the window the server reports; a typed one the core checks (512–10,000,000).
    ...(form.context.trim() ? { contextLength: Number(form.context) } : {}),
    // Blank: the 10 s default. Whole seconds here; the core keeps milliseconds and checks them again (1 s–10 min).
    ...(form.wait.trim() ? { connectTimeoutMs: Number(form.wait) * 1000 } : {}),
  };
  const waitInvalid = form.wait.trim() !== '' && !validWaitSeconds(form.wait);
  const typedKey = form.source === 'stored' && form.key.trim() ? form.key.trim() : undefined;

  async function test() {
    setResult(null);
    const answer = await client.invoke('providers.test', { provider, apiKey: typedKey });
    setResult(answer.ok ? answer.value : answer.error.message);
  }
  async function add() {
    setProblem(null);
    if (waitInvalid) return; // the field says why
    // The core refuses such a name too (shared/names.ts); saying it here keeps a typed key from being stored first.
    const badName = nameProblem(provider.name);
    if (badName) return setProblem(speak(t, { code: badName }));
    if (typedKey) {
      const kept = await client.invoke('providers.setKey', { name: provider.name, apiKey: typedKey });
      if (!kept.ok) return setProblem(kept.error.message);
    }
    const message = await save({ providers: [...existing, provider] });
    if (message) return setProblem(message);
    setForm({ ...form, name: '', baseUrl: '', model: '', key: '', file: '', context: '', wait: '' });
    setResult(null);
  }
  const sources: [KeySource, string][] = [
    ['none', t('providers.keyNone')],
    ...(keyStorage ? [['stored', t('providers.keyStored')] as [KeySource, string]] : []),
    ['env', 'SIFT_API_KEY / OPENAI_API_KEY'],
    ['file', t('providers.keyFile')],
  ];
  return (
    <fieldset className="settings-group add-provider">
      <legend>{t('providers.add')}</legend>
      <Field id="provider-name" label={t('providers.name')} error={null}>
        <input id="provider-name" value={form.name} onChange={(e) => set({ name: e.target.value })} />
      </Field>
      <Field id="provider-kind" label={t('providers.kind')} error={null}>
        <select id="provider-kind" value={form.kind} onChange={(e) => set({ kind: e.target.value as ProviderSettings['kind'] })}>
          <option value="openai">{t('providers.kindOpenAi')}</option>
          <option value="ollama">{t('providers.kindOllama')}</option>
        </select>
      </Field>
      <Field id="provider-url" label={t('providers.baseUrl')} help={t('providers.baseUrlHelp')} error={null}>
        <input id="provider-url" value={form.baseUrl} spellCheck={false} placeholder="http://127.0.0.1:1234/v1" onChange={(e) => set({ baseUrl: e.target.value })} />
      </Field>
      {form.kind === 'openai' && (
        <Field id="provider-key-source" label={t('providers.keySource')} help={keyStorage ? undefined : t('providers.keySourceHelp')} error={null}>
          <select id="provider-key-source" value={form.source} onChange={(e) => set({ source: e.target.value as KeySource })}>
            {sources.map(([v, label]) => (
              <option key={v} value={v}>{label}</option>
            ))}
          </select>
        </Field>
      )}
      {form.kind === 'openai' && form.source === 'stored' && (
        <Field id="provider-key" label={t('providers.apiKey')} help={t('providers.apiKeyHelp')} error={null}>
          <input id="provider-key" type="password" autoComplete="off" value={form.key} onChange={(e) => set({ key: e.target.value })} />
        </Field>
      )}
      {form.kind === 'openai' && form.source === 'file' && (
        <Field id="provider-key-file" label={t('providers.keyFile')} help={t('providers.keyFileHelp')} error={null}>
          <input id="provider-key-file" value={form.file} spellCheck={false} onChange={(e) => set({ file: e.target.value })} />
        </Field>
      )}
      <Field id="provider-model" label={t('providers.model')} error={null}>
        <input id="provider-model" value={form.model} spellCheck={false} placeholder={t('settings.firstInstalled')} onChange={(e) => set({ model: e.target.value })} />
      </Field>
      {form.kind === 'openai' && (
        <Field id="provider-context" label={t('providers.contextLength')} help={t('providers.contextLengthHelp')} error={null}>
          <input id="provider-context" type="number" value={form.context} onChange={(e) => set({ context: e.target.value })} />
        </Field>
      )}
      <Field id="provider-wait" label={t('providers.wait')} help={t('providers.waitHelp')} error={waitInvalid ? t('providers.waitInvalid') : null}>
        <input id="provider-wait" type="number" min={1} max={600} step={1} placeholder="10" value={form.wait} onChange={(e) => set({ wait: e.target.value })} />
      </Field>
      {provider.baseUrl && !isLoopbackUrl(provider.baseUrl) && (
        <p role="note" className="field-help hosted-note">{t('providers.hostedNote')}</p>
      )}
      {problem && <p role="alert" className="field-error">{problem}</p>}
      <div className="row">
        <button type="button" disabled={!provider.name || !provider.baseUrl || waitInvalid} onClick={() => void test()}>
          {t('providers.testFirst')}
        </button>
        <button type="button" className="primary" disabled={!provider.name || !provider.baseUrl || waitInvalid} onClick={() => void add()}>
          {t('providers.addButton')}
        </button>
      </div>
      {result !== null && <TestOutcome result={result} />}
    </fieldset>
  );
}
