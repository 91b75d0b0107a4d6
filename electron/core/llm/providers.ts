/**
 * Which model server answers: the built-in Ollama, or a provider of the settings' list (another Ollama, or any
 * OpenAI-compatible server), chosen per knowledge base, else by default, unless the host names one (the CLI's
 * `--provider`, `--base-url`). One {@link LlmClient} comes out either way, so the turn has one code path.
 */
import { createHash } from 'node:crypto';
import { SiftError } from '../../../shared/errors';
import { isLoopbackUrl } from '../../../shared/providers';
import { BUILTIN_PROVIDER, type ProviderSettings, type Settings } from '../../../shared/settings';
import { resolveApiKey, type SecretStore } from '../config/secrets';
import { createLlmClient } from './ollama-client';
import { createOpenAiClient } from './openai-client';
import type { LlmClient } from './types';

/** A provider as a turn uses it: the settings' entry, or the built-in Ollama in the same shape. */
export interface ActiveProvider extends ProviderSettings {
  /** True for the built-in Ollama (at `ollamaHost`). */
  builtin: boolean;
  /** Where its key comes from, as a refused key's message names it; default: said from `apiKeyRef`. */
  keySource?: string;
}

/** What the host fixes about the provider (CLI flags, tests); each wins over the settings. */
export interface ProviderOverrides {
  /** The built-in Ollama's address. */
  host?: string;
  /** A provider of the list, by name (`sift ask --provider NAME`), or "ollama" for the built-in one. */
  provider?: string;
  /** A provider given whole (`sift ask --base-url URL --model M`), with where its key comes from; wins over
   *  `provider`. */
  custom?: ProviderSettings & { keySource?: string };
}

/** Time limits of the clients. */
export interface ClientTimeouts {
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
}

/**
 * The provider for knowledge base `kbId` (null: a chat without one): the host's choice, else the knowledge base's
 * override, else the default provider, else the built-in Ollama. Throws SiftError('not_found') for a name that is not
 * in the list (a provider removed after a knowledge base chose it).
 */
export function providerFor(settings: Settings, kbId: string | null, overrides: ProviderOverrides = {}): ActiveProvider {
  if (overrides.custom) return { ...overrides.custom, builtin: false };
  const name = overrides.provider ?? (kbId ? settings.kbProviders[kbId] : undefined) ?? settings.defaultProvider ?? BUILTIN_PROVIDER;
  if (name.toLowerCase() === BUILTIN_PROVIDER) {
    const baseUrl = overrides.host ?? settings.ollamaHost;
    return { name: BUILTIN_PROVIDER, kind: 'ollama', baseUrl, apiKeyRef: null, defaultModel: settings.model, builtin: true };
  }
  const found = settings.providers.find((p) => p.name.toLowerCase() === name.toLowerCase());
  if (!found) {
    const known = [BUILTIN_PROVIDER, ...settings.providers.map((p) => p.name)].join(', ');
    throw new SiftError('not_found', `There is no provider "${name}" in Settings (there are: ${known}).`);
  }
  return { ...found, builtin: false };
}

/** True when `url` points at this machine (see shared/providers.ts). */
export const isLoopback = isLoopbackUrl;

/** Makes clients for providers, keeping one per configuration (and key), so a turn after a turn reuses it. */
export class ProviderClients {
  private cached: { key: string; client: LlmClient } | null = null;

  constructor(
    private readonly secrets: SecretStore,
    private readonly timeouts: ClientTimeouts = {},
  ) {}

  /**
   * The client of `provider`. When its key cannot be had, a client whose every call fails with that reason (so the
   * turn says it, instead of the request failing before the turn starts).
   */
  client(provider: ActiveProvider): LlmClient {
    let apiKey: string | null;
    try {
      apiKey = provider.kind === 'openai' ? resolveApiKey(provider.apiKeyRef, provider.name, this.secrets) : null;
    } catch (error) {
      return failingClient(provider, error as SiftError);
    }
    const fingerprint = apiKey ? createHash('sha256').update(apiKey).digest('hex') : '';
    const limits = [provider.contextLength ?? null, provider.connectTimeoutMs ?? null];
    const key = JSON.stringify([provider.name, provider.kind, provider.baseUrl, ...limits, fingerprint]);
    if (this.cached?.key === key) return this.cached.client;
    const client = makeClient(provider, apiKey, this.timeouts);
    this.cached = { key, client };
    return client;
  }
}

/** A client for `provider` with `apiKey` (read by the caller), outside any cache: "Test connection" uses it. */
export function makeClient(provider: ActiveProvider, apiKey: string | null, given: ClientTimeouts = {}): LlmClient {
  // The provider's own wait for an answer to start (a server loading its model) wins over the host's default.
  const timeouts = { ...given, ...(provider.connectTimeoutMs ? { connectTimeoutMs: provider.connectTimeoutMs } : {}) };
  if (provider.kind === 'ollama') {
    const client = createLlmClient({ host: provider.baseUrl, ...timeouts });
    return provider.builtin ? client : { ...client, host: client.host, label: provider.name };
  }
  return createOpenAiClient({
    baseUrl: provider.baseUrl, apiKey, name: provider.name, contextLength: provider.contextLength ?? null, ...timeouts,
    keySource: provider.keySource ?? keySourceOf(provider.apiKeyRef),
  });
}

/** Where a provider's key comes from, as a refused key's message says it. */
export function keySourceOf(ref: string | null): string {
  if (ref === null || ref === 'stored') return 'the key of this provider in Settings';
  if (ref === 'env') return 'SIFT_API_KEY (or OPENAI_API_KEY)';
  if (ref.startsWith('env:')) return ref.slice('env:'.length);
  return `the key file ${ref.slice('file:'.length)}`;
}

/** A client whose every call fails with `error` (ping reports it). */
export function failingClient(provider: ActiveProvider, error: SiftError): LlmClient {
  const fail = async (): Promise<never> => {
    throw error;
  };
  return {
    host: provider.baseUrl,
    label: provider.name,
    listModels: fail,
    contextLength: fail,
    async *chat() {
      throw error;
    },
    ping: async () => ({ ok: false, version: null, message: error.message }),
  };
}
