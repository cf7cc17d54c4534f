import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientInfo } from '../../core/users/model.ts';
import { homeOf, messagePage, type PageContext, page, safeNext } from './page-context.ts';
import { clearSessionCookie, sessionToken, setSessionCookie } from './session-cookie.ts';

interface SignInForm {
  email?: string;
  password?: string;
  next?: string;
}

interface PasswordForm {
  password?: string;
  confirm?: string;
}

const clientOf = (request: FastifyRequest): ClientInfo => ({
  address: request.ip,
  userAgent:
    typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 300) : null,
});

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Signing in and out, and following a one-time link (an invitation or a reset) to set a password.
 * A new session id at every sign-in; the cookie is opaque (session-cookie.ts).
 */
export function signInRoutes(app: FastifyInstance, ctx: PageContext): void {
  const { identity } = ctx.services;

  app.get<{ Querystring: { next?: string } }>('/sign-in', async (request, reply) => {
    if (request.signedIn) return reply.redirect(homeOf(request.signedIn), 303);
    return page(request, reply, 'sign-in', {
      title: 'Sign in',
      area: 'public',
      next: safeNext(request.query.next) ?? '',
      email: '',
      error: null,
    });
  });

  app.post<{ Body: SignInForm }>('/sign-in', { config: { csrf: 'origin' } }, async (request, reply) => {
    const body = (request.body ?? {}) as SignInForm;
    const email = text(body.email).slice(0, 320);
    const next = safeNext(body.next) ?? '';
    const result = await identity.signIn(email, text(body.password), clientOf(request));
    if (!result.ok) {
      if (result.reason === 'throttled') reply.header('retry-after', String(result.retryAfterS));
      const minutes = result.reason === 'throttled' ? Math.ceil(result.retryAfterS / 60) : 0;
      const error =
        result.reason === 'throttled'
          ? `Too many failed sign-ins from this address. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`
          : 'That email and password do not match an active user. After 5 failed attempts in a row, a user’s sign-in pauses for 15 minutes.';
      return page(
        request,
        reply,
        'sign-in',
        { title: 'Sign in', area: 'public', next, email, error },
        result.reason === 'throttled' ? 429 : 401,
      );
    }
    // A session that was open in this browser ends: one browser, one signed-in user.
    const old = sessionToken(request, ctx.cookie);
    if (old) await identity.signOut(old);
    setSessionCookie(reply, ctx.cookie, result.session.token);
    return reply.redirect(next || homeOf(result.session.session), 303);
  });

  app.post('/sign-out', async (request, reply) => {
    const token = sessionToken(request, ctx.cookie);
    if (token) await identity.signOut(token);
    clearSessionCookie(reply, ctx.cookie);
    return reply.redirect('/dashboard/sign-in', 303);
  });

  app.post('/sign-out-everywhere', async (request, reply) => {
    const s = request.signedIn;
    if (s) await identity.signOutEverywhere(s.user.id);
    clearSessionCookie(reply, ctx.cookie);
    return reply.redirect('/dashboard/sign-in', 303);
  });

  app.get<{ Params: { token: string } }>('/welcome/:token', async (request, reply) => {
    const link = await identity.inspectLink(request.params.token);
    if (!link) return expiredLink(request, reply);
    return page(request, reply, 'welcome', {
      title: link.purpose === 'invite' ? 'Welcome' : 'Choose a new password',
      area: 'public',
      email: link.user.email,
      purpose: link.purpose,
      token: request.params.token,
      expiresAt: link.expiresAt,
      error: null,
    });
  });

  app.post<{ Params: { token: string }; Body: PasswordForm }>(
    '/welcome/:token',
    { config: { csrf: 'origin' } },
    async (request, reply) => {
      const body = (request.body ?? {}) as PasswordForm;
      const link = await identity.inspectLink(request.params.token);
      if (!link) return expiredLink(request, reply);
      const password = text(body.password);
      const again = (error: string) =>
        page(
          request,
          reply,
          'welcome',
          {
            title: link.purpose === 'invite' ? 'Welcome' : 'Choose a new password',
            area: 'public',
            email: link.user.email,
            purpose: link.purpose,
            token: request.params.token,
            expiresAt: link.expiresAt,
            error,
          },
          400,
        );
      if (password !== text(body.confirm)) return again('The two passwords are not the same.');
      try {
        const opened = await identity.followLink(request.params.token, password, clientOf(request));
        // As at sign-in: a session this browser had open (perhaps another user's) ends.
        const old = sessionToken(request, ctx.cookie);
        if (old) await identity.signOut(old);
        setSessionCookie(reply, ctx.cookie, opened.token);
        return reply.redirect(homeOf(opened.session), 303);
      } catch (err) {
        if (err instanceof Error && 'code' in err && err.code === 'invalid_parameter')
          return again(err.message);
        throw err;
      }
    },
  );
}

function expiredLink(request: FastifyRequest, reply: Parameters<typeof messagePage>[1]) {
  return messagePage(
    request,
    reply,
    404,
    'Link not valid',
    'This link has expired or has been used already. Ask your account owner (or an operator) for a new one.',
  );
}
