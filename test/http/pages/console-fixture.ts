import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestContext } from '../../support/context.ts';

/** The session cookie's name when the service is not served over https (session-cookie.ts). */
export const SESSION_COOKIE = 'purerank_session';
export const PASSWORD = 'correct horse battery staple';
const CLIENT = { address: '127.0.0.1', userAgent: 'vitest' };

export interface SignedInUser {
  email: string;
  cookie: string;
  /** The session's form token, read from a page as a browser would. */
  csrf: string;
}

/**
 * A signed-in user through the real identity use cases: invited (as `purerank users invite` does),
 * the link followed with a password, and the session's cookie and form token taken as a browser
 * would take them.
 */
export async function signIn(
  ctx: TestContext,
  email: string,
  as: { role: 'operator' } | { role: 'owner' | 'member'; account: string },
): Promise<SignedInUser> {
  const identity = ctx.container.identity;
  const link = await identity.invite({
    email,
    account: as.role === 'operator' ? null : as.account,
    role: as.role,
    invitedBy: 'test',
  });
  const token = new URL(link.url, 'http://localhost').pathname.split('/').at(-1)!;
  const opened = await identity.followLink(token, PASSWORD, CLIENT);
  const cookie = `${SESSION_COOKIE}=${opened.token}`;
  return { email, cookie, csrf: opened.session.csrfToken };
}

export interface Pages {
  get(url: string, who?: SignedInUser | null): Promise<LightMyRequestResponse>;
  /** A form post as a browser on this site sends it: same Origin, the session's `_csrf`. */
  post(
    url: string,
    who: SignedInUser | null,
    fields: Record<string, string>,
    opts?: { csrf?: string | null; origin?: string },
  ): Promise<LightMyRequestResponse>;
}

export function pages(ctx: TestContext): Pages {
  return {
    get: (url, who) => ctx.app.inject({ method: 'GET', url, headers: who ? { cookie: who.cookie } : {} }),
    post(url, who, fields, opts = {}) {
      const body = new URLSearchParams(fields);
      const csrf = opts.csrf === undefined ? who?.csrf : opts.csrf;
      if (csrf !== null && csrf !== undefined) body.set('_csrf', csrf);
      return ctx.app.inject({
        method: 'POST',
        url,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          host: 'localhost:80',
          origin: opts.origin ?? 'http://localhost:80',
          ...(who ? { cookie: who.cookie } : {}),
        },
        payload: body.toString(),
      });
    },
  };
}

/** A page answered 200 as HTML, with the headers every page carries. */
export function expectPage(res: LightMyRequestResponse): string {
  expect(res.statusCode, res.body.slice(0, 2000)).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  return res.body;
}

/** A 303 to where a form's result is shown. */
export function expectRedirect(res: LightMyRequestResponse, to: RegExp): string {
  expect(res.statusCode, res.body.slice(0, 2000)).toBe(303);
  const location = String(res.headers.location);
  expect(location).toMatch(to);
  return location;
}

/** The text of an error or message page's notice. */
export function noticeOf(html: string): string {
  const m = /<p class="notice[^"]*"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  return m
    ? htmlText(
        m[1]!
          .replace(/<[^>]+>/g, '')
          .replace(/\s+/g, ' ')
          .trim(),
      )
    : '';
}

/**
 * Markup rules the pages keep for the CSP and for accessibility checkers, checked without a
 * browser: no inline script or style, no inline handler, every input labelled, h1 then h2.
 */
export function expectCleanMarkup(html: string): void {
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>/);
  expect(html).not.toMatch(/\sstyle=/);
  expect(html).not.toMatch(/\son[a-z]+=/);
  for (const m of html.matchAll(/<(input|select|textarea)\b([^>]*)>/g)) {
    const attrs = m[2]!;
    if (/type="hidden"/.test(attrs) || /\shidden\b/.test(attrs)) continue;
    const id = /\sid="([^"]+)"/.exec(attrs)?.[1];
    expect(id, `an unlabelled ${m[1]}: ${m[0]}`).toBeDefined();
    expect(html, `no label for #${id}`).toContain(`for="${id}"`);
  }
  const headings = [...html.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
  expect(headings[0]).toBe(1);
  for (let i = 1; i < headings.length; i++) {
    expect(headings[i]! - headings[i - 1]!, `heading levels ${headings.join(',')}`).toBeLessThanOrEqual(1);
  }
}

const htmlText = (s: string): string =>
  s
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

/**
 * The fields a browser would send with a form of the page: the first form posting to `action`
 * whose markup contains `containing`, its inputs with their values (prefilled ones included), the
 * selected option of each select, and each textarea's text.
 */
export function formFields(html: string, action: string, containing = ''): Record<string, string> {
  const forms = [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].filter(
    (m) => m[1]!.includes(`action="${action}"`) && m[2]!.includes(containing),
  );
  expect(forms.length, `a form to ${action} with ${containing}`).toBeGreaterThan(0);
  const body = forms[0]![2]!;
  const fields: Record<string, string> = {};
  const attr = (attrs: string, name: string) => {
    const m = new RegExp(`\\s${name}="([^"]*)"`).exec(attrs);
    return m ? htmlText(m[1]!) : null;
  };
  for (const m of body.matchAll(/<input\b([^>]*)>/g)) {
    const name = attr(m[1]!, 'name');
    if (name) fields[name] = attr(m[1]!, 'value') ?? '';
  }
  for (const m of body.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>/g)) {
    const name = attr(m[1]!, 'name');
    const options = [...m[2]!.matchAll(/<option\b([^>]*)>/g)];
    const chosen = options.find((o) => /\sselected\b/.test(o[1]!)) ?? options[0];
    if (name && chosen) fields[name] = attr(chosen[1]!, 'value') ?? '';
  }
  for (const m of body.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) {
    const name = attr(m[1]!, 'name');
    if (name) fields[name] = htmlText(m[2]!);
  }
  return fields;
}
