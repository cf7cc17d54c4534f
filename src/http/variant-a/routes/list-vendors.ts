import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { INTEGER_PARAM_MAX } from '../../../core/validation/integers.ts';
import { DEFAULT_PAGE_SIZE, listVendors, MAX_PAGE_SIZE } from '../../../core/vendors/list-vendors.ts';
import { cachedReads } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import { presentVendorList } from '../present.ts';
import { VendorListA } from '../schemas.ts';

const Query = T.Object({
  page: T.Integer({
    minimum: 1,
    maximum: INTEGER_PARAM_MAX,
    default: 1,
    description: 'Page number, 1-based (default 1); at most 2,147,483,647.',
  }),
  per_page: T.Integer({
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: 'Page size, 1..200 (default 50).',
  }),
});

export function listVendorsRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/vendors',
    {
      config: { access: 'read', cachedRead: cachedReads.aVendors },
      schema: {
        operationId: 'listVendors',
        summary: 'Ranked verified vendors',
        description:
          'Verified, scored vendors with a tested purity on record (an approved CoA), by composite score descending ' +
          '(ties: name, then slug). `total` counts them all; ' +
          'a page past the end is empty.',
        tags: ['vendors'],
        querystring: Query,
        response: { 200: VendorListA, ...commonErrors() },
      },
    },
    (request, reply) => {
      const { page, per_page: perPage } = request.query;
      const state = s.freshness.state;
      const key = cachedReads.aVendors.key(request.params, request.query);
      return respond(request, reply, cache.get(key, state.dataVersion, 0), async () => {
        const snap = await s.catalog.get(state);
        const offset = Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER);
        const p = listVendors(snap, 'verified', perPage, offset);
        return cache.set(key, snap.version, toCachedBody(presentVendorList(p.vendors, p.total, page)));
      });
    },
  );
}
