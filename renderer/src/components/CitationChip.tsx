/**
 * One `[n]` of an answer. A valid citation is a chip: hover or focus shows a preview of its
 * passage (rendered as the source pane renders it: Markdown pages as Markdown), a click opens the
 * source page at the passage, highlighted. An invalid one is plain, struck-through text, visibly
 * not a link. While the answer streams, chips wait for the check. The preview is placed in the
 * window (below the chip, or above it when there is no room below), so the thread's scrolling
 * edge never cuts it.
 */
import { useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Passage } from '../../../shared/models';
import { headingPathToSay } from '../../../shared/where';
import { isMarkdownPath, renderQuote } from '../lib/page-markdown';
import { MarkdownNodes } from './MarkdownNodes';
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

/**
 * Where a passage sits in its file, for people, in the UI's language: PDF pages, slides, chapters, sheet
 * and rows, the heading path (not for a sheet, whose headings are its name and cell ranges), or lines.
 */
export function whereOf(passage: Pick<Passage, 'provenance'>, t: TFunction): string {
  const p = passage.provenance;
  const parts: string[] = [];
  if (p.pdfPages) {
    const [from, to] = p.pdfPages;
    parts.push(from === to ? t('citation.page', { page: from }) : t('citation.pages', { from, to }));
  }
  if (p.slides) {
    const [from, to] = p.slides;
    parts.push(from === to ? t('citation.slide', { n: from }) : t('citation.slides', { from, to }));
  }
  if (p.chapters) {
    const [from, to] = p.chapters;
    parts.push(from === to ? t('citation.chapter', { n: from }) : t('citation.chapters', { from, to }));
  }
  if (p.sheet) parts.push(t('citation.sheet', { name: p.sheet }));
  if (p.rows) {
    const [from, to] = p.rows;
    parts.push(from === to ? t('citation.row', { n: from }) : t('citation.rows', { from, to }));
  }
  const path = headingPathToSay(p);
  if (path.length) parts.push(path.join(' › '));
  if (!p.pdfPages && !p.rows && p.lines) {
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
  const chip = useRef<HTMLButtonElement>(null);
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
        ref={chip}
        type="button"
        data-cite-chip=""
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
      {preview && <Preview id={tipId} passage={passage} where={where} unverified={unverified} anchor={chip} />}
    </span>
  );
}

/** Room kept between the preview and the window's (or the thread's) edge, px. */
const EDGE = 8;

/** Where a preview of `height` × `width` goes for a chip at `chip`, inside `bounds`: below it, else above it. */
export function placePreview(chip: DOMRect, size: { width: number; height: number }, bounds: DOMRect) {
  const below = chip.bottom + 6;
  const above = chip.top - 6 - size.height;
  const fitsBelow = below + size.height <= bounds.bottom - EDGE;
  const lowest = bounds.bottom - EDGE - size.height;
  const top = fitsBelow || above < bounds.top + EDGE ? Math.max(bounds.top + EDGE, Math.min(below, lowest)) : above;
  const left = Math.max(bounds.left + EDGE, Math.min(chip.left - size.width * 0.3, bounds.right - EDGE - size.width));
  return { top: Math.round(top), left: Math.round(left) };
}

/** The hover preview of a valid citation, fixed in the window beside its chip. */
interface PreviewProps {
  id: string;
  passage: Passage;
  where: string;
  unverified: boolean;
  anchor: RefObject<HTMLButtonElement | null>;
}

function Preview(props: PreviewProps) {
  const { id, passage, where, unverified, anchor } = props;
  const { t } = useTranslation();
  const box = useRef<HTMLSpanElement>(null);
  const [spot, setSpot] = useState<{ top: number; left: number } | null>(null);
  const nodes = useMemo(
    () => (isMarkdownPath(passage.pagePath) ? renderQuote(clip(passage.text), { openFence: passage.focus ? undefined : passage.openFence }) : null),
    [passage],
  );
  useLayoutEffect(() => {
    const chip = anchor.current;
    const el = box.current;
    if (!chip || !el) return;
    // The thread (the chip's scrolling ancestor) bounds it too: a preview never hangs over the composer.
    const thread = chip.closest('.thread')?.getBoundingClientRect();
    const win = new DOMRect(0, 0, window.innerWidth, window.innerHeight);
    const top = Math.max(0, thread?.top ?? 0);
    const bounds = thread ? new DOMRect(win.left, top, win.width, Math.min(win.bottom, thread.bottom) - top) : win;
    setSpot(placePreview(chip.getBoundingClientRect(), { width: el.offsetWidth, height: el.offsetHeight }, bounds));
  }, [anchor]);
  const style = spot ? { top: spot.top, left: spot.left } : { visibility: 'hidden' as const };
  // In the document's body: no ancestor's overflow clips it, and its blocks never sit inside the answer's paragraph.
  return createPortal(
    <span ref={box} role="tooltip" id={id} className="cite-preview" style={style}>
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
      {nodes ? (
        <span className="cite-preview-text markdown">
          <MarkdownNodes nodes={nodes} headingOffset={null} />
        </span>
      ) : (
        <span className="cite-preview-text">{clip(passage.text)}</span>
      )}
      {unverified && <span className="cite-preview-warning">{t('citation.unverified')}</span>}
    </span>,
    document.body,
  );
}

/** Longest passage text a preview shows, characters. */
const PREVIEW_CHARS = 320;

/** A passage's text for its preview: the first {@link PREVIEW_CHARS} characters, with an ellipsis when cut. */
function clip(text: string): string {
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}
