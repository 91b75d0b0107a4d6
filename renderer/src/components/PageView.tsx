/**
 * One page, optionally with a span highlighted and scrolled to. Markdown pages are rendered (the
 * highlight follows the parser's source positions, see lib/page-markdown); plain text, PDF and code
 * pages show their canonical text as it is, where the highlight is `text.slice(start, end)`.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageDetail } from '../../../shared/models';
import { client } from '../client';
import { isMarkdownKind, parseMarkdown, renderParsed, rendersAsMarkdown } from '../lib/page-markdown';
import { pageSegments } from '../lib/page-segments';
import { usePages, type PageTarget } from '../state/pages';
import { Icon } from './Icon';
import { MarkdownNodes } from './MarkdownNodes';
import { Problem } from './Problem';
import { partsFact, PartsView } from './PartsView';
import { ScanView, scanPageOf } from './ScanView';
import { SheetView } from './SheetView';
import { PassageNoteLine } from './PassageNote';

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
  const revision = usePages((s) => s.revision[target.kbId] ?? 0);
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
  }, [target.kbId, target.path, revision, t]);

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
          {shown?.generated && <GeneratedNote page={shown} />}
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
  const parts = partsFact(page, t);
  if (parts) facts.push(parts);
  else if (page.pdfPages) facts.push(t('pages.pdfPages', { count: page.pdfPages.length }));
  if (page.encoding && !/^utf-?8$/i.test(page.encoding)) facts.push(t('pages.encoding', { encoding: page.encoding }));
  if (page.language) facts.push(page.language);
  return <p className="page-meta">{facts.join(' · ')}</p>;
}

/** A digest page says it was written by a model, from what, and what its `[n]` are. */
function GeneratedNote({ page }: { page: PageDetail }) {
  const { t } = useTranslation();
  const model = String(page.metadata.model ?? '');
  const source = String(page.metadata.source ?? '');
  const overview = source === page.path;
  return (
    <p className="page-meta generated-note">
      <span className="badge generated-mark">{t('digests.generated')}</span>{' '}
      {overview ? t('digests.overviewNote', { model }) : t('digests.note', { model, source })}
    </p>
  );
}

type Span = { start: number; end: number };

/** Scroll `container` so the first highlighted line sits near its top (a tall passage shows its start). */
function scrollToPassage(container: HTMLElement | null): boolean {
  const mark = container?.querySelector('mark.passage');
  if (!container || !mark) return false;
  const top = mark.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop;
  container.scrollTo({ top: Math.max(0, top - 24) });
  return true;
}

function PageText({ page, target }: { page: PageDetail; target: PageTarget }) {
  // Spreadsheets show as tables, slides and chapters as labelled blocks (their own views).
  if (page.kind === 'sheet') return <SheetView page={page} target={target} />;
  if (page.kind === 'slides' || page.kind === 'epub') return <PartsView page={page} target={target} />;
  return <TextView page={page} target={target} />;
}

function TextView({ page, target }: { page: PageDetail; target: PageTarget }) {
  const { t } = useTranslation();
  const textRef = useRef<HTMLDivElement>(null);
  const span = target.span && target.span.end > target.span.start ? target.span : null;
  const markdown = rendersAsMarkdown(page.kind, page.text.length);

  useEffect(() => {
    // Without a passage, start at the top (a new page should not keep the old scroll).
    if (!scrollToPassage(textRef.current)) textRef.current?.scrollTo({ top: 0 });
  }, [page.path, target.nonce]);

  // A page OCR read shows its image with the cited lines' boxes (ScanView), unless the passage is on a text-layer page.
  const scan = scanPageOf(page, span);
  if (scan) return <ScanView page={page} target={target} initial={scan} span={span} />;

  const className = markdown ? 'page-text page-md' : page.kind === 'code' ? 'page-text code' : 'page-text';
  return (
    <>
      {span && <PassageNote page={page} span={span} onShow={() => scrollToPassage(textRef.current)} />}
      <div ref={textRef} className={className} aria-label={t('pages.text')} tabIndex={0}>
        {markdown ? <MarkdownBody text={page.text} span={span} /> : <PlainBody page={page} span={span} />}
      </div>
    </>
  );
}

/** Where the passage is, in the reader's words: its section, PDF page or lines. */
function PassageNote({ page, span, onShow }: { page: PageDetail; span: Span; onShow(): void }) {
  const { t } = useTranslation();
  // A code page's outline names functions; its passages are windows, which lines say best.
  const heading = page.kind === 'code' ? undefined : [...page.headings].reverse().find((h) => h.start <= span.start && h.text.trim());
  const pdf = page.pdfPages?.find((p) => p.start <= span.start && span.start < p.end);
  let where: string = t('pages.passage');
  if (heading) where = t('pages.passageInSection', { heading: heading.text.trim() });
  else if (pdf) where = t('pages.passageOnPage', { page: pdf.page });
  else if (!isMarkdownKind(page.kind)) {
    const lineAt = (offset: number) => page.text.slice(0, offset).split('\n').length;
    where = t('pages.passageLines', { from: lineAt(span.start), to: lineAt(Math.max(span.start, span.end - 1)) });
  }
  return <PassageNoteLine where={where} onShow={onShow} />;
}

function MarkdownBody({ text, span }: { text: string; span: Span | null }) {
  // Parse once per text; another citation on the same page only re-marks the parsed tree.
  const parsed = useMemo(() => parseMarkdown(text), [text]);
  const nodes = useMemo(() => renderParsed(parsed, span), [parsed, span?.start, span?.end]);
  // The page's own `#` heading sits below the page title (h2): shift levels by two.
  return <MarkdownNodes nodes={nodes} headingOffset={2} />;
}

function PlainBody({ page, span }: { page: PageDetail; span: Span | null }) {
  const { t } = useTranslation();
  const pdfStarts = new Map((page.pdfPages ?? []).map((p) => [p.start, p.page]));
  // Code reads as written: its outline's definitions are not set as headings.
  const segments = pageSegments(page.text.length, page.kind === 'code' ? [] : page.headings, span, [...pdfStarts.keys()]);
  return (
    <>
      {segments.map((s) => {
        const text = page.text.slice(s.start, s.end);
        const label = pdfStarts.get(s.start);
        let node = <>{text}</>;
        if (s.highlighted) node = <mark className="passage">{node}</mark>;
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
    </>
  );
}
