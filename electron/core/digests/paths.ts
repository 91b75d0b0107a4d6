/** Where page digests live: their folder in the store and their page addresses (no imports: ingest reads these). */

/** The `documents.folder` of every digest: not an absolute path, so it never names a folder on disk. */
export const DIGEST_FOLDER = 'sift:digests';
/** Digest pages live under this address; the overview is `wiki/_digest/overview.md`. */
export const DIGEST_ROOT = 'wiki/_digest/';
/** The knowledge-base overview made from the page digests. */
export const OVERVIEW_PATH = `${DIGEST_ROOT}overview.md`;
