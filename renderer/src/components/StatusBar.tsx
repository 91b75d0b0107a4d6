/**
 * The status bar: indexing progress of the selected knowledge base (or a model download), and the
 * Ollama connection with its model. (A turn's steps show in the thread, above its answer.)
 */
import { useTranslation } from 'react-i18next';
import { useFormats } from '../i18n';
import { isIndexing, progressOf, useIngest } from '../state/ingest';
import { useKbs } from '../state/kbs';
import { useLlm } from '../state/llm';

/** The bar along the bottom of the window. */
export function StatusBar() {
  const { t } = useTranslation();
  return (
    <footer className="statusbar" aria-label={t('status.bar')}>
      <Indexing />
      <Ollama />
    </footer>
  );
}

function Indexing() {
  const { t } = useTranslation();
  const format = useFormats();
  const kbId = useKbs((s) => s.selectedKbId);
  const status = useIngest((s) => (kbId ? s.status[kbId] : undefined));
  const model = useIngest((s) => s.model);
  let text: string | null = null;
  let value: number | null = null;
  if (model && model.status !== 'failed') {
    value = model.total ? (model.loaded ?? 0) / model.total : null;
    const what = model.status === 'downloading' ? t('status.downloadingModel', { model: model.modelId }) : t('status.loadingModel', { model: model.modelId });
    text = `${what}${value !== null ? ` ${Math.round(value * 100)}%` : '…'}`;
  } else if (status && isIndexing(status)) {
    value = progressOf(status);
    text =
      status.state === 'embedding'
        ? t('status.vectors', { done: status.chunksEmbedded, total: status.chunks })
        : t('status.indexingFiles', { done: status.filesDone, total: status.filesTotal ? format.number(status.filesTotal) : '…' });
  } else if (status && status.state !== 'idle') {
    // The store's failed count, as the indexing panel shows it (not this run's, which a watched run resets).
    const failed = status.stored.failed;
    text = t('status.pages', { count: status.pages }) + (failed ? t('status.failedSuffix', { count: failed }) : '');
  }
  if (!text) return <div className="status-indexing" />;
  return (
    <div className="status-indexing" aria-label={t('status.indexing')}>
      {value !== null && value < 1 && (
        <span className="mini-progress" aria-hidden="true">
          <span style={{ width: `${Math.round(value * 100)}%` }} />
        </span>
      )}
      <span>{text}</span>
    </div>
  );
}

function Ollama() {
  const { t } = useTranslation();
  const { status, error } = useLlm();
  let label: string = t('status.checkingOllama');
  let state = 'unknown';
  // Another provider answering by default is named as itself.
  const provider = status?.provider;
  if (status?.reachable) {
    const named = provider && status.model ? t('providers.statusModel', { provider, model: status.model }) : null;
    label = named ?? (status.model ? t('status.ollamaModel', { model: status.model }) : t('status.ollamaNoModel'));
    state = status.model ? 'ok' : 'warn';
  } else if (status) {
    label = provider ? t('providers.statusDown', { provider }) : t('status.ollamaDown');
    state = 'down';
  } else if (error) {
    label = t('status.ollamaUnknown');
  }
  return (
    <div className={`status-llm ${state}`} title={status?.message ?? error ?? status?.host ?? ''} aria-label={t('status.llmLabel', { label })}>
      <span className="dot" aria-hidden="true" />
      {label}
    </div>
  );
}
