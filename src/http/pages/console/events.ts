import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES, type EventQuery } from '../../../core/events/model.ts';
import { type Fields, oneOf, optionalText, optionalWhole } from '../form-fields.ts';
import type { PageRoutes } from '../index.ts';
import { type PageContext, page } from '../page-context.ts';

const PER_PAGE = 50;

/**
 * The outbox, newest first, filtered by type and vendor and paged by `seq` (`before`), through
 * Operator.events as `purerank events list` and GET /admin/v1/events read it. An unknown vendor is
 * the 404 page, as there, so a typo does not read as a vendor without events.
 */
export const eventPages: PageRoutes = (app: FastifyInstance, ctx: PageContext) => {
  const { operator } = ctx.services;

  app.get<{ Querystring: Fields }>('/events', async (request, reply) => {
    const query = request.query;
    const type = optionalText(query, 'type', 40) === '' ? undefined : oneOf(query, 'type', EVENT_TYPES);
    const vendor = optionalText(query, 'vendor', 100);
    const before = optionalWhole(query, 'before', 1, Number.MAX_SAFE_INTEGER);
    if (vendor !== '') await operator.vendor(vendor);
    const q: EventQuery = { limit: PER_PAGE + 1, newestFirst: true };
    if (type !== undefined) q.type = type;
    if (vendor !== '') q.vendorSlug = vendor;
    if (before !== null) q.before = before;
    // One more than a page tells whether there is an older page without counting the outbox.
    const found = await operator.events(q);
    const events = found.slice(0, PER_PAGE).map((e) => ({ ...e, payload: JSON.stringify(e.data, null, 2) }));
    const filters = { ...(type ? { type } : {}), ...(vendor ? { vendor } : {}) };
    const older =
      found.length > PER_PAGE
        ? `/console/events?${new URLSearchParams({ ...filters, before: String(events.at(-1)!.seq) })}`
        : null;
    return page(request, reply, 'console-events', {
      title: 'Events',
      area: 'console',
      types: EVENT_TYPES,
      type: type ?? '',
      vendor,
      paged: before !== null,
      newest: `/console/events${Object.keys(filters).length ? `?${new URLSearchParams(filters)}` : ''}`,
      older,
      events,
    });
  });
};
