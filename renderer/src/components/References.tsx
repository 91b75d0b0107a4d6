/**
 * What is under a finished answer: how the turn ended when that is worth saying, the references
 * list (built by code from the cited passages), and why each passage was found.
 */
import type { TurnInfo } from '../../../shared/chat-models';
import type { Passage } from '../../../shared/models';
import { whereOf } from './CitationChip';

/** Props of {@link TurnFooter}. */
export interface TurnFooterProps {
  turn: TurnInfo;
  /** Why the turn failed, when known. */
  error?: string | null;
  onOpenPassage(passage: Pick<Passage, 'pagePath' | 'start' | 'end'>): void;
}

const DECISION_TEXT = {
  refused: 'No answer: nothing in this knowledge base answers the question.',
  clarification: 'Sift needs you to make the question more precise.',
} as const;

const STATUS_TEXT = {
  cancelled: 'Stopped. The partial answer is kept.',
  llm_unavailable: 'Ollama was not reachable, so this answer quotes the best passages instead of writing one.',
  failed: 'The answer broke off; what arrived is kept.',
} as const;

/** Notes, references and search details of one answer. */
export function TurnFooter({ turn, error, onOpenPassage }: TurnFooterProps) {
  const notes: string[] = [];
  if (turn.status !== 'complete') notes.push(STATUS_TEXT[turn.status] + (turn.status === 'failed' && error ? ` (${error})` : ''));
  if (turn.decision !== 'answered') notes.push(DECISION_TEXT[turn.decision]);
  if (turn.searchError) notes.push(`Search failed (${turn.searchError}); the answer does not use the knowledge base.`);
  return (
    <div className="turn-footer">
      {notes.map((n) => (
        <p key={n} className={`turn-note ${turn.status}`}>
          {n}
        </p>
      ))}
      {turn.references.length > 0 && (
        <section className="references" aria-label="References">
          <h3>References</h3>
          <ol>
            {turn.references.map((r) => (
              <li key={`${r.number}-${r.evidenceId}`} className="reference">
                <div className="reference-head">
                  <span className="reference-number">{r.number}</span>
                  <button type="button" className="link-button reference-title" onClick={() => onOpenPassage(r)}>
                    {r.title}
                  </button>
                  <span className="reference-path">{r.pagePath}</span>
                  {whereOf(r) && <span className="reference-where">{whereOf(r)}</span>}
                </div>
                <blockquote className="reference-quote">{r.quote}</blockquote>
              </li>
            ))}
          </ol>
        </section>
      )}
      {turn.passages.length > 0 && <WhyFound passages={turn.passages} />}
    </div>
  );
}

const HIT_REASON = { explicit: 'you referenced it', title: 'title matches', body: 'text matches' } as const;

function figure(value: number | null, digits = 0): string {
  return value === null ? '—' : value.toFixed(digits);
}

function WhyFound({ passages }: { passages: Passage[] }) {
  return (
    <details className="why-found">
      <summary>Why these passages were found</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Page</th>
            <th scope="col">Reason</th>
            <th scope="col">Keyword rank</th>
            <th scope="col">Vector rank</th>
            <th scope="col">RRF score</th>
          </tr>
        </thead>
        <tbody>
          {passages.map((p, i) => (
            <tr key={p.evidenceId}>
              <td>{i + 1}</td>
              <td title={p.pagePath}>{p.title}</td>
              <td>{HIT_REASON[p.hitReason]}</td>
              <td>{figure(p.keywordRank)}</td>
              <td>{figure(p.vectorRank)}</td>
              <td>{figure(p.rrfScore, 4)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
