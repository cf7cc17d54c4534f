import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { getVendorReport } from '../../../core/vendors/vendor-report.ts';
import { cachedReads } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors, VENDOR_SLUG } from '../../shared-schemas.ts';
import { presentVendorDetail } from '../present.ts';
import { VendorDetailA } from '../schemas.ts';

/** Entries of `recent_coas`. */
const RECENT_COAS = 10;

export function getVendorRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/vendors/:slug',
    {
      config: { access: 'read', cachedRead: cachedReads.aVendor },
      schema: {
        operationId: 'getVendor',
        summary: 'Vendor report',
        description: 'Score and its history, CoA evidence and catalog of one vendor (verified or not).',
        tags: ['vendors'],
        params: T.Object({ slug: VENDOR_SLUG }),
        response: { 200: VendorDetailA, ...commonErrors({ 404: 'No vendor with that slug (`not_found`).' }) },
      },
    },
    (request, reply) => {
      const { slug } = request.params;
      const state = s.freshness.state;
      const now = s.clock.now();
      const key = cachedReads.aVendor.key(request.params, request.query);
      return respond(request, reply, cache.get(key, state.dataVersion, now), async () => {
        const report = await getVendorReport(s.store.catalog, slug, {
          historyLength: s.config.scoreHistoryLength,
          nowMs: now,
          recentCoas: RECENT_COAS,
          staleAfterDays: s.config.batchStaleAfterDays,
        });
        // The report says until when it holds (its first recent CoA turning stale).
        return cache.set(
          key,
          state.dataVersion,
          toCachedBody(presentVendorDetail(report)),
          report.validUntil,
        );
      });
    },
  );
}
