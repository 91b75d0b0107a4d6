/** Pure facts about model providers that both the core and the renderer need. */

/**
 * True when `url` points at this machine (localhost, 127.0.0.0/8, ::1), so what is sent there never leaves it; any
 * other address — a machine on the network or a hosted API — is "hosted", and a person is told before passages go
 * there. An unreadable URL is not loopback.
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '[::1]' || host === '::1';
}
