/**
 * The Content-Security-Policy of every window and page: only Sift's own scripts, no inline
 * scripts, no remote content; `connect-src 'self'` lets the browser build reach its own host.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** Directives a browser ignores (with a console warning) when the policy comes from a `<meta>` element. */
const HEADER_ONLY = ['frame-ancestors', 'report-uri', 'sandbox'];

/**
 * The same policy for the `<meta http-equiv="Content-Security-Policy">` fallback the renderer build
 * writes into index.html (for a page opened without the hosts' header): every directive a meta
 * element can carry, taken from {@link CONTENT_SECURITY_POLICY} so there is one source.
 */
export const META_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .filter((directive) => !HEADER_ONLY.includes(directive.split(' ')[0] ?? ''))
  .join('; ');
