/**
 * What is under a finished answer: how the turn ended when that is worth saying, the references
 * list (built by code from the cited passages), and why each passage was found.
 */
import { useMemo, useRef } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TurnInfo } from '../../../shared/chat-models';
import type { Passage } from '../../../shared/models';
import { isMarkdownPath, renderQuote } from '../lib/page-markdown';
import { useRoving } from '../lib/roving';
import { whereOf } from './CitationChip';
import { MarkdownNodes } from './MarkdownNodes';
import { VersionBadge } from './VersionBadge';
import { spoken } from '../lib/spoken';

/** Props of {@link TurnFooter}. */
export interface TurnFooterProps {
  turn: TurnInfo;
  /** Why the turn failed, when known. */
  error?: string | null;
  onOpenPassage(passage: Pick<Passage, 'pagePath' | 'start' | 'end'>): void;
}

/** Notes, references and search details of one answer. */
export function TurnFooter({ turn, error, onOpenPassage }: TurnFooterProps) {
  const { t } = useTranslation();
  const notes: string[] = [];
  // An extractive answer (Ollama unreachable) says so in its own text; the banner says what to do.
  if (turn.status === 'cancelled') notes.push(t('turn.cancelled'));
  if (turn.status === 'interrupted') notes.push(t('turn.interrupted'));
  if (turn.status === 'failed') notes.push(t('turn.failed') + (error ? ` (${error})` : ''));
  if (turn.decision === 'refused') notes.push(t('turn.refused'));
  if (turn.decision === 'clarification') notes.push(t('turn.clarification'));
  if (turn.status === 'truncated') notes.push(t('turn.truncated'));
  if (turn.status === 'incomplete') notes.push(t('turn.incomplete'));
  if (turn.decision === 'no_answer') notes.push(t('turn.noAnswer'));
  if (turn.searchError) notes.push(t('turn.searchFailed', { error: spoken(t, turn.searchError, turn.said) }));
  // The core's own words on what went wrong (which limit, how many lines were lost), after the summary above.
  notes.push(...(turn.warnings ?? []).map((w) => spoken(t, w, turn.said)));
  // References that are glossary definitions say so (the reference itself carries no hit reason; its passage does).
  const glossaryIds = new Set(turn.passages.filter((p) => p.hitReason === 'glossary').map((p) => p.evidenceId));
  // The reference cards are one Tab stop; the arrow keys move between them.
  const list = useRef<HTMLOListElement>(null);
  const onListKey = useRoving(list, 'button.reference-title');
  return (
    <div className="turn-footer">
      {notes.map((n) => (
        <p key={n} className={`turn-note ${turn.status}`}>
          {n}
        </p>
      ))}
      {turn.references.length > 0 && (
        <section className="references" aria-label={t('turn.references')}>
          <h3>{t('turn.references')}</h3>
          <ol ref={list} onKeyDown={onListKey}>
            {turn.references.map((r) => (
              <li key={`${r.number}-${r.evidenceId}`} className="reference">
                <div className="reference-head">
                  <span className="reference-number">{r.number}</span>
                  <button type="button" className="link-button reference-title" onClick={() => onOpenPassage(r)}>
                    {r.title}
                  </button>
                  <VersionBadge version={turn.passages.find((p) => p.evidenceId === r.evidenceId)?.version} />
                  <span className="reference-path">{r.pagePath}</span>
                  {whereOf(r, t) && <span className="reference-where">{whereOf(r, t)}</span>}
                  {r.provenance.ocr?.lowConfidence && <span className="badge ocr-low">{t('pages.ocrLow')}</span>}
                  {glossaryIds.has(r.evidenceId) && <span className="glossary-mark">{t('turn.glossaryMark')}</span>}
                </div>
                <Quote text={r.quote} path={r.pagePath} focus={r.focus} openFence={r.openFence} />
                <AlsoIn passage={turn.passages.find((p) => p.evidenceId === r.evidenceId)} />
              </li>
            ))}
          </ol>
        </section>
      )}
      {turn.passages.length > 0 && <WhyFound turn={turn} />}
    </div>
  );
}

/**
 * A passage quote: rendered when it comes from a Markdown page, as written otherwise; from its focus (where
 * its words on the question begin) after an ellipsis when it has one. Shown text that starts inside a code
 * block opens it again (`openFence`), so its code shows as code and the prose after the block as prose.
 */
function Quote({ text, path, focus, openFence }: { text: string; path: string; focus?: number; openFence?: string }) {
  const nodes = useMemo(
    () => (isMarkdownPath(path) ? renderQuote(text, { focus, openFence }) : null),
    [text, path, focus, openFence],
  );
  const more = focus ? <span className="quote-more">…</span> : null;
  if (!nodes) return <blockquote className="reference-quote">{more}{text.slice(focus ?? 0)}</blockquote>;
  return (
    <blockquote className="reference-quote quote-md">
      {more}
      <MarkdownNodes nodes={nodes} headingOffset={null} />
    </blockquote>
  );
}

function figure(value: number | null, digits = 0): string {
  return value === null ? '—' : value.toFixed(digits);
}

/** How the automatic search's query came about, and what its enhancements noted (lines above the table). */
function searchLines(turn: TurnInfo, t: TFunction): string[] {
  const lines: string[] = [];
  const q = turn.query;
  if (q?.rewrittenFrom) {
    const how = q.via === 'model' ? t('turn.rewrittenModel', { from: q.rewrittenFrom }) : t('turn.rewrittenTerms', { from: q.rewrittenFrom });
    lines.push(`${t('turn.searchedFor', { query: q.text })} (${how})`);
  }
  const rerank = turn.enhance?.rerank;
  if (rerank?.fallback) lines.push(t('turn.rerankFallback', { kind: rerank.kind, reason: spoken(t, rerank.fallback, turn.said) }));
  // The core's own words on what did not run and why (no model, keyword-only, reranker not available).
  for (const note of turn.enhance?.notes ?? []) {
    if (!turn.warnings?.includes(note)) lines.push(t('turn.enhanceNote', { note: spoken(t, note, turn.said) }));
  }
  return lines;
}

/** Which probes found a passage, in words: "rewrite: keyword #1, vector #2 · rephrasing 1: vector #3". */
function foundBy(p: Passage, turn: TurnInfo, t: TFunction): string {
  const kinds = turn.enhance?.probes ?? [];
  let rephrasing = 0;
  // The turn rewrites a follow-up before its search, so the search's own query is then the rewrite.
  const rewritten = !!turn.query?.rewrittenFrom;
  const names = kinds.map((k) => {
    if (k.kind === 'multi-query') return t('turn.probeMultiQuery', { n: ++rephrasing });
    if (k.kind === 'hyde') return t('turn.probeHyde');
    return t(k.kind === 'rewrite' || rewritten ? 'turn.probeRewrite' : 'turn.probeQuery');
  });
  const byProbe = new Map<number, string[]>();
  for (const h of p.probes ?? []) {
    const stage = t(h.stage === 'keyword' ? 'turn.stageKeyword' : 'turn.stageVector');
    byProbe.set(h.probe, [...(byProbe.get(h.probe) ?? []), `${stage} #${h.rank}`]);
  }
  return [...byProbe].map(([probe, ranks]) => `${names[probe] ?? `#${probe + 1}`}: ${ranks.join(', ')}`).join(' · ');
}

/** The other pages that hold a reference's passage too, when search showed it once for all of them. */
function AlsoIn({ passage }: { passage: TurnInfo['passages'][number] | undefined }) {
  const { t } = useTranslation();
  if (!passage?.alsoIn?.length) return null;
  return (
    <p className="reference-also-in" title={t('turn.alsoInTitle')}>
      {t('turn.alsoIn', { pages: passage.alsoIn.map((e) => e.pagePath.replace(/^wiki\//, '')).join(', ') })}
    </p>
  );
}

function WhyFound({ turn }: { turn: TurnInfo }) {
  const { t } = useTranslation();
  const passages = turn.passages;
  const reason = { explicit: t('turn.hitExplicit'), title: t('turn.hitTitle'), body: t('turn.hitBody'), kb_meta: t('turn.hitKbMeta'), glossary: t('turn.hitGlossary') } as const;
  const probes = passages.some((p) => p.probes?.length);
  const reranked = passages.some((p) => p.rerankPosition != null);
  return (
    <details className="why-found">
      <summary>{t('turn.whyFound')}</summary>
      {searchLines(turn, t).map((line) => (
        <p key={line} className="why-found-note">
          {line}
        </p>
      ))}
      <table>
        <thead>
          <tr>
            <th scope="col">{t('turn.colNumber')}</th>
            <th scope="col">{t('turn.colPage')}</th>
            <th scope="col">{t('turn.colReason')}</th>
            <th scope="col">{t('turn.colKeywordRank')}</th>
            <th scope="col">{t('turn.colVectorRank')}</th>
            <th scope="col">{t('turn.colRrf')}</th>
            {probes && <th scope="col">{t('turn.colFoundBy')}</th>}
            {reranked && <th scope="col">{t('turn.colRerank')}</th>}
          </tr>
        </thead>
        <tbody>
          {passages.map((p, i) => (
            <tr key={p.evidenceId}>
              <td>{i + 1}</td>
              <td title={p.pagePath}>
                {p.title}
                {p.version && ' '}
                <VersionBadge version={p.version} />
                {whereOf(p, t) && <span className="why-found-where">{whereOf(p, t)}</span>}
              </td>
              <td>{reason[p.hitReason]}</td>
              <td>{figure(p.keywordRank)}</td>
              <td>{figure(p.vectorRank)}</td>
              <td>{figure(p.rrfScore, 4)}</td>
              {probes && <td>{foundBy(p, turn, t)}</td>}
              {reranked && <td>{figure(p.rerankPosition ?? null)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
