/** Where page digests live: their folder in the store (the page model's) and their page addresses. */
import { DIGEST_OVERVIEW_PATH } from '../store/page-model';

export { DIGEST_FOLDER } from '../store/page-model';

/** Digest pages live under this address; the overview is `wiki/_digest/overview.md`. */
export const DIGEST_ROOT = 'wiki/_digest/';
/** The knowledge-base overview made from the page digests. */
export const OVERVIEW_PATH = DIGEST_OVERVIEW_PATH;
