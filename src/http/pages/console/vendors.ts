import type { FastifyInstance } from 'fastify';
import { OVERRIDE_FIELDS } from '../../../core/import/records.ts';
import { compositeOf } from '../../../core/scoring/composite.ts';
import { PILLARS } from '../../../core/vendors/model.ts';
import {
  type Fields,
  oneOf,
  optionalText,
  optionalWhole,
  REASON_MAX,
  reasonOf,
  requiredWhole,
} from '../form-fields.ts';
import type { PageRoutes } from '../index.ts';
import { type PageContext, page } from '../page-context.ts';
import { actionLines } from './action-lines.ts';
import { operatorOf } from './operator-of.ts';
import { findVendors, QUERY_MAX } from './vendor-search.ts';

const PER_PAGE = 50;
/** Score-history entries shown, newest first (the use case returns the configured history length). */
const HISTORY_SHOWN = 20;
/** Decision-log entries shown, newest first. */
const ACTIONS_SHOWN = 20;

const NOTICES: Record<string, (field: string) => string> = {
  set: (field) => `Override of ${field} set: the vendor was recomputed.`,
  cleared: (field) => `Override of ${field} cleared: the computed value applies again.`,
};

/**
 * Vendors: find one by name or slug; a vendor's computed and effective pillars side by side, its
 * overrides with who, when and why; set and clear an override; the operator decisions about it
 * (batches decided, overrides set and cleared, with their reasons). Writes go through
 * Operator.setOverride / clearOverride, as `purerank overrides set|clear` and the operator API do.
 */
export const vendorPages: PageRoutes = (app: FastifyInstance, ctx: PageContext) => {
  const { operator, catalog, freshness } = ctx.services;

  app.get<{ Querystring: Fields }>('/vendors', async (request, reply) => {
    const q = optionalText(request.query, 'q', QUERY_MAX);
    const offset = optionalWhole(request.query, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    // A write by another process shows here as on the API: the versions are re-read when changed.
    await freshness.check();
    const snap = await catalog.get(freshness.state);
    const found = findVendors(snap, q, PER_PAGE, offset);
    return page(request, reply, 'console-vendors', {
      title: 'Vendors',
      area: 'console',
      q,
      offset,
      perPage: PER_PAGE,
      total: found.total,
      vendors: found.vendors,
    });
  });

  app.get<{ Params: { slug: string }; Querystring: Fields }>('/vendors/:slug', async (request, reply) => {
    const v = await operator.vendor(request.params.slug);
    const actions = await operator.actions({ vendorSlug: v.slug, limit: ACTIONS_SHOWN });
    const done = optionalText(request.query, 'done', 20);
    const field = optionalText(request.query, 'field', 20);
    const notice = NOTICES[done] && (OVERRIDE_FIELDS as readonly string[]).includes(field);
    const overrideOf = new Map(v.overrides.map((o) => [o.field, o]));
    return page(request, reply, 'console-vendor', {
      title: v.name,
      area: 'console',
      vendor: v,
      notice: notice ? NOTICES[done]!(field) : null,
      scoreMove: notice ? optionalText(request.query, 'score', 20) : '',
      pillars: PILLARS.map((p) => ({
        name: p,
        computed: v.computed[p] ?? null,
        effective: v.pillars?.[p] ?? null,
        override: overrideOf.get(p) ?? null,
      })),
      scoreOverride: overrideOf.get('score') ?? null,
      // The composite the effective pillars give, before any pin of the score itself: what an
      // operator wants to see beside a pinned score (the method's own weights, core/scoring).
      pillarScore: v.pillars ? compositeOf(v.pillars, ctx.services.config.scoring.weights) : null,
      fields: OVERRIDE_FIELDS,
      history: v.history.slice(-HISTORY_SHOWN).reverse(),
      actions: actionLines(actions),
      reasonMax: REASON_MAX,
    });
  });

  app.post<{ Params: { slug: string }; Body: Fields }>('/vendors/:slug/overrides', async (request, reply) => {
    const { slug } = request.params;
    const field = oneOf(request.body, 'field', OVERRIDE_FIELDS);
    const value = requiredWhole(request.body, 'value', 0, 100);
    const reason = reasonOf(request.body);
    const out = await operator.setOverride(slug, field, value, reason, operatorOf(request));
    return reply.redirect(doneUrl(slug, 'set', field, out.scoreChanges), 303);
  });

  app.post<{ Params: { slug: string; field: string }; Body: Fields }>(
    '/vendors/:slug/overrides/:field/clear',
    async (request, reply) => {
      const { slug } = request.params;
      const field = oneOf({ field: request.params.field }, 'field', OVERRIDE_FIELDS);
      // Required here, as the issue asks of clearing; kept in the decision log with who and when.
      const reason = reasonOf(request.body);
      const out = await operator.clearOverride(slug, field, operatorOf(request), reason);
      return reply.redirect(doneUrl(slug, 'cleared', field, out.scoreChanges), 303);
    },
  );
};

function doneUrl(
  slug: string,
  done: string,
  field: string,
  changes: { vendorSlug: string; previous: number | null; next: number }[],
): string {
  const q = new URLSearchParams({ done, field });
  const moved = changes.find((c) => c.vendorSlug === slug);
  if (moved) q.set('score', `${moved.previous ?? '—'} → ${moved.next}`);
  return `/console/vendors/${encodeURIComponent(slug)}?${q}`;
}
