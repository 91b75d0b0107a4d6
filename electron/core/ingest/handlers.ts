/** The indexing and page operations of the contract. */
import type { Handlers } from '../../../shared/contract';
import type { CoreContext } from '../store/context';
import { resolveKb } from '../kb/knowledge-bases';
import type { Indexer } from './indexer';
import { manifest } from './manifest';
import type { PageFeature } from './page-features';
import { getPage, listPages } from './pages';
import { pageImage } from './page-image';

/** Handlers for `ingest.*` and `pages.*`; `features` describe pages in the manifest. */
export function ingestHandlers(
  ctx: CoreContext,
  indexer: Indexer,
  features: readonly PageFeature[],
): Pick<Handlers, 'ingest.start' | 'ingest.status' | 'ingest.cancel' | 'pages.list' | 'pages.manifest' | 'pages.get' | 'pages.image'> {
  return {
    async 'ingest.start'({ kb }) {
      return indexer.start(resolveKb(ctx, kb).id);
    },
    async 'ingest.status'({ kb }) {
      return indexer.status(resolveKb(ctx, kb).id);
    },
    async 'ingest.cancel'({ kb }) {
      return indexer.cancel(resolveKb(ctx, kb).id);
    },
    async 'pages.list'({ kb }) {
      return listPages(ctx.kbFiles.get(resolveKb(ctx, kb).id));
    },
    async 'pages.manifest'({ kb }) {
      return manifest(ctx.kbFiles.get(resolveKb(ctx, kb).id), features);
    },
    async 'pages.get'({ kb, path }) {
      return getPage(ctx.kbFiles.get(resolveKb(ctx, kb).id), path);
    },
    async 'pages.image'({ kb, path, page }) {
      return pageImage(ctx.kbFiles.get(resolveKb(ctx, kb).id), path, page);
    },
  };
}
