import type { FastifyInstance } from 'fastify';

/**
 * What every page answer carries. The CSP allows scripts, styles and images from this origin only,
 * and no inline script or style attribute in markup: the pages' behaviour lives in
 * /assets/pages.js, data for it travels in `<script type="application/json">` blocks (data, not
 * code, which the policy does not run). `same-origin` keeps a one-time link's token out of any
 * other site's Referer; not `no-referrer`, with which Chromium sends `Origin: null` on the pages'
 * own form posts and the cross-site check (cross-site.ts) could not tell them from a forgery. Pages show an account's keys and usage, so nothing is cached anywhere.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function addPageHeaders(app: FastifyInstance, opts: { https: boolean }): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('content-security-policy', PAGE_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'same-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=()');
    if (opts.https) reply.header('strict-transport-security', 'max-age=31536000');
    // Static assets may be cached (they change with the package); pages never.
    if (!request.url.startsWith('/assets/')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
