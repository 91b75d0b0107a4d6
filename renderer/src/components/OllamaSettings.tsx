/** The Ollama part of the settings: the server's address with a connection test, the chat model, reasoning. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LlmStatus } from '../../../shared/chat-models';
import type { Settings } from '../../../shared/settings';
import { client } from '../client';
import { useLlm } from '../state/llm';
import { useSettings } from '../state/settings';
import { Field, SelectSetting, useDraft } from './SettingFields';
import { spoken } from '../lib/spoken';

const NO_MODELS: string[] = [];

/** The Ollama section. */
export function OllamaSettings({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const save = useSettings((s) => s.save);
  // The status is the default provider's: its models are Ollama's only when Ollama answers by default.
  const installed = useLlm((s) => (s.status && !s.status.provider ? s.status.models : NO_MODELS));
  const models: [string, string][] = [['', t('settings.firstInstalled')], ...installed.map((m): [string, string] => [m, m])];
  if (settings.model && !installed.includes(settings.model)) models.push([settings.model, t('settings.notInstalled', { model: settings.model })]);
  const think = settings.think === null ? 'default' : settings.think ? 'on' : 'off';
  return (
    <section className="settings-section" aria-labelledby="settings-ollama">
      <h3 id="settings-ollama">{t('settings.ollama')}</h3>
      <HostSetting value={settings.ollamaHost} />
      <SelectSetting id="setting-model" label={t('settings.model')} value={settings.model ?? ''} options={models} onCommit={(m) => save({ model: m || null })} />
      <SelectSetting
        id="setting-think"
        label={t('settings.think')}
        value={think}
        options={[
          ['default', t('settings.thinkDefault')],
          ['on', t('settings.thinkOn')],
          ['off', t('settings.thinkOff')],
        ]}
        onCommit={(v) => save({ think: v === 'default' ? null : v === 'on' })}
      />
    </section>
  );
}

/** The address field, saved when left or on Enter; "Test connection" saves what was typed, then asks the server. */
function HostSetting({ value }: { value: string }) {
  const { t } = useTranslation();
  const save = useSettings((s) => s.save);
  const [draft, setDraft] = useDraft(value);
  const [error, setError] = useState<string | null>(null);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<LlmStatus | string | null>(null);

  async function commit(): Promise<boolean> {
    const problem = draft === value ? null : await save({ ollamaHost: draft });
    setError(problem);
    return problem === null;
  }
  async function test() {
    setTesting(true);
    setTested(null);
    if (await commit()) {
      const result = await client.invoke('llm.status', {});
      // The banner and the status bar show the same answer at once.
      if (result.ok) useLlm.setState({ status: result.value, error: null });
      setTested(result.ok ? result.value : result.error.message);
    }
    setTesting(false);
  }
  return (
    <>
      <Field id="setting-host" label={t('settings.host')} help={t('settings.hostHelp')} error={error}>
        <div className="row">
          <input
            id="setting-host"
            value={draft}
            placeholder="http://127.0.0.1:11434"
            spellCheck={false}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby="setting-host-note"
            onChange={(e) => setDraft(e.target.value)}
            onBlur={() => void commit()}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              void commit();
            }}
          />
          {/* mousedown keeps the focus in the field, so the click saves once (not on blur and again on click) */}
          <button type="button" disabled={testing} onMouseDown={(e) => e.preventDefault()} onClick={() => void test()}>
            {testing ? t('settings.testing') : t('settings.testConnection')}
          </button>
        </div>
      </Field>
      {tested !== null && <ConnectionResult status={tested} />}
    </>
  );
}

/** What the connection test found: the server's version and models, or the core's message. */
function ConnectionResult({ status }: { status: LlmStatus | string }) {
  const { t } = useTranslation();
  if (typeof status === 'string' || !status.reachable) {
    return (
      <p role="status" className="connection-result down">
        {typeof status === 'string' ? status : status.message && spoken(t, status.message, status.said)}
      </p>
    );
  }
  return (
    <div role="status" className="connection-result ok">
      <p>{t('settings.reachable', { version: status.version ?? '', host: status.host })}</p>
      <p>{t('settings.installedModels', { count: status.models.length, models: status.models.join(', ') })}</p>
      {status.message && <p className="muted">{spoken(t, status.message, status.said)}</p>}
    </div>
  );
}
