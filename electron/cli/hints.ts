/** What to type next, added to an error line when the error has an obvious next step. */
import { SiftError } from '../../shared/errors';
import type { Sift } from '../core';
import { call } from './command';

/** A hint (with its leading separator) for `err`, or '' when there is none. */
export function errorHint(err: unknown): string {
  if (!(err instanceof SiftError)) return '';
  if (err.code === 'not_found' && err.message.startsWith('no knowledge base has the id or name')) {
    return '. See them with: sift kb list; create one with: sift kb create NAME';
  }
  return '';
}

/**
 * An operation's error message without the operation's internal name in front (`kb.create: name: …` reads
 * `name: …`): the CLI speaks in commands, not in the contract's operation names.
 */
export function withoutOperationName(op: string, message: string): string {
  if (message.startsWith(`${op}: `)) return message.slice(op.length + 2);
  if (message.startsWith(`${op} failed unexpectedly: `)) return message.slice(op.length + 1);
  return message;
}

/** The line for a knowledge base that has nothing to search yet, or null when it has pages. */
export async function emptyKbLine(sift: Sift, kb: string): Promise<string | null> {
  const listed = (await call(sift, 'kb.list', {})).find((k) => k.id === kb || k.name === kb);
  if (!listed || (await call(sift, 'pages.list', { kb: listed.id })).length > 0) return null;
  return emptyKbHint(kb, listed.folderCount);
}

function emptyKbHint(kb: string, folderCount: number): string {
  const quoted = /^[\w.-]+$/.test(kb) ? kb : JSON.stringify(kb);
  return folderCount === 0
    ? `This knowledge base has no folders yet. Add one: sift folder add ${quoted} PATH`
    : `This knowledge base has no pages yet. Index its folders: sift ingest ${quoted}`;
}
