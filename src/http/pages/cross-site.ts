import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * Cross-site request forgery, two locks (decision 0021):
 * 1. Where the form came from. Browsers send `Origin` on every POST (and `Sec-Fetch-Site`); a state
 *    change whose Origin is another site's, or `Sec-Fetch-Site: cross-site`, is refused before any
 *    handler runs. With neither header (an old client, or not a browser) the Referer must be ours.
 * 2. The session's token, in a hidden `_csrf` field of every form of a signed-in page, compared in
 *    constant time. The sign-in and set-password forms have no session yet: lock 1 guards them.
 */
export function sameOrigin(request: FastifyRequest, ownOrigin: string | null): boolean {
  const own = ownOrigin ?? `${request.protocol}://${request.host}`;
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') return origin === own;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  const referer = request.headers.referer;
  if (typeof referer === 'string') {
    try {
      return new URL(referer).origin === own;
    } catch {
      return false;
    }
  }
  // No browser signal at all: not a browser-driven cross-site request. The token still applies.
  return true;
}

export function tokenMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  // Bytes, not characters: 43 × 'é' has the token's length in characters and twice its bytes.
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
