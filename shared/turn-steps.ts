/**
 * How a turn's streamed events become its steps. The core keeps each running turn's steps this way
 * (for a client that opens the conversation later) and the renderer builds the same steps live, so
 * both read one rule.
 */
import type { TurnStep } from './chat-models';

/**
 * The step an event adds to its turn, or null when it adds none. `answer.token` adds `answering`
 * only for the first token (`answering` says whether the turn already has it).
 */
export function stepOfEvent(event: string, payload: unknown, answering: boolean): TurnStep | null {
  const p = (payload ?? {}) as Record<string, unknown>;
  const text = (key: string): string => (typeof p[key] === 'string' ? (p[key] as string) : '');
  const missing = Array.isArray(p.noExactMatch) ? p.noExactMatch.filter((x): x is string => typeof x === 'string') : [];
  const noExactMatch = missing.length > 0 ? { noExactMatch: missing } : {};
  switch (event) {
    case 'search.started':
      return {
        kind: 'searching', query: text('query'),
        ...(text('rewrittenFrom') ? { rewrittenFrom: text('rewrittenFrom') } : {}),
        ...(text('note') ? { note: text('note') } : {}),
      };
    case 'search.done': {
      const paths = Array.isArray(p.paths) ? p.paths.filter((x): x is string => typeof x === 'string') : [];
      const total = typeof p.total === 'number' ? { total: p.total } : {};
      return { kind: 'found', count: typeof p.count === 'number' ? p.count : paths.length, paths, ...total, ...noExactMatch };
    }
    case 'search.empty':
      return { kind: 'empty', ...noExactMatch };
    case 'search.failed':
      return { kind: 'search-failed', message: text('message') };
    case 'tool.called':
      return { kind: 'tool', name: text('name') };
    case 'tool.result': {
      const said = p.said && typeof p.said === 'object' ? { said: p.said as NonNullable<Extract<TurnStep, { kind: 'tool-result' }>['said']> } : {};
      return { kind: 'tool-result', name: text('name'), ok: p.ok === true, summary: text('summary'), ...said };
    }
    case 'answer.token':
      return answering ? null : { kind: 'answering' };
    default:
      return null;
  }
}
