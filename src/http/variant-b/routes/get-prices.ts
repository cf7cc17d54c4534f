import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { getPriceTable } from '../../../core/prices/get-price-table.ts';
import { cacheKeys } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import { presentPriceTable } from '../present.ts';
import { PriceTableB } from '../schemas.ts';

export function getPricesRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.get<{ Params: { slug: string } }>(
    '/peptides/:slug/prices',
    {
      schema: {
        operationId: 'getPeptidePrices',
        summary: 'Merged price table of a peptide',
        description:
          'Live vendor listings merged over the static baseline (a live row replaces the baseline row of the same ' +
          'vendor and vial size). Sorted: in stock first, then claimed vendors, then ascending perMg; the first ' +
          'in-stock row is the best price.',
        tags: ['peptides'],
        params: T.Object({ slug: T.String({ maxLength: 200, description: 'Peptide slug.' }) }),
        response: { 200: PriceTableB, ...commonErrors({ 404: 'No peptide with that slug (`not_found`).' }) },
      },
    },
    (request, reply) => {
      const { slug } = request.params;
      const state = s.freshness.state;
      const now = s.clock.now();
      const key = cacheKeys.bPrices(slug);
      return respond(request, reply, cache.get(key, state.dataVersion, now), async () => {
        const rules = s.config.priceStaleness;
        const table = await getPriceTable(s.store.catalog, slug, now, rules);
        // The body is right until the next row crosses its staleness threshold.
        let validUntil = Number.POSITIVE_INFINITY;
        for (const p of table.prices) {
          if (p.stale) continue;
          validUntil = Math.min(
            validUntil,
            Date.parse(p.updatedAt) + (p.live ? rules.liveStaleMs : rules.baselineStaleMs) + 1,
          );
        }
        return cache.set(
          key,
          state.dataVersion,
          toCachedBody(presentPriceTable(table, state.dataUpdatedAt)),
          validUntil,
        );
      });
    },
  );
}
