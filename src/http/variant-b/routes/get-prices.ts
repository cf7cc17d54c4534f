import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { getPriceTable } from '../../../core/prices/get-price-table.ts';
import { cachedReads } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors, PEPTIDE_SLUG } from '../../shared-schemas.ts';
import { presentPriceTable } from '../present.ts';
import { PriceTableB } from '../schemas.ts';

export function getPricesRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/peptides/:slug/prices',
    {
      config: { access: 'read', cachedRead: cachedReads.bPrices },
      schema: {
        operationId: 'getPeptidePrices',
        summary: 'Merged price table of a peptide',
        description:
          'Live vendor listings merged over the static baseline (a live row replaces the baseline row of the same ' +
          'vendor and vial size). Sorted: in stock first, then claimed vendors, then ascending perMg. Claimed ' +
          'vendors sort first, so the first row is not necessarily the cheapest in stock: /price-stats names that ' +
          'one, and the cheapest from a verified vendor.',
        tags: ['peptides'],
        params: T.Object({ slug: PEPTIDE_SLUG }),
        response: { 200: PriceTableB, ...commonErrors({ 404: 'No peptide with that slug (`not_found`).' }) },
      },
    },
    (request, reply) => {
      const { slug } = request.params;
      const state = s.freshness.state;
      const now = s.clock.now();
      const key = cachedReads.bPrices.key(request.params, request.query);
      return respond(request, reply, cache.get(key, state.dataVersion, now), async () => {
        const table = await getPriceTable(s.store.catalog, slug, now, s.config.priceStaleness);
        return cache.set(
          key,
          state.dataVersion,
          toCachedBody(presentPriceTable(table, state.dataUpdatedAt)),
          table.validUntil,
        );
      });
    },
  );
}
