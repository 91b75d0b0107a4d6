/** Live indexing of one knowledge base: progress bar, counts, the file being read, and files that failed. */
import { useState } from 'react';
import type { IngestStatus, KnowledgeBase } from '../../../shared/models';
import { isIndexing, progressOf, useIngest } from '../state/ingest';
import { Icon } from './Icon';

const STATE_LABEL: Record<IngestStatus['state'], string> = {
  idle: 'Not indexed in this session',
  scanning: 'Looking for files…',
  indexing: 'Reading files…',
  embedding: 'Computing vectors…',
  done: 'Up to date',
  error: 'Indexing stopped',
};

/** The indexing panel of a knowledge base. */
export function IndexingPanel({ kb }: { kb: KnowledgeBase }) {
  const status = useIngest((s) => s.status[kb.id]);
  const reindex = useIngest((s) => s.reindex);
  const [problem, setProblem] = useState<string | null>(null);
  const busy = isIndexing(status);
  return (
    <section className="panel" aria-labelledby="indexing-heading">
      <div className="panel-title">
        <h2 id="indexing-heading">Indexing</h2>
        <button type="button" disabled={busy || kb.folderCount === 0} onClick={() => void reindex(kb.id).then(setProblem)}>
          <Icon name="refresh" /> Re-index now
        </button>
      </div>
      {problem && (
        <p role="alert" className="field-error">
          {problem}
        </p>
      )}
      {!status ? (
        <p className="muted">Loading…</p>
      ) : kb.folderCount === 0 && status.state === 'idle' ? (
        <p className="muted">Nothing to index yet: add a folder.</p>
      ) : (
        <StatusDetails status={status} />
      )}
    </section>
  );
}

function StatusDetails({ status }: { status: IngestStatus }) {
  const progress = progressOf(status);
  const failed = status.problems.filter((p) => p.status === 'failed');
  const skipped = status.problems.filter((p) => p.status === 'skipped');
  return (
    <div className="indexing" aria-live="polite">
      <p className="indexing-state">
        <strong>{STATE_LABEL[status.state]}</strong>
        {status.state === 'done' && status.finishedAt && <span className="muted"> · finished {new Date(status.finishedAt).toLocaleTimeString()}</span>}
      </p>
      <ProgressBar value={progress} label="Indexing progress" />
      {status.currentFile && (
        <p className="current-file" title={status.currentFile}>
          <span className="muted">Now reading</span> <code>{status.currentFile}</code>
        </p>
      )}
      <dl className="counts">
        <Count label="Files" value={`${status.filesDone} / ${status.filesTotal}`} />
        <Count label="Pages" value={status.pages} />
        <Count label="Chunks" value={status.chunks} />
        <Count label="With vectors" value={status.keywordOnly ? 'keywords only' : `${status.chunksEmbedded} / ${status.chunks}`} />
        <Count label="Failed" value={status.filesFailed || failed.length} />
        <Count label="Skipped" value={status.filesSkipped || skipped.length} />
      </dl>
      {status.error && (
        <p role="alert" className="field-error">
          {status.error}
        </p>
      )}
      {failed.length > 0 && (
        <div className="problems">
          <h3 id="failed-heading">Files that failed</h3>
          <ul aria-labelledby="failed-heading">
            {failed.map((p) => (
              <li key={`${p.folder}/${p.relPath}`}>
                <code>{p.relPath}</code>
                <span className="reason">{p.reason}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {skipped.length > 0 && (
        <details className="problems">
          <summary>Skipped files ({skipped.length})</summary>
          <ul>
            {skipped.map((p) => (
              <li key={`${p.folder}/${p.relPath}`}>
                <code>{p.relPath}</code>
                <span className="reason">{p.reason}</span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function Count({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="count">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** A progress bar; `value` from 0 to 1, or null for "working, total unknown". */
export function ProgressBar({ value, label }: { value: number | null; label: string }) {
  const percent = value === null ? undefined : Math.round(value * 100);
  return (
    <div
      className={value === null ? 'progress indeterminate' : 'progress'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <div className="progress-fill" style={{ width: value === null ? undefined : `${percent}%` }} />
    </div>
  );
}
