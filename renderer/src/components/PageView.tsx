/**
 * One page: its canonical text with headings styled, optionally with a span highlighted and
 * scrolled into view. The text is not rendered as Markdown so offsets stay exact: the highlight
 * is `text.slice(start, end)`, nothing else.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageDetail } from '../../../shared/models';
import { client } from '../client';
import { pageSegments } from '../lib/page-segments';
import type { PageTarget } from '../state/pages';
import { Icon } from './Icon';
import { Problem } from './Problem';

/** Props of {@link PageView}. */
export interface PageViewProps {
  target: PageTarget;
  /** Show a close button (the chat's reader panel). */
  onClose?(): void;
}

/** Loads and shows the target page. */
export function PageView({ target, onClose }: PageViewProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState<PageDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setProblem(null);
    void client.invoke('pages.get', { kb: target.kbId, path: target.path }).then((result) => {
      if (!live) return;
      if (result.ok) setPage(result.value);
      else {
        setPage(null);
        setProblem(result.error.code === 'not_found' ? t('pages.gone', { path: target.path }) : result.error.message);
      }
    });
    return () => {
      live = false;
    };
  }, [target.kbId, target.path, t]);

  const shown = page && page.path === target.path ? page : null;
  return (
    <article className="page-view" aria-label={shown ? t('pages.pageLabel', { title: shown.title }) : t('pages.page')}>
      <header className="page-header">
        <div className="page-heading-block">
          <h2 className="page-title">{shown?.title ?? target.path.split('/').pop()}</h2>
          <p className="page-path" title={target.path}>
            {target.path}
          </p>
          {shown && <PageMeta page={shown} />}
        </div>
        {onClose && (
          <button type="button" className="icon-button" aria-label={t('pages.closePage')} title={t('common.close')} onClick={onClose}>
            <Icon name="close" />
          </button>
        )}
      </header>
      <Problem message={problem} />
      {!shown && !problem && <p className="muted page-loading">{t('pages.loadingPage')}</p>}
      {shown && <PageText page={shown} target={target} />}
    </article>
  );
}

function PageMeta({ page }: { page: PageDetail }) {
  const { t } = useTranslation();
  const facts = [page.kind.toUpperCase(), t('pages.characters', { count: page.chars }), t('pages.chunks', { count: page.chunks })];
  if (page.pdfPages) facts.push(t('pages.pdfPages', { count: page.pdfPages.length }));
  if (page.encoding && !/^utf-?8$/i.test(page.encoding)) facts.push(t('pages.encoding', { encoding: page.encoding }));
  if (page.language) facts.push(page.language);
  return <p className="page-meta">{facts.join(' · ')}</p>;
}

function PageText({ page, target }: { page: PageDetail; target: PageTarget }) {
  const { t } = useTranslation();
  const markRef = useRef<HTMLElement | null>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const span = target.span && target.span.end > target.span.start ? target.span : null;
  const pdfStarts = new Map((page.pdfPages ?? []).map((p) => [p.start, p.page]));
  const segments = pageSegments(page.text.length, page.headings, span, [...pdfStarts.keys()]);
  const firstMarked = segments.findIndex((s) => s.highlighted);

  useEffect(() => {
    // Center the passage; without one, start at the top (a new page should not keep the old scroll).
    if (markRef.current) markRef.current.scrollIntoView({ block: 'center' });
    else textRef.current?.scrollTo({ top: 0 });
  }, [page.path, target.nonce]);

  return (
    <>
      {span && (
        <p className="passage-note">
          {t('pages.highlighted', { start: span.start, end: span.end })}{' '}
          <button type="button" className="link-button" onClick={() => markRef.current?.scrollIntoView({ block: 'center' })}>
            {t('pages.showIt')}
          </button>
        </p>
      )}
      <div ref={textRef} className={page.kind === 'code' ? 'page-text code' : 'page-text'} aria-label={t('pages.text')} tabIndex={0}>
        {segments.map((s, i) => {
          const text = page.text.slice(s.start, s.end);
          const label = pdfStarts.get(s.start);
          let node = <>{text}</>;
          if (s.highlighted) {
            node = (
              <mark ref={i === firstMarked ? (el) => void (markRef.current = el) : undefined} className="passage">
                {node}
              </mark>
            );
          }
          if (s.heading !== null) {
            node = (
              <span className={`page-h page-h${Math.min(s.heading, 4)}`} role="heading" aria-level={Math.min(s.heading + 2, 6)}>
                {node}
              </span>
            );
          }
          return (
            <span key={s.start}>
              {label !== undefined && label > 1 && (
                <span className="pdf-page-label" aria-hidden="true">
                  {t('pages.pdfPage', { page: label })}
                </span>
              )}
              {node}
            </span>
          );
        })}
      </div>
    </>
  );
}
