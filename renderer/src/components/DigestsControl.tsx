/** The knowledge base's page-digest switch in its title bar, with the run's progress, its stop button and its outcome. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DigestStatus, KnowledgeBase } from '../../../shared/models';
import { useDigests } from '../state/digests';
import { Problem } from './Problem';

/** The digests switch and status of one knowledge base. */
export function DigestsControl({ kb }: { kb: KnowledgeBase }) {
  const { t } = useTranslation();
  const status = useDigests((s) => s.status[kb.id]);
  const { load, setEnabled, cancel } = useDigests.getState();
  const [problem, setProblem] = useState<string | null>(null);
  // The switch moves at once; the core's answer (or its refusal) settles it.
  const [pending, setPending] = useState<boolean | null>(null);
  useEffect(() => {
    void load(kb.id);
  }, [kb.id, load]);
  const enabled = pending ?? status?.enabled ?? kb.digests ?? false;
  async function toggle(on: boolean) {
    setPending(on);
    setProblem(await setEnabled(kb.id, on));
    setPending(null);
  }
  return (
    <div className="digests-control">
      <label className="digests-switch" title={t('digests.toggleHelp')}>
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          onChange={(e) => void toggle(e.target.checked)}
        />
        {t('digests.toggle')}
      </label>
      {status && <DigestState status={status} />}
      {status?.state === 'running' && (
        <button type="button" className="digests-cancel" onClick={() => void cancel(kb.id).then(setProblem)}>
          {t('digests.cancel')}
        </button>
      )}
      <Problem message={problem} />
    </div>
  );
}

/** One line saying where the digests stand; the core's own words (why skipped, what failed) in its tooltip. */
function DigestState({ status }: { status: DigestStatus }) {
  const { t } = useTranslation();
  const rejected = status.problems.filter((p) => p.status === 'rejected').length;
  let text: string | null = null;
  if (status.state === 'running') text = t('digests.running', { done: status.pagesDone, total: status.pagesTotal });
  else if (status.state === 'skipped') text = status.code === 'no_model' ? t('digests.noModel') : t('digests.offline');
  else if (status.state === 'cancelled') text = t('digests.cancelled');
  else if (status.state === 'error') text = t('digests.failed');
  else if (status.stored > 0) text = t('digests.stored', { count: status.stored });
  if (status.state !== 'running' && rejected > 0) text = [text, t('digests.rejected', { count: rejected })].filter(Boolean).join(' · ');
  if (!text) return null;
  const details = [status.message, ...status.problems.map((p) => `${p.path}: ${p.reason}`)].filter(Boolean).join('\n');
  return (
    <span className="digests-state muted" role="status" title={details || undefined}>
      {text}
    </span>
  );
}
