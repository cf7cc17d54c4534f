import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The session cookie: an opaque random token (the store keeps only its hash), HttpOnly so no
 * script reads it, SameSite=Lax so another site's form post does not carry it, Path=/. Over https
 * it is Secure and takes the `__Host-` prefix, which browsers accept only for Secure, Path=/,
 * host-only cookies: a sibling subdomain cannot plant or shadow it.
 */
export interface CookieRules {
  name: string;
  secure: boolean;
  maxAgeS: number;
}

export function cookieRules(opts: { https: boolean; sessionMaxMs: number }): CookieRules {
  return {
    name: opts.https ? '__Host-purerank_session' : 'purerank_session',
    secure: opts.https,
    maxAgeS: Math.floor(opts.sessionMaxMs / 1000),
  };
}

export function sessionToken(request: FastifyRequest, rules: CookieRules): string | null {
  const v = request.cookies[rules.name];
  // Tokens are 43 base64url characters; anything else is not ours and is not looked up.
  return typeof v === 'string' && /^[A-Za-z0-9_-]{20,100}$/.test(v) ? v : null;
}

export function setSessionCookie(reply: FastifyReply, rules: CookieRules, token: string): void {
  reply.setCookie(rules.name, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: rules.secure,
    maxAge: rules.maxAgeS,
  });
}

export function clearSessionCookie(reply: FastifyReply, rules: CookieRules): void {
  reply.clearCookie(rules.name, { path: '/', httpOnly: true, sameSite: 'lax', secure: rules.secure });
}
