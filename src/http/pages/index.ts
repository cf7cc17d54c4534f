import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import view from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../core/errors.ts';
import { STATUS_OF } from '../error-status.ts';
import type { AppServices } from '../services.ts';
import { sameOrigin, tokenMatches } from './cross-site.ts';
import { messagePage, type PageContext, resolveSession } from './page-context.ts';
import { addPageHeaders } from './security-headers.ts';
import { cookieRules } from './session-cookie.ts';
import { signInRoutes } from './sign-in-routes.ts';

/*
 * Templates and assets are read from src/ in both layouts: this file sits three levels below the
 * package root as src/http/pages/index.ts and as dist/http/pages/index.js, and tsc copies no .eta.
 */
const ROOT = new URL('../../../', import.meta.url);
export const VIEWS_DIR = fileURLToPath(new URL('src/http/pages/views/', ROOT));
export const ASSETS_DIR = fileURLToPath(new URL('src/http/pages/assets/', ROOT));
/** uPlot is served from its package, never fetched from elsewhere. */
const UPLOT_DIR = dirname(createRequire(import.meta.url).resolve('uplot'));

/** Form bodies are small: a name, a URL, a reason. */
const FORM_BODY_LIMIT = 64 * 1024;

/** Page routes a module adds under its area, with the area's guard already in place. */
export type PageRoutes = (app: FastifyInstance, ctx: PageContext) => void | Promise<void>;

export interface PageAreas {
  /** Account pages under /dashboard (signed-in owners and members). */
  dashboard: PageRoutes[];
  /** Operator pages under /console (operators only). */
  console: PageRoutes[];
}

/**
 * The dashboard and the console: server-rendered pages over the same core as the API (decision
 * 0021). Encapsulated: cookies, form bodies, sessions, headers and HTML errors apply to these routes
 * only; the API's hot path never sees them.
 */
export function pages(services: AppServices, areas: PageAreas) {
  return async function pagesPlugin(app: FastifyInstance): Promise<void> {
    const publicUrl = services.config.pages.publicUrl;
    const https = publicUrl?.startsWith('https:') ?? false;
    const ctx: PageContext = {
      services,
      cookie: cookieRules({ https, sessionMaxMs: services.config.pages.sessionMaxMs }),
      ownOrigin: publicUrl ? new URL(publicUrl).origin : null,
    };

    await app.register(cookie);
    await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
    await app.register(view, {
      engine: { eta: new Eta({ views: VIEWS_DIR, autoEscape: true, cache: true }) },
      templates: VIEWS_DIR,
      production: true,
    });
    await app.register(fastifyStatic, { root: ASSETS_DIR, prefix: '/assets/', index: false, list: false });
    await app.register(fastifyStatic, {
      root: UPLOT_DIR,
      prefix: '/assets/vendor/uplot/',
      index: false,
      list: false,
      decorateReply: false,
      allowedPath: (path) => /^\/uPlot\.(iife\.min\.js|min\.css)$/.test(path),
    });
    addPageHeaders(app, { https });

    app.decorateRequest('signedIn', null);
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/assets/')) await resolveSession(request, ctx);
    });
    app.addHook('preHandler', (request, reply, done) => {
      const refusal = crossSiteRefusal(request, ctx);
      if (refusal === null) return done();
      if (refusal === 'signed-out') {
        reply.redirect('/dashboard/sign-in', 303);
      } else {
        messagePage(request, reply, 403, 'Refused', refusal);
      }
    });
    app.setErrorHandler((err: FastifyError, request, reply) => renderError(err, request, reply));

    await app.register(
      async (area) => {
        area.setNotFoundHandler((request, reply) => notFoundPage(request, reply));
        await area.register(async (open) => signInRoutes(open, ctx));
        await area.register(async (guarded) => {
          guarded.addHook('preHandler', async (request, reply) => {
            const s = request.signedIn;
            if (!s) return reply.redirect(signInPath(request.url), 303);
            if (s.user.role === 'operator') return reply.redirect('/console', 303);
          });
          guarded.get('/', async (_request, reply) => reply.redirect('/dashboard/keys', 303));
          for (const add of areas.dashboard) await add(guarded, ctx);
        });
      },
      { prefix: '/dashboard' },
    );
    await app.register(
      async (area) => {
        area.setNotFoundHandler((request, reply) => notFoundPage(request, reply));
        area.get('/sign-in', async (_request, reply) =>
          reply.redirect('/dashboard/sign-in?next=/console', 303),
        );
        await area.register(async (guarded) => {
          guarded.addHook('preHandler', async (request, reply) => {
            const s = request.signedIn;
            if (!s) return reply.redirect(signInPath(request.url), 303);
            // The console is not there for anyone else, exactly like a page that does not exist.
            if (s.user.role !== 'operator') return notFoundPage(request, reply);
          });
          guarded.get('/', async (_request, reply) => reply.redirect('/console/reviews', 303));
          for (const add of areas.console) await add(guarded, ctx);
        });
      },
      { prefix: '/console' },
    );
  };
}

const signInPath = (url: string): string => `/dashboard/sign-in?next=${encodeURIComponent(url)}`;

const STATE_CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** null when the request may go on; else why not (decision 0021, cross-site.ts). */
function crossSiteRefusal(request: FastifyRequest, ctx: PageContext): string | 'signed-out' | null {
  if (!STATE_CHANGES.has(request.method)) return null;
  if (!sameOrigin(request, ctx.ownOrigin)) {
    return 'This form was sent from another site, so it was not carried out.';
  }
  const rule = request.routeOptions.config.csrf ?? 'session';
  if (rule !== 'session') return null;
  const s = request.signedIn;
  if (!s) return 'signed-out';
  const body = request.body as Record<string, unknown> | undefined;
  if (!tokenMatches(body?._csrf, s.csrfToken)) {
    return 'This form is out of date (it belongs to an earlier session). Reload the page and try again.';
  }
  return null;
}

function notFoundPage(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return messagePage(request, reply, 404, 'Not found', 'There is no such page here.');
}

/** Errors as pages: the domain's message where it is meant for the user, a request id otherwise. */
function renderError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (err instanceof DomainError) {
    const status = STATUS_OF[err.code] ?? 400;
    if (err.code === 'internal_error') request.log.error({ err }, 'page failed');
    // A 503 (the database restarting, capacity) says when to come back, as the API's does.
    const retryAfter = err.details?.retryAfterSeconds;
    if (status === 503) reply.header('retry-after', String(typeof retryAfter === 'number' ? retryAfter : 2));
    return messagePage(request, reply, status, status === 404 ? 'Not found' : 'Not done', err.message);
  }
  if (err.validation) {
    return messagePage(request, reply, 400, 'Not done', `The form is not complete: ${err.message}.`);
  }
  const status =
    typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500
      ? err.statusCode
      : 500;
  if (status === 413)
    return messagePage(request, reply, 413, 'Too large', 'What was sent is larger than this form accepts.');
  if (status < 500) return messagePage(request, reply, status, 'Not done', 'The request could not be read.');
  request.log.error({ err }, 'page failed');
  return messagePage(
    request,
    reply,
    500,
    'Something went wrong',
    `Something went wrong on our side. Request id: ${request.id}.`,
  );
}
