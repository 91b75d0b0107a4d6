/** The glossary operations of the contract: list a knowledge base's glossary, look a term up. */
import type { Handlers } from '../../../shared/contract';
import type { CoreContext } from '../store/context';
import { resolveKb } from '../kb/knowledge-bases';
import { listGlossary, lookupGlossary } from './store';

/** Handlers for `glossary.list` and `glossary.lookup`. */
export function glossaryHandlers(ctx: CoreContext): Pick<Handlers, 'glossary.list' | 'glossary.lookup'> {
  return {
    async 'glossary.list'({ kb }) {
      return listGlossary(ctx.kbFiles.get(resolveKb(ctx, kb).id));
    },
    async 'glossary.lookup'({ kb, term }) {
      return { term, ...lookupGlossary(ctx.kbFiles.get(resolveKb(ctx, kb).id), term) };
    },
  };
}
