/**
 * Taking secrets out of text before it leaves the core: a model server's error body may quote the API key it was
 * sent ("Incorrect API key provided: sk-…"), and such a message would otherwise reach the chat, the retrieval log,
 * an MCP client and the console. The key itself is removed wherever it appears, and so is anything shaped like a
 * key (OpenAI-style `sk-…`, `Bearer …` tokens, Hugging Face, GitHub, Google and Slack tokens, `api_key=…`).
 */

/** What a removed secret is replaced with. */
export const REDACTED = '[redacted]';

/** Known secrets shorter than this are not searched for: a two-letter "key" would redact ordinary words. */
const MIN_SECRET_LENGTH = 6;

/**
 * Shapes of keys and tokens. Each needs a recognisable prefix and a long run of key characters (`*` too: servers
 * quote keys half-masked, `sk-live-Zq****kL9m`), so ordinary prose never matches. A first capture group is what
 * stays (the `Bearer ` or `api_key=` before the secret), so the message still says what was there.
 */
const KEY_SHAPES: readonly RegExp[] = [
  /\b(?:sk|pk|rk)-[A-Za-z0-9_*-]{8,}/g, // OpenAI, Anthropic (sk-ant-…), DeepSeek, Stripe-like
  /\b(?:hf|gh[pousr]|glpat|xox[abpr]|xai)[_-][A-Za-z0-9_*-]{8,}/g, // Hugging Face, GitHub, GitLab, Slack, xAI
  /\bAIza[A-Za-z0-9_-]{20,}/g, // Google API keys
  /\b((?:Bearer|Basic|Token)\s+)[A-Za-z0-9._~+/=*-]{8,}/gi, // an Authorization header quoted back
  /\b((?:api[_-]?key|access[_-]?token|auth[_-]?token|secret|password)["']?\s*[:=]\s*["']?)[^\s"'&,;]{6,}/gi,
];

/**
 * `text` with every occurrence of each of `secrets` and everything shaped like a key replaced by {@link REDACTED}.
 * Known secrets go first, so a key of no known shape is still caught; an empty or short secret is ignored.
 */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    const s = secret?.trim();
    if (s && s.length >= MIN_SECRET_LENGTH) out = out.split(s).join(REDACTED);
  }
  for (const shape of KEY_SHAPES) {
    out = out.replace(shape, (_match: string, kept: unknown) => `${typeof kept === 'string' ? kept : ''}${REDACTED}`);
  }
  return out;
}
