/** The ingest worker thread's entry: ingest's worker, writing every page to the core's page features. */
import { serveIngest } from './ingest/ingest-worker';
import { PAGE_FEATURES } from './page-features';

serveIngest(PAGE_FEATURES);
