import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { getVendor } from '../../../core/vendors/get-vendor.ts';
import { cachedReads } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors, VENDOR_SLUG } from '../../shared-schemas.ts';
import { presentVendorDetail } from '../present.ts';
import { VendorDetailB } from '../schemas.ts';

export function getVendorRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/vendors/:slug',
    {
      config: { access: 'read', cachedRead: cachedReads.bVendor },
      schema: {
        operationId: 'getVendor',
        summary: 'Vendor report',
        description: 'One vendor with pillars and score history. `website` only for premium listings.',
        tags: ['vendors'],
        params: T.Object({ slug: VENDOR_SLUG }),
        response: { 200: VendorDetailB, ...commonErrors({ 404: 'No vendor with that slug (`not_found`).' }) },
      },
    },
    (request, reply) => {
      const { slug } = request.params;
      const state = s.freshness.state;
      const key = cachedReads.bVendor.key(request.params, request.query);
      return respond(request, reply, cache.get(key, state.dataVersion, 0), async () => {
        const v = await getVendor(s.store.catalog, slug, s.config.scoreHistoryLength);
        return cache.set(key, state.dataVersion, toCachedBody(presentVendorDetail(v, state.dataUpdatedAt)));
      });
    },
  );
}
