/**
 * A page OCR read (an image, a scanned PDF page): the page image, rendered by the core from the source file, with
 * the boxes of the cited lines highlighted over it, and beside it the recognised text, line by line, the cited
 * lines marked. The page's OCR confidence is said in the header; a low one is marked "low-confidence OCR".
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OcrPage, PageDetail, PageImage } from '../../../shared/models';
import { client } from '../client';
import type { PageTarget } from '../state/pages';
import { Problem } from './Problem';

type Span = { start: number; end: number };

/** The OCR'd page a span falls on (the first OCR'd page without one); null when the span is on a text-layer page. */
export function scanPageOf(page: PageDetail, span: Span | null): OcrPage | null {
  const pages = page.ocr?.pages ?? [];
  if (pages.length === 0) return null;
  if (!span) return pages[0]!;
  const number = page.pdfPages?.find((p) => p.start <= span.start && span.start < Math.max(p.end, p.start + 1))?.page ?? 1;
  return pages.find((p) => p.page === number) ?? null;
}

/** The scan view of `page`, showing the OCR'd page `initial` (the cited one). */
export function ScanView({ page, target, initial, span }: { page: PageDetail; target: PageTarget; initial: OcrPage; span: Span | null }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(initial.page);
  useEffect(() => setShown(initial.page), [initial.page, target.nonce]);
  const ocrPage = page.ocr!.pages.find((p) => p.page === shown) ?? initial;
  const confidence = Math.round(page.ocr!.confidence * 100);
  return (
    <div className="scan-view">
      <p className="scan-meta">
        <span className="badge ocr-mark" title={t('pages.ocrTitle', { model: page.ocr!.model, confidence })}>
          {t('pages.ocr', { confidence })}
        </span>
        {page.ocr!.lowConfidence && <span className="badge ocr-low">{t('pages.ocrLow')}</span>}
        {page.ocr!.pages.length > 1 && (
          <span className="scan-pages" role="group" aria-label={t('pages.scanPages')}>
            {page.ocr!.pages.map((p) => (
              <button key={p.page} type="button" className={p.page === shown ? 'chip active' : 'chip'} aria-pressed={p.page === shown} onClick={() => setShown(p.page)}>
                {t('pages.pdfPage', { page: p.page })}
              </button>
            ))}
          </span>
        )}
      </p>
      {page.ocr!.lowConfidence && <p className="passage-note ocr-low-note">{t('pages.ocrLowNote')}</p>}
      <div className="scan-body">
        <ScanImage kb={target.kbId} path={page.path} ocrPage={ocrPage} span={span} nonce={target.nonce} />
        <ScanText page={page} ocrPage={ocrPage} span={span} />
      </div>
    </div>
  );
}

const cited = (line: Span, span: Span | null) => span !== null && line.start < span.end && line.end > span.start;

/** The page image with every line's box, the cited ones highlighted; scrolled to the first cited box. */
function ScanImage({ kb, path, ocrPage, span, nonce }: { kb: string; path: string; ocrPage: OcrPage; span: Span | null; nonce?: number }) {
  const { t } = useTranslation();
  const [image, setImage] = useState<PageImage | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let live = true;
    setImage(null);
    setProblem(null);
    void client.invoke('pages.image', { kb, path, page: ocrPage.page }).then((result) => {
      if (!live) return;
      if (result.ok) setImage(result.value);
      else setProblem(result.error.message);
    });
    return () => {
      live = false;
    };
  }, [kb, path, ocrPage.page]);
  useEffect(() => {
    const box = frame.current?.querySelector('rect.cited');
    if (box && frame.current) {
      const top = box.getBoundingClientRect().top - frame.current.getBoundingClientRect().top + frame.current.scrollTop;
      frame.current.scrollTo({ top: Math.max(0, top - 48) });
    }
  }, [image, span?.start, nonce]);
  return (
    <div ref={frame} className="scan-image" aria-label={t('pages.scanImage', { page: ocrPage.page })}>
      <Problem message={problem} />
      {!image && !problem && <p className="muted">{t('pages.scanLoading')}</p>}
      {image && (
        <div className="scan-canvas">
          <img src={image.dataUrl} alt={t('pages.scanImage', { page: ocrPage.page })} width={image.width} height={image.height} />
          <svg viewBox={`0 0 ${ocrPage.width} ${ocrPage.height}`} preserveAspectRatio="none" aria-hidden="true">
            {ocrPage.lines.map((l) => (
              <rect
                key={l.start}
                className={cited(l, span) ? 'cited' : 'line'}
                x={l.box[0]}
                y={l.box[1]}
                width={l.box[2] - l.box[0]}
                height={l.box[3] - l.box[1]}
              />
            ))}
          </svg>
        </div>
      )}
    </div>
  );
}

/** The recognised text of the page, a line each, the cited lines marked; a line below 80 % confidence is dotted. */
function ScanText({ page, ocrPage, span }: { page: PageDetail; ocrPage: OcrPage; span: Span | null }) {
  const { t } = useTranslation();
  const lines = useMemo(() => ocrPage.lines.map((l) => ({ ...l, text: page.text.slice(l.start, l.end) })), [page.text, ocrPage]);
  return (
    <ol className="scan-text" aria-label={t('pages.scanText', { page: ocrPage.page })}>
      {lines.map((l, i) => {
        const title = t('pages.scanLine', { line: i + 1, confidence: Math.round(l.confidence * 100) });
        const className = l.confidence < 0.8 ? 'scan-line unsure' : 'scan-line';
        return (
          <li key={l.start} className={className} title={title}>
            {cited(l, span) ? <mark className="passage">{l.text}</mark> : l.text}
          </li>
        );
      })}
    </ol>
  );
}
