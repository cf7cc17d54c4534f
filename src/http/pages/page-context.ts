import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignedIn } from '../../core/users/model.ts';
import type { AppServices } from '../services.ts';
import * as fmt from './format.ts';
import { type CookieRules, sessionToken } from './session-cookie.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The pages' signed-in user, or null (set by the pages' onRequest hook; elsewhere null). */
    signedIn: SignedIn | null;
  }
  interface FastifyContextConfig {
    /**
     * How a state change of this page is protected against cross-site requests (cross-site.ts):
     * `session` (default) — same origin and the session's `_csrf` field; `origin` — same origin only
     * (sign-in and set-password forms, which have no session yet); `handler` — same origin here,
     * and the handler checks the `_csrf` field itself (multipart forms, read as a stream).
     */
    csrf?: 'session' | 'origin' | 'handler';
  }
}

/** What every page module is handed. */
export interface PageContext {
  services: AppServices;
  cookie: CookieRules;
  /** The service's own origin when PURERANK_PUBLIC_URL says it; else the request's Host decides. */
  ownOrigin: string | null;
}

/** The navigation of each area: [path, label]. */
const NAV = {
  dashboard: [
    ['/dashboard/keys', 'API keys'],
    ['/dashboard/usage', 'Usage'],
    ['/dashboard/webhooks', 'Webhooks'],
    ['/dashboard/coa', 'CoA verifications'],
    ['/dashboard/settings', 'Settings'],
  ],
  console: [
    ['/console/reviews', 'Review queue'],
    ['/console/vendors', 'Vendors'],
    ['/console/accounts', 'Accounts'],
    ['/console/events', 'Events'],
  ],
} as const;

export type Area = keyof typeof NAV | 'public';

/**
 * Renders a page inside the layout with what every page needs: who is signed in, the form token,
 * the area's navigation (the current entry marked), and the formatters. Templates escape every
 * `<%= %>` (eta's autoEscape); nothing a user typed is ever written raw.
 */
export function page(
  request: FastifyRequest,
  reply: FastifyReply,
  view: string,
  data: { title: string; area: Area } & Record<string, unknown>,
  status = 200,
): FastifyReply {
  const me = request.signedIn;
  const path = request.url.split('?')[0] ?? '';
  const nav =
    data.area === 'public'
      ? []
      : NAV[data.area].map(([href, label]) => ({ href, label, current: path.startsWith(href) }));
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .view(view, { ...data, me, csrf: me?.csrfToken ?? '', nav, fmt, requestId: request.id });
}

/** A page that only says something (errors, refusals, "link expired"). */
export function messagePage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  title: string,
  message: string,
): FastifyReply {
  const area: Area = request.signedIn
    ? request.signedIn.user.role === 'operator'
      ? 'console'
      : 'dashboard'
    : 'public';
  return page(request, reply, 'message', { title, area, message, status }, status);
}

/** Where a user lands after signing in: operators in the console, members on their keys. */
export const homeOf = (s: SignedIn): string => (s.user.role === 'operator' ? '/console' : '/dashboard');

/**
 * A `next` path taken from a query or a form: only this service's own pages, so a link cannot send
 * someone elsewhere after sign-in (no `//host`, no scheme, no backslash tricks).
 */
export function safeNext(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 500) return null;
  const q = raw.indexOf('?');
  const path = q === -1 ? raw : raw.slice(0, q);
  const query = q === -1 ? '' : raw.slice(q + 1);
  // The path: plain segments only — no dots, no percent-escapes (`%2e%2e` is `..` to a browser).
  if (!/^\/(dashboard|console)(\/[A-Za-z0-9_-]+)*\/?$/.test(path)) return null;
  if (!/^[A-Za-z0-9_\-.=&%+]*$/.test(query)) return null;
  return raw;
}

/** Resolves the cookie to a session once per request (only on the pages' routes). */
export async function resolveSession(request: FastifyRequest, ctx: PageContext): Promise<void> {
  const token = sessionToken(request, ctx.cookie);
  request.signedIn = token ? await ctx.services.identity.session(token) : null;
}
