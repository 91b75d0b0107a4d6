/** The search and evidence operations of the contract. */
import type { Handlers } from '../../../shared/contract';
import type { CoreContext } from '../store/context';
import { resolveKb } from '../kb/knowledge-bases';
import { getEvidence } from './evidence';
import { searchKnowledgeBase, type EnhanceProviders, type QueryEmbedder, type SearchOptions } from './search';

/** Handlers for `search.query` and `evidence.get`. `providers`: what LLM enhancements need (default: none run). */
export function searchHandlers(
  ctx: CoreContext,
  embedder: QueryEmbedder,
  options: SearchOptions = {},
  providers?: EnhanceProviders,
): Pick<Handlers, 'search.query' | 'evidence.get'> {
  return {
    async 'search.query'(args) {
      const db = ctx.kbFiles.get(resolveKb(ctx, args.kb).id);
      // Earlier questions of the contract are the person's own messages.
      const history = args.history?.map((content) => ({ role: 'user' as const, content }));
      return searchKnowledgeBase(db, { ...args, history }, embedder, options, providers);
    },
    async 'evidence.get'({ kb, evidenceId, window }) {
      return getEvidence(ctx.kbFiles.get(resolveKb(ctx, kb).id), evidenceId, window);
    },
  };
}
