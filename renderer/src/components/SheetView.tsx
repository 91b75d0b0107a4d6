/**
 * A spreadsheet page (kind `sheet`, also csv and tsv) as tables: one per sheet, its name as the heading,
 * the header row, each row numbered as the spreadsheet numbers it. The rows a passage cites are
 * highlighted (`aria-current`) and scrolled into view. Only a window of rows is rendered (around the
 * cited rows, else the first ones), with buttons to show more, so a 10,000-row sheet stays responsive.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageDetail } from '../../../shared/models';
import { citedRange, citesHeaderOnly, initialWindow, rowCells, rowsInSpan, sheetTables, WINDOW_ROWS, type SheetTable } from '../lib/sheet-table';
import type { PageTarget } from '../state/pages';
import '../formats.css';
import { PassageNoteLine } from './PassageNote';

type Span = { start: number; end: number };

/** Characters above which a cell's text wraps (in a column of bounded width) rather than widening its column. */
const LONG_CELL = 40;

/**
 * Scroll `container` so the first element matching `selector` sits near its top; false when there is none.
 * The sticky header row of a table (`thead`) is allowed for, so the target row is not under it (and a row
 * or so of context shows above).
 */
export function scrollToFirst(container: HTMLElement | null, selector: string): boolean {
  const el = container?.querySelector(selector);
  if (!container || !el) return false;
  const head = el.closest('table')?.querySelector('thead');
  const offset = (head?.getBoundingClientRect().height ?? 0) + 40;
  const top = el.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop;
  container.scrollTo({ top: Math.max(0, top - offset) });
  return true;
}

/** The cited span of a target, or null when it names none. */
export function targetSpan(target: PageTarget): Span | null {
  return target.span && target.span.end > target.span.start ? target.span : null;
}

/** Shows a spreadsheet page's sheets as tables. */
export function SheetView({ page, target }: { page: PageDetail; target: PageTarget }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const tables = useMemo(() => sheetTables(page.text, page.headings, page.pdfPages ?? []), [page.text, page.headings, page.pdfPages]);
  const span = targetSpan(target);
  const cited = tables.map((table) => rowsInSpan(table, span));
  const headerCited = tables.map((table) => citesHeaderOnly(table, span));

  useEffect(() => {
    if (!scrollToFirst(ref.current, 'tr[aria-current]')) ref.current?.scrollTo({ top: 0 });
  }, [page.path, target.nonce]);

  const at = cited.findIndex((rows, i) => rows.length > 0 || headerCited[i]);
  return (
    <>
      {at >= 0 && <CitedNote table={tables[at]!} cited={cited[at]!} onShow={() => scrollToFirst(ref.current, 'tr[aria-current]')} />}
      <div ref={ref} className="page-text sheet-view" aria-label={t('pages.text')} tabIndex={0}>
        {tables.map((table, i) => (
          // A new target starts each table's window afresh (around the new cited rows).
          <SheetTableView
            key={`${page.path}:${i}:${target.nonce}`}
            text={page.text}
            table={table}
            cited={cited[i]!}
            headerCited={headerCited[i]!}
            fallbackName={page.title}
          />
        ))}
      </div>
    </>
  );
}

function CitedNote({ table, cited, onShow }: { table: SheetTable; cited: number[]; onShow(): void }) {
  const { t } = useTranslation();
  const range = citedRange(table, cited);
  const name = table.name;
  let note: string;
  if (!range) note = name !== null ? t('formats.citedHeaderInSheet', { name }) : t('formats.citedHeader');
  else {
    const [from, to] = range;
    if (name !== null) note = from === to ? t('formats.citedRowInSheet', { n: from, name }) : t('formats.citedRowsInSheet', { from, to, name });
    else note = from === to ? t('formats.citedRow', { n: from }) : t('formats.citedRows', { from, to });
  }
  return <PassageNoteLine where={note} onShow={onShow} />;
}

interface SheetTableViewProps {
  text: string;
  table: SheetTable;
  /** Indices of the cited rows. */
  cited: number[];
  /** The passage cites this sheet's name and header only. */
  headerCited: boolean;
  /** What to call a csv's one unnamed sheet (the page's title). */
  fallbackName: string;
}

function SheetTableView({ text, table, cited, headerCited, fallbackName }: SheetTableViewProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const [view, setView] = useState(() => initialWindow(table.rows.length, cited));
  const citedSet = new Set(cited);
  const count = table.rows.length;
  const name = table.name ?? fallbackName;
  const shown = table.rows.slice(view.from, view.to);
  const columns = table.columns.length + 1;
  // The caption names the sheet for assistive technology (the heading above shows it to the eye).
  const label = table.name !== null ? t('formats.sheet', { name: table.name }) : name;
  const caption =
    count === 0 ? t('formats.headerOnly') : t('formats.rowsShown', { from: shown[0]!.number, to: shown[shown.length - 1]!.number, count });
  const earlier = Math.min(WINDOW_ROWS, view.from);
  const later = Math.min(WINDOW_ROWS, count - view.to);
  return (
    <section className="sheet" aria-labelledby={table.name !== null ? headingId : undefined} aria-label={table.name === null ? name : undefined}>
      {table.name !== null && (
        <h3 id={headingId} className="sheet-name">
          {t('formats.sheet', { name: table.name })}
        </h3>
      )}
      <table className="sheet-table">
        <caption>
          <span className="visually-hidden">{t('formats.captionOf', { label, caption })}</span>
          <span aria-hidden="true">{caption}</span>
        </caption>
        <thead>
          <tr className={headerCited ? 'cited' : undefined} aria-current={headerCited ? 'true' : undefined}>
            <th scope="col" className="row-number">
              {t('formats.rowColumn')}
            </th>
            {table.columns.map((c, i) => (
              <th key={i} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {earlier > 0 && (
            <tr className="sheet-more">
              <td colSpan={columns}>
                <button type="button" className="link-button" onClick={() => setView({ ...view, from: view.from - earlier })}>
                  {t('formats.showEarlier', { count: earlier })}
                </button>
              </td>
            </tr>
          )}
          {shown.map((row, k) => {
            const isCited = citedSet.has(view.from + k);
            return (
              <tr key={row.number} className={isCited ? 'cited' : undefined} aria-current={isCited ? 'true' : undefined}>
                <th scope="row" className="row-number">
                  {row.number}
                  {isCited && <span className="visually-hidden">{t('formats.cited')}</span>}
                </th>
                {rowCells(text, table, row).map((cell, i) => (
                  <td key={i}>{cell.length > LONG_CELL ? <div className="cell-long">{cell}</div> : cell}</td>
                ))}
              </tr>
            );
          })}
          {later > 0 && (
            <tr className="sheet-more">
              <td colSpan={columns}>
                <button type="button" className="link-button" onClick={() => setView({ ...view, to: view.to + later })}>
                  {t('formats.showLater', { count: later })}
                </button>
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
