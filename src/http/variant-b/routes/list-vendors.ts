import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { INTEGER_PARAM_MAX, INTEGER_PARAM_MIN } from '../../../core/validation/integers.ts';
import { clampLimit, DEFAULT_PAGE_SIZE, listVendors } from '../../../core/vendors/list-vendors.ts';
import { cachedReads } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import { presentVendorPage } from '../present.ts';
import { VendorListB } from '../schemas.ts';

const Query = T.Object({
  limit: T.Integer({
    minimum: INTEGER_PARAM_MIN,
    maximum: INTEGER_PARAM_MAX,
    default: DEFAULT_PAGE_SIZE,
    description:
      'Page size, default 50; any 32-bit integer, and values outside 1..200 are clamped (the applied value is echoed).',
  }),
  offset: T.Integer({
    minimum: 0,
    maximum: INTEGER_PARAM_MAX,
    default: 0,
    description: 'Vendors to skip, default 0; at most 2,147,483,647.',
  }),
});

export function listVendorsRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/vendors',
    {
      config: { access: 'read', cachedRead: cachedReads.bVendors },
      schema: {
        operationId: 'listVendors',
        summary: 'Ranked vendors',
        description:
          'All scored vendors, by composite score descending (ties: name, then slug), overrides applied. ' +
          '`total` counts all scored vendors; the applied `limit` and `offset` are echoed.',
        tags: ['vendors'],
        querystring: Query,
        response: { 200: VendorListB, ...commonErrors() },
      },
    },
    (request, reply) => {
      const limit = clampLimit(request.query.limit);
      const offset = request.query.offset;
      const state = s.freshness.state;
      const key = cachedReads.bVendors.key(request.params, request.query);
      return respond(request, reply, cache.get(key, state.dataVersion, 0), async () => {
        const snap = await s.catalog.get(state);
        return cache.set(
          key,
          snap.version,
          toCachedBody(presentVendorPage(listVendors(snap, 'scored', limit, offset), snap.dataUpdatedAt)),
        );
      });
    },
  );
}
