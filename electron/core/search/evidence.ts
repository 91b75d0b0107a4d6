/**
 * Evidence lookup: the text around a passage, found again from its evidence id. The passage's
 * hash is checked against the page as it is now, so evidence from a page that has changed since
 * is reported as stale instead of pointing at different words.
 */
import type Database from 'better-sqlite3';
import { SiftError } from '../../../shared/errors';
import type { Evidence } from '../../../shared/models';
import { pageByPath, parseEvidenceId, provenanceOf, sha256 } from './passages';

/** A window of `window` characters on each side of the passage, with the span and its sha256. */
export function getEvidence(db: Database.Database, evidenceId: string, window: number): Evidence {
  const { path, start, end, hashPrefix } = parseEvidenceId(evidenceId);
  const page = pageByPath(db, path);
  if (!page) throw new SiftError('not_found', `the page ${path} of this evidence no longer exists`);
  if (end > page.text.length || start > end) throw new SiftError('not_found', `the page ${path} has changed since this evidence was found`);
  const contentHash = sha256(page.text.slice(start, end));
  if (!contentHash.startsWith(hashPrefix)) throw new SiftError('not_found', `the page ${path} has changed since this evidence was found`);
  const windowStart = Math.max(0, start - window);
  const windowEnd = Math.min(page.text.length, end + window);
  return {
    evidenceId,
    pagePath: path,
    title: page.title,
    start,
    end,
    contentHash,
    windowStart,
    text: page.text.slice(windowStart, windowEnd),
    provenance: provenanceOf(page, start, end),
  };
}
