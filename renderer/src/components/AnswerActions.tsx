/** Under each finished answer: copy it as Markdown (with its sources as footnotes) or export it. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { client } from '../client';
import { copyText } from '../lib/export';
import { ExportDialog } from './ExportDialog';
import { Icon } from './Icon';
import { Problem } from './Problem';

/** How long "Copied" shows after copying, in ms. */
const COPIED_MS = 2000;

/** Props of {@link AnswerActions}. */
export interface AnswerActionsProps {
  conversationId: string;
  messageId: string;
}

/** The answer's action row. */
export function AnswerActions({ conversationId, messageId }: AnswerActionsProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    setProblem(null);
    const result = await client.invoke('export.render', { conversationId, messageId, format: 'md' });
    if (!result.ok) return setProblem(result.error.message);
    try {
      await copyText(result.value.content);
      setCopied(true);
    } catch (err) {
      setProblem(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <div className="answer-actions" role="group" aria-label={t('export.actions')}>
      <button type="button" className="small-button" onClick={() => void copy()}>
        <Icon name={copied ? 'check' : 'copy'} size={14} />
        {t('export.copy')}
      </button>
      <button type="button" className="small-button" onClick={() => setExporting(true)}>
        <Icon name="download" size={14} />
        {t('export.open')}
      </button>
      <span role="status" className="answer-actions-status">
        {copied ? t('export.copied') : ''}
      </span>
      <Problem message={problem} />
      {exporting && <ExportDialog conversationId={conversationId} messageId={messageId} onClose={() => setExporting(false)} />}
    </div>
  );
}
