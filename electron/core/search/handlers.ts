/** The search and evidence operations of the contract. */
import type { Handlers } from '../../../shared/contract';
import type { CoreContext } from '../context';
import { resolveKb } from '../kb/knowledge-bases';
import { getEvidence } from './evidence';
import { searchKnowledgeBase, type QueryEmbedder, type SearchOptions } from './search';

/** Handlers for `search.query` and `evidence.get`. */
export function searchHandlers(ctx: CoreContext, embedder: QueryEmbedder, options: SearchOptions = {}): Pick<Handlers, 'search.query' | 'evidence.get'> {
  return {
    async 'search.query'(args) {
      const db = ctx.kbFiles.get(resolveKb(ctx, args.kb).id);
      return searchKnowledgeBase(db, args, embedder, options);
    },
    async 'evidence.get'({ kb, evidenceId, window }) {
      return getEvidence(ctx.kbFiles.get(resolveKb(ctx, kb).id), evidenceId, window);
    },
  };
}
