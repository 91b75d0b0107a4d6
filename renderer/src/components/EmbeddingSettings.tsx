/**
 * The embedding model setting. It is edited as a draft and changed only after asking, because a
 * new model re-embeds every knowledge base in the background; then each knowledge base's progress
 * shows here (and on its indexing panel) from the `ingest.progress` events.
 */
import { useEffect, useState } from 'react';
import { client } from '../client';
import { useTranslation } from 'react-i18next';
import type { EmbeddingSettings as Embedding } from '../../../shared/settings';
import { draftOf, embeddingChanged, embeddingFieldOf, embeddingOf, type EmbeddingDraft } from '../lib/embedding-form';
import { progressOf, useIngest } from '../state/ingest';
import { useKbs } from '../state/kbs';
import { useSettings } from '../state/settings';
import { ConfirmDialog } from './ConfirmDialog';
import { ProgressBar, stateLabel } from './IndexingPanel';
import { Field } from './SettingFields';

/** The embedding group of the settings dialog. */
export function EmbeddingSettings({ saved }: { saved: Embedding }) {
  const { t } = useTranslation();
  const save = useSettings((s) => s.save);
  const savedKey = JSON.stringify(saved);
  const [draft, setDraft] = useState<EmbeddingDraft>(() => draftOf(saved));
  const [asking, setAsking] = useState(false);
  const [problem, setProblem] = useState<{ field: keyof Embedding | null; message: string } | null>(null);
  const [started, setStarted] = useState(false);
  // Follow a change saved here or in another window; keyed by content, since every settings change
  // brings a new object even when the embedding part stayed the same.
  useEffect(() => setDraft(draftOf(JSON.parse(savedKey) as Embedding)), [savedKey]);

  const set = (change: Partial<EmbeddingDraft>) => setDraft({ ...draft, ...change });
  const errorOf = (field: keyof Embedding) => (problem?.field === field ? problem.message : null);
  async function apply() {
    setAsking(false);
    const message = await save({ embedding: embeddingOf(draft) });
    if (message) return setProblem({ field: embeddingFieldOf(message), message });
    setProblem(null);
    setStarted(true);
    const { kbs } = useKbs.getState();
    for (const kb of kbs) void useIngest.getState().loadStatus(kb.id);
  }
  const next = embeddingOf(draft);
  return (
    <fieldset className="settings-group">
      <legend>{t('settings.embedding')}</legend>
      <p className="muted field-help">{t('settings.embeddingHelp')}</p>
      <OverrideNote />
      <EmbeddingFields draft={draft} errorOf={errorOf} onChange={set} />
      {problem && problem.field === null && (
        <p role="alert" className="field-error">
          {problem.message}
        </p>
      )}
      <div className="row">
        <button type="button" className="primary" disabled={!embeddingChanged(saved, draft)} onClick={() => setAsking(true)}>
          {t('settings.applyEmbedding')}
        </button>
      </div>
      {started && <ReembedProgress />}
      {asking && (
        <ConfirmDialog
          title={next.provider === 'none' ? t('settings.noneTitle') : t('settings.reembedTitle')}
          confirmLabel={next.provider === 'none' ? t('settings.noneConfirm') : t('settings.reembedConfirm')}
          danger={false}
          onCancel={() => {
            // Cancel keeps the model in use: the fields go back to it.
            setAsking(false);
            setDraft(draftOf(saved));
          }}
          onConfirm={() => void apply()}
        >
          <p>{next.provider === 'none' ? t('settings.noneText') : t('settings.reembedText', { model: next.provider === 'ollama' ? (next.ollamaModel ?? t('settings.ollamaModelPlaceholder')) : next.provider === 'openai' ? (next.remoteModel ?? '') : next.modelId })}</p>
        </ConfirmDialog>
      )}
    </fieldset>
  );
}

/**
 * The provider the environment forces, when it does: the setting below is then not what indexes, and
 * saying so keeps Settings from showing "Built in" while keyword-only search is in force.
 */
function OverrideNote() {
  const { t } = useTranslation();
  const [provider, setProvider] = useState<Embedding['provider'] | null>(null);
  useEffect(() => {
    void client.invoke('app.info', {}).then((r) => r.ok && setProvider(r.value.embeddingOverride));
  }, []);
  if (!provider) return null;
  const names = {
    transformers: t('settings.providerTransformers'),
    ollama: t('settings.providerOllama'),
    none: t('settings.providerNone'),
    openai: t('settings.providerOpenAi'),
  };
  return (
    <p className="field-help embedding-override" role="note">
      {t('settings.embeddingOverride', { provider: names[provider] })}
    </p>
  );
}

/** Props of {@link EmbeddingFields}. */
interface EmbeddingFieldsProps {
  draft: EmbeddingDraft;
  /** The core's message about a field, or null. */
  errorOf(field: keyof Embedding): string | null;
  onChange(change: Partial<EmbeddingDraft>): void;
}

/** The provider and the fields that provider uses. */
function EmbeddingFields({ draft, errorOf, onChange: set }: EmbeddingFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Field id="setting-provider" label={t('settings.provider')} error={errorOf('provider')}>
        <select id="setting-provider" value={draft.provider} onChange={(e) => set({ provider: e.target.value as Embedding['provider'] })}>
          <option value="transformers">{t('settings.providerTransformers')}</option>
          <option value="ollama">{t('settings.providerOllama')}</option>
          <option value="openai">{t('settings.providerOpenAi')}</option>
          <option value="none">{t('settings.providerNone')}</option>
        </select>
      </Field>
      {draft.provider === 'transformers' && (
        <>
          <DraftInput id="setting-model-id" label={t('settings.modelId')} value={draft.modelId} error={errorOf('modelId')} onChange={(modelId) => set({ modelId })} />
          <DraftInput
            id="setting-model-dir"
            label={t('settings.localModelDir')}
            help={t('settings.localModelDirHelp')}
            value={draft.localModelDir}
            error={errorOf('localModelDir')}
            onChange={(localModelDir) => set({ localModelDir })}
          />
        </>
      )}
      {draft.provider === 'ollama' && (
        <DraftInput
          id="setting-ollama-model"
          label={t('settings.ollamaModel')}
          placeholder={t('settings.ollamaModelPlaceholder')}
          value={draft.ollamaModel}
          error={errorOf('ollamaModel')}
          onChange={(ollamaModel) => set({ ollamaModel })}
        />
      )}
      {draft.provider === 'openai' && <RemoteFields draft={draft} errorOf={errorOf} onChange={set} />}
    </>
  );
}

/** Provider openai: which OpenAI-compatible provider of the list, and its embedding model. */
function RemoteFields({ draft, errorOf, onChange: set }: EmbeddingFieldsProps) {
  const { t } = useTranslation();
  const all = useSettings((s) => s.settings?.providers);
  const providers = (all ?? []).filter((p) => p.kind === 'openai');
  return (
    <>
      <Field id="setting-remote-provider" label={t('settings.remoteProvider')} help={t('settings.remoteProviderHelp')} error={errorOf('remoteProvider')}>
        <select id="setting-remote-provider" value={draft.remoteProvider ?? ''} onChange={(e) => set({ remoteProvider: e.target.value, remoteModel: draft.remoteModel ?? '' })}>
          <option value="">—</option>
          {providers.map((p) => (
            <option key={p.name} value={p.name}>{p.name}</option>
          ))}
        </select>
      </Field>
      <DraftInput
        id="setting-remote-model"
        label={t('settings.remoteModel')}
        placeholder="text-embedding-3-small"
        value={draft.remoteModel ?? ''}
        error={errorOf('remoteModel')}
        onChange={(remoteModel) => set({ remoteModel, remoteProvider: draft.remoteProvider ?? '' })}
      />
    </>
  );
}

interface DraftInputProps {
  id: string;
  label: string;
  help?: string;
  placeholder?: string;
  value: string;
  error: string | null;
  onChange(value: string): void;
}

/** A field of the draft (saved only with the whole group). */
function DraftInput({ id, label, help, placeholder, value, error, onChange }: DraftInputProps) {
  return (
    <Field id={id} label={label} help={help} error={error}>
      <input
        id={id}
        value={value}
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error || help ? `${id}-note` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}

/** Each knowledge base's run after a model change: state, vectors so far, the model it uses. */
function ReembedProgress() {
  const { t } = useTranslation();
  const kbs = useKbs((s) => s.kbs);
  const statuses = useIngest((s) => s.status);
  if (kbs.length === 0) return null;
  return (
    <section className="reembed" aria-label={t('settings.reembedding')}>
      <h4>{t('settings.reembedding')}</h4>
      <ul>
        {kbs.map((kb) => {
          const status = statuses[kb.id];
          return (
            <li key={kb.id}>
              <div className="reembed-head">
                <strong>{kb.name}</strong>
                {status && (
                  <span className="muted">
                    {t('settings.reembedState', { state: stateLabel(status.state, t), done: status.chunksEmbedded, total: status.chunks })}
                  </span>
                )}
                {status?.embeddingModel && <code>{status.embeddingModel}</code>}
              </div>
              {status && <ProgressBar value={progressOf(status)} label={kb.name} />}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
