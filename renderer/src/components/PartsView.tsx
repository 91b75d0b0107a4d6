/**
 * A slide deck's page (kind `slides`) or an e-book's (kind `epub`) as a block per slide or chapter,
 * labelled "Slide N" / "Chapter N", its headings styled, a slide's speaker notes set apart. The cited
 * span is highlighted on its characters (as in the plain page view) and its block is scrolled to.
 */
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { PageDetail } from '../../../shared/models';
import { headingPathAt, partAt, partBlocks, type PartBlock } from '../lib/page-parts';
import { pageSegments, type Segment } from '../lib/page-segments';
import type { PageTarget } from '../state/pages';
import { targetSpan } from './SheetView';
import '../formats.css';
import { PassageNoteLine } from './PassageNote';

/** What a page of parts holds, for the page's facts line ("3 sheets", "12 slides", "8 chapters"), or null. */
export function partsFact(page: PageDetail, t: TFunction): string | null {
  if (page.kind === 'sheet') return t('formats.sheets', { count: Math.max(1, page.headings.filter((h) => h.level === 1).length) });
  if (page.kind === 'slides') return t('formats.slides', { count: page.pdfPages?.length ?? 0 });
  if (page.kind === 'epub') return t('formats.chapters', { count: page.pdfPages?.length ?? 0 });
  return null;
}

/**
 * Scroll `container` to the passage: to the top of its slide or chapter when the passage starts near it
 * (so "Slide N" shows), else to the passage's first line. False when there is no passage.
 */
function scrollToPassage(container: HTMLElement | null): boolean {
  const mark = container?.querySelector('mark.passage');
  if (!container || !mark) return false;
  const box = container.getBoundingClientRect();
  const markTop = mark.getBoundingClientRect().top;
  const part = mark.closest('.part');
  const partTop = part ? part.getBoundingClientRect().top : markTop;
  const at = markTop - partTop < box.height / 3 ? partTop - 12 : markTop - 24;
  container.scrollTo({ top: Math.max(0, at - box.top + container.scrollTop) });
  return true;
}

/** Shows a page of slides or chapters. */
export function PartsView({ page, target }: { page: PageDetail; target: PageTarget }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const slides = page.kind === 'slides';
  const parts = useMemo(() => partBlocks(page.headings, page.pdfPages ?? [], slides), [page.headings, page.pdfPages, slides]);
  const span = targetSpan(target);
  const segments = useMemo(() => {
    const cuts = parts.flatMap((p) => [p.start, p.end, ...(p.notes ? [p.notes.heading.start, p.notes.heading.end] : [])]);
    return pageSegments(page.text.length, page.headings, span, cuts);
  }, [page.text.length, page.headings, parts, span?.start, span?.end]);

  useEffect(() => {
    if (!scrollToPassage(ref.current)) ref.current?.scrollTo({ top: 0 });
  }, [page.path, target.nonce]);

  // Hand each part its segments (both lists are in text order).
  const byPart: Segment[][] = parts.map(() => []);
  let k = 0;
  for (const s of segments) {
    while (k < parts.length && parts[k]!.end <= s.start) k++;
    if (k < parts.length && parts[k]!.start <= s.start) byPart[k]!.push(s);
  }
  // The part the passage starts in (or, starting between parts, the first it reaches).
  const cited = span ? (partAt(parts, span.start) ?? parts.find((p) => span.start < p.end && p.start < span.end) ?? null) : null;
  return (
    <>
      {span && cited && <PartNote page={page} part={cited} offset={Math.max(span.start, cited.start)} onShow={() => scrollToPassage(ref.current)} />}
      <div ref={ref} className="page-text parts-view" aria-label={t('pages.text')} tabIndex={0}>
        {parts.map((part, i) => (
          <Part key={part.start} page={page} part={part} segments={byPart[i]!} current={!!span && span.start < part.end && part.start < span.end} />
        ))}
      </div>
    </>
  );
}

function PartNote({ page, part, offset, onShow }: { page: PageDetail; part: PartBlock; offset: number; onShow(): void }) {
  const { t } = useTranslation();
  let note: string;
  if (page.kind === 'slides') note = t('formats.passageOnSlide', { n: part.number });
  else {
    const path = headingPathAt(page.headings, offset, part.start);
    note = path.length ? t('formats.passageInChapterAt', { n: part.number, path: path.join(' › ') }) : t('formats.passageInChapter', { n: part.number });
  }
  return <PassageNoteLine where={note} onShow={onShow} />;
}

function Part({ page, part, segments, current }: { page: PageDetail; part: PartBlock; segments: Segment[]; current: boolean }) {
  const { t } = useTranslation();
  const labelId = useId();
  const notesId = useId();
  const label = page.kind === 'slides' ? t('formats.slide', { n: part.number }) : t('formats.chapter', { n: part.number });
  const notesAt = part.notes?.heading ?? null;
  const body = segments.filter((s) => !notesAt || s.end <= notesAt.start);
  const notes = notesAt ? segments.filter((s) => s.start >= notesAt.end) : [];
  return (
    <section className="part" aria-labelledby={labelId} aria-current={current ? 'true' : undefined} data-part={part.number}>
      <p id={labelId} className="part-label">
        {label}
      </p>
      <div className="part-body">{renderRun(page.text, body)}</div>
      {notes.length > 0 && (
        <aside className="slide-notes" aria-labelledby={notesId}>
          <p id={notesId} className="slide-notes-label">
            {t('formats.notes')}
          </p>
          <div className="part-body">{renderRun(page.text, notes)}</div>
        </aside>
      )}
    </section>
  );
}

/** A run of segments as text: headings styled, the highlight marked, the run's outer blank lines dropped. */
function renderRun(text: string, segments: Segment[]): ReactNode[] {
  return segments.map((s, i) => {
    let piece = text.slice(s.start, s.end);
    if (i === 0) piece = piece.replace(/^\n+/, '');
    if (i === segments.length - 1) piece = piece.replace(/\n+$/, '');
    let node: ReactNode = piece;
    // Blank lines inside a passage are not marked (a mark over a line break shows as a stray sliver).
    if (s.highlighted && piece.trim()) node = <mark className="passage">{node}</mark>;
    if (s.heading !== null) {
      node = (
        <span className={`page-h page-h${Math.min(s.heading, 4)}`} role="heading" aria-level={Math.min(s.heading + 2, 6)}>
          {node}
        </span>
      );
    }
    return <span key={s.start}>{node}</span>;
  });
}
