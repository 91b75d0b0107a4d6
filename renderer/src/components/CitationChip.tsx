/**
 * One `[n]` of an answer. A valid citation is a chip: hover or focus shows a preview of its
 * passage, a click opens the source page at the passage, highlighted. An invalid one is plain,
 * struck-through text, visibly not a link. While the answer streams, chips wait for the check.
 */
import { useId, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Passage } from '../../../shared/models';
import { VersionBadge } from './VersionBadge';

/** Props of {@link CitationChip}. */
export interface CitationChipProps {
  number: number;
  /** `pending` while streaming; `invalid` when the number names no passage of the turn. */
  state: 'valid' | 'invalid' | 'pending';
  /** The cited passage (valid citations only). */
  passage: Passage | null;
  /** False when the answer quotes words that are not in the passage; null when it quotes nothing. */
  quoteVerified: boolean | null;
  onOpen(passage: Passage): void;
}

/** Where a passage sits in its file, for people, in the UI's language: PDF pages, heading path or lines. */
export function whereOf(passage: Pick<Passage, 'provenance'>, t: TFunction): string {
  const p = passage.provenance;
  const parts: string[] = [];
  if (p.pdfPages) {
    const [from, to] = p.pdfPages;
    parts.push(from === to ? t('citation.page', { page: from }) : t('citation.pages', { from, to }));
  }
  if (p.headingPath.length) parts.push(p.headingPath.join(' › '));
  if (!p.pdfPages && p.lines) {
    const [from, to] = p.lines;
    parts.push(from === to ? t('citation.line', { line: from }) : t('citation.lines', { from, to }));
  }
  return parts.join(' · ');
}

/** A citation chip with its hover preview. */
export function CitationChip({ number, state, passage, quoteVerified, onOpen }: CitationChipProps) {
  const { t } = useTranslation();
  const [preview, setPreview] = useState(false);
  const tipId = useId();
  if (state === 'pending') return <span className="cite pending">{number}</span>;
  if (state === 'invalid' || !passage) {
    return (
      <span className="cite invalid" title={t('citation.invalidTitle', { number })}>
        [{number}]<span className="visually-hidden">{t('citation.notValid')}</span>
      </span>
    );
  }
  const unverified = quoteVerified === false;
  const where = whereOf(passage, t);
  return (
    <span className="cite-wrap" onMouseEnter={() => setPreview(true)} onMouseLeave={() => setPreview(false)}>
      <button
        type="button"
        className={unverified ? 'cite valid unverified' : 'cite valid'}
        aria-label={t('citation.label', { number, title: passage.title }) + (unverified ? t('citation.unverifiedSuffix') : '')}
        aria-describedby={preview ? tipId : undefined}
        onFocus={() => setPreview(true)}
        onBlur={() => setPreview(false)}
        onKeyDown={(e) => e.key === 'Escape' && setPreview(false)}
        onClick={() => onOpen(passage)}
      >
        {number}
      </button>
      {preview && (
        <span role="tooltip" id={tipId} className="cite-preview">
          <span className="cite-preview-title">
            {passage.title}
            {passage.hitReason === 'glossary' && <span className="glossary-mark">{t('citation.glossary')}</span>}
            {passage.version && ' '}
            <VersionBadge version={passage.version} />
          </span>
          <span className="cite-preview-where">
            {passage.pagePath}
            {where && ` · ${where}`}
          </span>
          <span className="cite-preview-text">{passage.text.length > 320 ? `${passage.text.slice(0, 320)}…` : passage.text}</span>
          {unverified && <span className="cite-preview-warning">{t('citation.unverified')}</span>}
        </span>
      )}
    </span>
  );
}
