/**
 * The status bar: the retrieval steps of the current turn as they happen, indexing progress of the
 * selected knowledge base (or a model download), and the Ollama connection with its model.
 */
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useFormats } from '../i18n';
import type { TurnStep } from '../state/chat';
import { useChat } from '../state/chat';
import { isIndexing, progressOf, useIngest } from '../state/ingest';
import { useKbs } from '../state/kbs';
import { useLlm } from '../state/llm';

/** The words the status bar uses for a turn step, in the UI's language. */
export function stepText(step: TurnStep, t: TFunction): string {
  switch (step.kind) {
    case 'searching':
      return t('steps.searching');
    case 'found':
      return t('steps.found', { count: step.paths.length }) + noExactMatchText(step.noExactMatch, t);
    case 'empty':
      return t('steps.empty') + noExactMatchText(step.noExactMatch, t);
    case 'search-failed':
      return t('steps.searchFailed');
    case 'tool':
      return t('steps.tool', { name: step.name });
    case 'tool-result':
      // A tool's summary comes from the core and is shown as it is.
      return step.ok ? step.summary || t('steps.toolDone', { name: step.name }) : t('steps.toolFailed', { name: step.name, summary: step.summary });
    case 'answering':
      return t('steps.answering');
    case 'done':
      if (step.status === 'cancelled') return t('steps.stopped');
      if (step.status === 'llm_unavailable') return t('steps.extractive');
      return t('steps.done');
    case 'failed':
      return t('steps.failed', { message: step.message });
  }
}

/** The note added to a search step when identifiers of the question occur nowhere in the knowledge base. */
function noExactMatchText(words: string[] | undefined, t: TFunction): string {
  return words && words.length > 0 ? ` · ${t('steps.noExactMatch', { words: words.join(', ') })}` : '';
}

/** The bar along the bottom of the window. */
export function StatusBar() {
  const { t } = useTranslation();
  return (
    <footer className="statusbar" aria-label={t('status.bar')}>
      <TurnSteps />
      <Indexing />
      <Ollama />
    </footer>
  );
}

function TurnSteps() {
  const { t } = useTranslation();
  const turn = useChat((s) => (s.activeTurnId ? s.turns[s.activeTurnId] : undefined));
  // "Ready" would contradict the indexing figures beside it while the selected knowledge base indexes.
  const kbId = useKbs((s) => s.selectedKbId);
  const indexing = useIngest((s) => (kbId ? isIndexing(s.status[kbId]) : false));
  return (
    <div className="status-turn" role="status" aria-live="polite">
      {turn && turn.steps.length > 0 ? (
        <ol className="steps" aria-label={t('status.turnProgress')}>
          {turn.steps.map((step, i) => (
            <li key={i} className={`step ${step.kind}`}>
              {stepText(step, t)}
            </li>
          ))}
        </ol>
      ) : (
        <span className="muted">{turn?.running ? t('status.starting') : indexing ? '' : t('status.ready')}</span>
      )}
    </div>
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
  if (status?.reachable) {
    label = status.model ? t('status.ollamaModel', { model: status.model }) : t('status.ollamaNoModel');
    state = status.model ? 'ok' : 'warn';
  } else if (status) {
    label = t('status.ollamaDown');
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
