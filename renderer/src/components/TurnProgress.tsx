/**
 * What a turn did, shown in the thread just above its answer: each step as it happens while it runs
 * (searching → found N pages / nothing / search failed → answering), then one line once it ended,
 * which opens to the full list.
 */
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TurnInfo } from '../../../shared/chat-models';
import type { TurnStep } from '../state/chat';
import { spoken } from '../lib/spoken';

/** The words for a turn step, in the UI's language. */
export function stepText(step: TurnStep, t: TFunction): string {
  switch (step.kind) {
    case 'searching':
      // A rewritten follow-up shows what was actually searched, and how it came about.
      if (!step.rewrittenFrom) return t('steps.searching');
      return `${t('steps.searchingFor', { query: step.query })} · ${t(step.note ? 'steps.rewriteFallback' : 'steps.rewritten')}`;
    case 'found':
      if (step.total !== undefined && step.total > step.paths.length) {
        return t('steps.foundSome', { count: step.total, shown: step.paths.length }) + noExactMatchText(step.noExactMatch, t);
      }
      return t('steps.found', { count: step.paths.length }) + noExactMatchText(step.noExactMatch, t);
    case 'empty':
      return t('steps.empty') + noExactMatchText(step.noExactMatch, t);
    case 'search-failed':
      return t('steps.searchFailed');
    case 'tool':
      return t('steps.tool', { name: step.name });
    case 'tool-result':
      // A tool's summary comes from the core and is shown as it is.
      if (step.ok) return spoken(t, step.summary, step.said) || t('steps.toolDone', { name: step.name });
      return t('steps.toolFailed', { name: step.name, summary: spoken(t, step.summary, step.said) });
    case 'answering':
      return t('steps.answering');
    case 'done':
      if (step.status === 'cancelled') return t('steps.stopped');
      if (step.status === 'interrupted') return t('steps.interrupted');
      if (step.status === 'failed') return t('steps.failedShort');
      if (step.status === 'llm_unavailable') return t('steps.extractive');
      return t('steps.done');
    case 'failed':
      return t('steps.failed', { message: spoken(t, step.message, step.said) });
  }
}

/** The note added to a search step when identifiers of the question occur nowhere in the knowledge base. */
function noExactMatchText(words: string[] | undefined, t: TFunction): string {
  return words && words.length > 0 ? ` · ${t('steps.noExactMatch', { words: words.join(', ') })}` : '';
}

/** The step that says what retrieval found (the last one that does), for the collapsed line. */
function retrievalOf(steps: TurnStep[]): TurnStep | undefined {
  return [...steps].reverse().find((s) => s.kind === 'found' || s.kind === 'empty' || s.kind === 'search-failed');
}

/** The automatic search's step when its query was rewritten from the message (worth keeping in the ended line). */
function rewrittenOf(steps: TurnStep[]): TurnStep | undefined {
  return steps.find((s) => s.kind === 'searching' && !!s.rewrittenFrom);
}

/** The steps of a stored answer, for a thread that did not see it run (a reload): what the turn kept, then its end. */
export function storedSteps(turn: TurnInfo | null): TurnStep[] | undefined {
  if (!turn?.steps) return undefined;
  return [...turn.steps, { kind: 'done', status: turn.status, decision: turn.decision }];
}

/** A turn's steps: all of them while it runs, one line (that opens) once it ended. */
export function TurnProgress({ steps, running }: { steps: TurnStep[]; running: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (steps.length === 0) return null;
  const ended = !running;
  const last = steps[steps.length - 1]!;
  // An ended turn's line: what retrieval found and how the turn ended (not "Answering…" when its end went unheard).
  const end = last.kind === 'done' || last.kind === 'failed' ? last : undefined;
  const shown = ended && !open ? [rewrittenOf(steps), retrievalOf(steps), end].filter((s) => s !== undefined) : steps;
  return (
    <div className={ended ? 'turn-progress ended' : 'turn-progress'} role={running ? 'status' : undefined}>
      <ol className="steps" aria-label={t('status.turnProgress')}>
        {shown.map((step, i) => {
          const text = stepText(step, t);
          // A step too long for the line ends in an ellipsis (CSS); its whole text shows on hover.
          return (
            <li key={i} className={`step ${step.kind}`} title={text}>
              {text}
            </li>
          );
        })}
      </ol>
      {ended && (open || steps.length > shown.length) && (
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t('chat.hideSteps') : t('chat.showSteps')}
        </button>
      )}
    </div>
  );
}
