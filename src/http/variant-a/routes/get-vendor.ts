import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DAY_MS } from '../../../core/clock.ts';
import { getVendor } from '../../../core/vendors/get-vendor.ts';
import { cacheKeys } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import { presentVendorDetail } from '../present.ts';
import { VendorDetailA } from '../schemas.ts';

/** Entries of `recent_coas`. */
const RECENT_COAS = 10;

export function getVendorRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.get<{ Params: { slug: string } }>(
    '/vendors/:slug',
    {
      schema: {
        operationId: 'getVendor',
        summary: 'Vendor report',
        description: 'Score and its history, CoA evidence and catalog of one vendor (verified or not).',
        tags: ['vendors'],
        params: T.Object({ slug: T.String({ maxLength: 200, description: 'Vendor slug.' }) }),
        response: { 200: VendorDetailA, ...commonErrors({ 404: 'No vendor with that slug (`not_found`).' }) },
      },
    },
    (request, reply) => {
      const { slug } = request.params;
      const state = s.freshness.state;
      const now = s.clock.now();
      const key = cacheKeys.aVendor(slug);
      return respond(request, reply, cache.get(key, state.dataVersion, now), async () => {
        const v = await getVendor(s.store.catalog, slug, s.config.scoreHistoryLength);
        const evidence = await s.store.catalog.vendorEvidence(v.id, RECENT_COAS);
        const staleAfter = s.config.batchStaleAfterDays;
        const json = presentVendorDetail(v, evidence, now, staleAfter);
        // A recent CoA turns stale a whole number of days after testing; the body is right until the first does.
        let validUntil = Number.POSITIVE_INFINITY;
        for (const b of evidence.recent) {
          if (b.status !== 'approved' || !b.testedAt) continue;
          const flip = Date.parse(b.testedAt) + (staleAfter + 1) * DAY_MS;
          if (flip > now) validUntil = Math.min(validUntil, flip);
        }
        return cache.set(key, state.dataVersion, toCachedBody(json), validUntil);
      });
    },
  );
}
