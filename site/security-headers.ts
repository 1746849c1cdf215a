// The security headers that do not depend on the site's content: every page carries them (with
// its Content-Security-Policy, site/seo.ts), and so does every answer of the contact endpoint.

export const COMMON_SECURITY_HEADERS = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains; preload',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy':
    'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), browsing-topics=()',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
} as const;

/**
 * The contact endpoint's answers at the edge, where Cloudflare does not apply `_headers` to a
 * Function: the pages' headers, with a policy for a JSON answer (it loads nothing and is framed by
 * nobody) in place of the pages' Content-Security-Policy, whose style and script sources are a
 * document's.
 */
export const API_SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  ...COMMON_SECURITY_HEADERS,
} as const;
