/** The page-digest operations of the contract. */
import type { Handlers } from '../../../shared/contract';
import type { CoreContext } from '../store/context';
import { resolveKb } from '../kb/knowledge-bases';
import type { DigestRunner } from './runner';

/** Handlers for `digests.*`. */
export function digestHandlers(
  ctx: CoreContext,
  digests: DigestRunner,
): Pick<Handlers, 'digests.setEnabled' | 'digests.run' | 'digests.cancel' | 'digests.status'> {
  return {
    async 'digests.setEnabled'({ kb, enabled }) {
      return digests.setEnabled(resolveKb(ctx, kb).id, enabled);
    },
    async 'digests.run'({ kb }) {
      return digests.start(resolveKb(ctx, kb).id);
    },
    async 'digests.cancel'({ kb }) {
      return { cancelled: digests.cancel(resolveKb(ctx, kb).id) };
    },
    async 'digests.status'({ kb }) {
      return digests.status(resolveKb(ctx, kb).id);
    },
  };
}
