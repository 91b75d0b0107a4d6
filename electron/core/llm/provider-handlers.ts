/**
 * The provider operations of the contract: "Test connection" for a provider as written in the settings form, keeping
 * its API key encrypted (desktop app), and which provider answers in a knowledge base (for the hosted-provider notice).
 */
import type { Handlers } from '../../../shared/contract';
import { SiftError } from '../../../shared/errors';
import type { CoreContext } from '../store/context';
import { resolveKb } from '../kb/knowledge-bases';
import { resolveApiKey, type SecretStore } from '../config/secrets';
import type { SettingsStore } from '../config/settings';
import { isLoopback, makeClient, type ActiveProvider } from './providers';

/** Time limit of "Test connection", ms: a person is waiting for it. */
const TEST_TIMEOUT_MS = 8000;

/** What the provider operations read of the configuration in force (the facade's LiveConfig). */
export interface ProviderConfig {
  readonly secrets: SecretStore;
  /** The provider that answers in knowledge base `kbId`. Throws SiftError('not_found'). */
  provider(kbId: string | null): ActiveProvider;
}

/** Handlers for `providers.*`. */
export function providerHandlers(
  ctx: CoreContext,
  live: ProviderConfig,
  settings: SettingsStore,
): Pick<Handlers, 'providers.test' | 'providers.setKey' | 'providers.forKb'> {
  return {
    async 'providers.test'({ provider, apiKey }) {
      const hosted = !isLoopback(provider.baseUrl);
      try {
        const key = provider.kind === 'openai' ? (apiKey ?? resolveApiKey(provider.apiKeyRef, provider.name, live.secrets)) : null;
        const client = makeClient({ ...provider, builtin: false }, key, { connectTimeoutMs: TEST_TIMEOUT_MS });
        const models = (await client.listModels()).map((m) => m.name);
        const message = models.length === 0 ? `${provider.name} answered but lists no models.` : null;
        return { ok: true, models, hosted, message };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, models: [], hosted, message };
      }
    },

    async 'providers.setKey'({ name, apiKey }) {
      live.secrets.set(name, apiKey);
      return { name, apiKeyRef: 'stored' as const };
    },

    async 'providers.forKb'({ kb }) {
      const kbId = resolveKb(ctx, kb).id;
      let provider;
      try {
        provider = live.provider(kbId);
      } catch (error) {
        if (error instanceof SiftError) throw error;
        throw new SiftError('internal', String(error));
      }
      return {
        name: provider.name, kind: provider.kind, baseUrl: provider.baseUrl, model: provider.defaultModel,
        hosted: !isLoopback(provider.baseUrl),
        noticeSeen: settings.get().hostedNoticeSeen.includes(kbId),
        keyStorage: live.secrets.available,
      };
    },
  };
}
