/** The wait a rate-limited HTTP server asks for, as the OpenAI-compatible chat and embedding clients both read it. */

/** `retry-after-ms`, else `retry-after` as seconds or an HTTP date, in ms; null when absent or unreadable. */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | null {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}
