/** Live indexing of one knowledge base: progress bar, counts, the file being read, and files that failed. */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { IngestStatus, KnowledgeBase } from '../../../shared/models';
import { useFormats } from '../i18n';
import { isIndexing, progressOf, useIngest } from '../state/ingest';
import { Icon } from './Icon';
import { Problem } from './Problem';
import { spoken } from '../lib/spoken';

/** What a run's state is called in the UI's language. */
export function stateLabel(state: IngestStatus['state'], t: TFunction): string {
  const labels = {
    idle: t('indexing.idle'),
    scanning: t('indexing.scanning'),
    indexing: t('indexing.indexing'),
    embedding: t('indexing.embedding'),
    done: t('indexing.done'),
    error: t('indexing.error'),
    cancelled: t('indexing.cancelled'),
  } as const;
  return labels[state];
}

/** The indexing panel of a knowledge base. */
export function IndexingPanel({ kb }: { kb: KnowledgeBase }) {
  const { t } = useTranslation();
  const status = useIngest((s) => s.status[kb.id]);
  const reindex = useIngest((s) => s.reindex);
  const [problem, setProblem] = useState<string | null>(null);
  const busy = isIndexing(status);
  return (
    <section className="panel" aria-labelledby="indexing-heading">
      <div className="panel-title">
        <h2 id="indexing-heading">{t('indexing.heading')}</h2>
        <button type="button" disabled={busy || kb.folderCount === 0} onClick={() => void reindex(kb.id).then(setProblem)}>
          <Icon name="refresh" /> {t('indexing.reindexNow')}
        </button>
      </div>
      <Problem message={problem} />
      {!status ? (
        <p className="muted">{t('common.loading')}</p>
      ) : kb.folderCount === 0 && status.state === 'idle' ? (
        <p className="muted">{t('indexing.nothing')}</p>
      ) : (
        <StatusDetails status={status} />
      )}
    </section>
  );
}

function StatusDetails({ status }: { status: IngestStatus }) {
  const { t } = useTranslation();
  const format = useFormats();
  const progress = progressOf(status);
  const failed = status.problems.filter((p) => p.status === 'failed');
  const skipped = status.problems.filter((p) => p.status === 'skipped');
  return (
    <div className="indexing" aria-live="polite">
      <p className="indexing-state">
        <strong>{stateLabel(status.state, t)}</strong>
        {status.state === 'done' && status.finishedAt && <span className="muted">{t('indexing.finished', { time: format.time(status.finishedAt) })}</span>}
      </p>
      <ProgressBar value={progress} label={t('indexing.progress')} />
      {status.currentFile && (
        <p className="current-file" title={status.currentFile}>
          <span className="muted">{t('indexing.nowReading')}</span> <code>{status.currentFile}</code>
        </p>
      )}
      {status.ocr && status.ocr.page < status.ocr.pages && status.state === 'indexing' && (
        <p className="current-file ocr-progress">
          {status.ocr.remainingSeconds === null
            ? t('indexing.ocrPage', { page: status.ocr.page, pages: status.ocr.pages })
            : t('indexing.ocrEstimate', {
                page: status.ocr.page, pages: status.ocr.pages, perPage: status.ocr.secondsPerPage ?? 0, seconds: status.ocr.remainingSeconds,
              })}
        </p>
      )}
      {/* Each figure has one source: the run's own counters for "this run", the store for the rest, so
          the panel and the status bar agree and a watched one-file run does not read as "Files 1/1". */}
      <dl className="counts">
        {status.startedAt && (
          <Count
            label={t('indexing.runFiles')}
            value={t('indexing.ofTotal', { done: status.filesDone, total: status.filesTotal })}
          />
        )}
        <Count label={t('indexing.storedFiles')} value={format.number(status.stored.files)} />
        <Count label={t('indexing.pages')} value={format.number(status.pages)} />
        <Count label={t('indexing.chunks')} value={format.number(status.chunks)} />
        <Count label={t('indexing.withVectors')} value={vectorsText(status, t)} />
        <Count label={t('indexing.failed')} value={format.number(status.stored.failed)} />
        <Count label={t('indexing.skipped')} value={format.number(status.stored.skipped)} />
      </dl>
      {status.embeddingModel && (
        <p className="indexing-model">
          <span className="muted">{t('indexing.model')}</span> <code>{status.embeddingModel}</code>
        </p>
      )}
      <Problem message={status.error && spoken(t, status.error, status.said)} />
      {failed.length > 0 && (
        <div className="problems">
          <h3 id="failed-heading">{t('indexing.failedFiles')}</h3>
          <ul aria-labelledby="failed-heading">
            {failed.map((p) => (
              <li key={`${p.folder}/${p.relPath}`}>
                <code>{p.relPath}</code>
                <Reason text={p.reason} said={status.said} />
              </li>
            ))}
          </ul>
        </div>
      )}
      {skipped.length > 0 && (
        <details className="problems">
          <summary>{t('indexing.skippedFiles', { count: skipped.length })}</summary>
          <ul>
            {skipped.map((p) => (
              <li key={`${p.folder}/${p.relPath}`}>
                <code>{p.relPath}</code>
                <Reason text={p.reason} said={status.said} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** The "with vectors" figure: a count only once a model has made vectors for this knowledge base. */
function vectorsText(status: IngestStatus, t: TFunction): string {
  if (status.keywordOnlyCode === 'not_configured') return t('indexing.keywordsChosen');
  if (status.keywordOnly) return t('indexing.keywordsOnly');
  if (!status.embeddingModel) return t('indexing.vectorsNotYet');
  return t('indexing.ofTotal', { done: status.chunksEmbedded, total: status.chunks });
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

/** Why a file is not a page, in the UI's language; the core's English words on hover. */
function Reason({ text, said }: { text: string; said: IngestStatus['said'] }) {
  const { t } = useTranslation();
  const shown = spoken(t, text, said);
  return (
    <span className="reason" title={shown === text ? undefined : text}>
      {shown}
    </span>
  );
}
