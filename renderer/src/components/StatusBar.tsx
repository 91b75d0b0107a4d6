/**
 * The status bar: the retrieval steps of the current turn as they happen, indexing progress of the
 * selected knowledge base (or a model download), and the Ollama connection with its model.
 */
import type { TurnStep } from '../state/chat';
import { useChat } from '../state/chat';
import { isIndexing, progressOf, useIngest } from '../state/ingest';
import { useKbs } from '../state/kbs';
import { useLlm } from '../state/llm';

/** The words the status bar uses for a turn step. */
export function stepText(step: TurnStep): string {
  switch (step.kind) {
    case 'searching':
      return 'Searching…';
    case 'found':
      return `Found ${step.paths.length} page${step.paths.length === 1 ? '' : 's'}`;
    case 'empty':
      return 'Nothing found in this knowledge base';
    case 'search-failed':
      return 'Search failed, answering without it';
    case 'tool':
      return `Looking further (${step.name})…`;
    case 'tool-result':
      return step.ok ? step.summary || `${step.name} done` : `${step.name} failed: ${step.summary}`;
    case 'answering':
      return 'Answering…';
    case 'done':
      if (step.status === 'cancelled') return 'Stopped';
      if (step.status === 'llm_unavailable') return 'Answered with passages only (Ollama unreachable)';
      return 'Done';
    case 'failed':
      return `Failed: ${step.message}`;
  }
}

/** The bar along the bottom of the window. */
export function StatusBar() {
  return (
    <footer className="statusbar" aria-label="Status bar">
      <TurnSteps />
      <Indexing />
      <Ollama />
    </footer>
  );
}

function TurnSteps() {
  const turn = useChat((s) => (s.activeTurnId ? s.turns[s.activeTurnId] : undefined));
  return (
    <div className="status-turn" role="status" aria-live="polite">
      {turn && turn.steps.length > 0 ? (
        <ol className="steps" aria-label="Turn progress">
          {turn.steps.map((step, i) => (
            <li key={i} className={`step ${step.kind}`}>
              {stepText(step)}
            </li>
          ))}
        </ol>
      ) : (
        <span className="muted">{turn?.running ? 'Starting…' : 'Ready'}</span>
      )}
    </div>
  );
}

function Indexing() {
  const kbId = useKbs((s) => s.selectedKbId);
  const status = useIngest((s) => (kbId ? s.status[kbId] : undefined));
  const model = useIngest((s) => s.model);
  let text: string | null = null;
  let value: number | null = null;
  if (model && model.status !== 'failed') {
    value = model.total ? (model.loaded ?? 0) / model.total : null;
    text = `${model.status === 'downloading' ? 'Downloading' : 'Loading'} embedding model ${model.modelId}${value !== null ? ` ${Math.round(value * 100)}%` : '…'}`;
  } else if (status && isIndexing(status)) {
    value = progressOf(status);
    text = status.state === 'embedding' ? `Vectors ${status.chunksEmbedded}/${status.chunks}` : `Indexing ${status.filesDone}/${status.filesTotal || '…'} files`;
  } else if (status && status.state !== 'idle') {
    text = `${status.pages} page${status.pages === 1 ? '' : 's'}${status.filesFailed ? ` · ${status.filesFailed} failed` : ''}`;
  }
  if (!text) return <div className="status-indexing" />;
  return (
    <div className="status-indexing" aria-label="Indexing status">
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
  const { status, error } = useLlm();
  let label = 'Checking Ollama…';
  let state = 'unknown';
  if (status?.reachable) {
    label = status.model ? `Ollama · ${status.model}` : 'Ollama · no model installed';
    state = status.model ? 'ok' : 'warn';
  } else if (status) {
    label = 'Ollama unreachable';
    state = 'down';
  } else if (error) {
    label = 'Ollama status unknown';
  }
  return (
    <div className={`status-llm ${state}`} title={status?.message ?? error ?? status?.host ?? ''} aria-label={`Language model: ${label}`}>
      <span className="dot" aria-hidden="true" />
      {label}
    </div>
  );
}
