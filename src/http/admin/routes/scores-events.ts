import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../services.ts';
import { actorOf } from '../operator-header.ts';
import { presentEvent } from '../present.ts';
import {
  AdminEventList,
  AdminRecomputeResult,
  adminErrors,
  EVENTS_PAGE,
  EventsQuery,
  OperatorHeaders,
} from '../schemas.ts';

/** Recomputing every score, and reading the outbox of events. */
export function scoreAndEventRoutes(app: FastifyInstance, s: AppServices): void {
  app.post<{ Headers: OperatorHeaders }>(
    '/scores/recompute',
    {
      schema: {
        operationId: 'recomputeScores',
        summary: 'Recompute every score',
        description:
          'Recomputes all vendors from the evidence as of now (pillars age: CoA recency, experience), in one ' +
          'transaction, with history entries and events for what moved. No body.',
        tags: ['scores'],
        headers: OperatorHeaders,
        response: { 200: AdminRecomputeResult, ...adminErrors() },
      },
    },
    async (request) => {
      const r = await s.operator.recompute(actorOf(request));
      return {
        vendors: r.vendors,
        updated: r.updated,
        changed: r.changes.length,
        scoreChanges: r.changes.map((c) => ({ vendorSlug: c.slug, previous: c.previous, next: c.next })),
      };
    },
  );

  app.get<{ Querystring: EventsQuery }>(
    '/events',
    {
      schema: {
        operationId: 'listEvents',
        summary: 'Read the outbox of events',
        description:
          'Events in the order they were committed (`seq`), each written in the transaction of its change. ' +
          'To follow the outbox, pass the `next` of one page as `after` of the next; `next` is null when ' +
          'there is nothing after `after` yet (ask again later with the same `after`).',
        tags: ['events'],
        querystring: EventsQuery,
        response: { 200: AdminEventList, ...adminErrors({ 404: 'No vendor with that slug (`not_found`).' }) },
      },
    },
    async (request) => {
      const { after, type, vendor } = request.query;
      // An unknown vendor is 404, so a typo does not read as a vendor without events.
      if (vendor !== undefined) await s.operator.vendor(vendor);
      const events = await s.operator.events({
        limit: request.query.limit ?? EVENTS_PAGE,
        ...(after !== undefined ? { after } : {}),
        ...(type !== undefined ? { type } : {}),
        ...(vendor !== undefined ? { vendorSlug: vendor } : {}),
      });
      return { data: events.map(presentEvent), next: events.at(-1)?.seq ?? null };
    },
  );
}
