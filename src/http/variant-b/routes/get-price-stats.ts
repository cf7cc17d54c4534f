import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { getPriceHistory, getPriceStats, PRICE_HISTORY_DAYS } from '../../../core/prices/get-price-stats.ts';
import { cachedReads } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors, PEPTIDE_SLUG } from '../../shared-schemas.ts';
import { presentPriceHistory, presentPriceStats } from '../present.ts';
import { PriceHistoryB, PriceStatsB } from '../schemas.ts';

const HOW =
  'Computed from every kept change of the listings (a live listing replaces the baseline one of the same vendor ' +
  'and vial size, as in the price table); the quartiles are of each in-stock vendor’s lowest $/mg.';

/** Today's (UTC) price statistics of a peptide, cached per data version until the next UTC midnight. */
export function getPriceStatsRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/peptides/:slug/price-stats',
    {
      config: { access: 'read', cachedRead: cachedReads.bPriceStats },
      schema: {
        operationId: 'getPeptidePriceStats',
        summary: 'Today’s price statistics of a peptide',
        description: `Cheapest in-stock and cheapest verified $/mg with their vendors, p25, median, p75 and vendor counts for today (UTC). ${HOW}`,
        tags: ['peptides'],
        params: T.Object({ slug: PEPTIDE_SLUG }),
        response: { 200: PriceStatsB, ...commonErrors({ 404: 'No peptide with that slug (`not_found`).' }) },
      },
    },
    (request, reply) => {
      const state = s.freshness.state;
      const now = s.clock.now();
      const key = cachedReads.bPriceStats.key(request.params, request.query);
      return respond(request, reply, cache.get(key, state.dataVersion, now), async () => {
        const stats = await getPriceStats(s.store, request.params.slug, now);
        return cache.set(
          key,
          state.dataVersion,
          toCachedBody(presentPriceStats(stats, state.dataUpdatedAt)),
          stats.validUntil,
        );
      });
    },
  );
}

const HistoryQuery = T.Object({
  days: T.Integer({
    minimum: PRICE_HISTORY_DAYS.min,
    maximum: PRICE_HISTORY_DAYS.max,
    default: PRICE_HISTORY_DAYS.default,
    description: 'Days of history, ending today (UTC): 1..365, default 90.',
  }),
});

/** One point of price statistics per UTC day for the last `days` days, cached like the statistics. */
export function getPriceHistoryRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/peptides/:slug/price-history',
    {
      config: { access: 'read', cachedRead: cachedReads.bPriceHistory },
      schema: {
        operationId: 'getPeptidePriceHistory',
        summary: 'Daily price statistics of a peptide',
        description: `One point per UTC day, oldest first, the last one today; each point as in price-stats. A day with no listing has null statistics and zero counts. ${HOW}`,
        tags: ['peptides'],
        params: T.Object({ slug: PEPTIDE_SLUG }),
        querystring: HistoryQuery,
        response: {
          200: PriceHistoryB,
          ...commonErrors({
            400: '`days` outside 1..365 or not an integer (`invalid_parameter`, naming it).',
            404: 'No peptide with that slug (`not_found`).',
          }),
        },
      },
    },
    (request, reply) => {
      const state = s.freshness.state;
      const now = s.clock.now();
      const key = cachedReads.bPriceHistory.key(request.params, request.query);
      return respond(request, reply, cache.get(key, state.dataVersion, now), async () => {
        const history = await getPriceHistory(s.store, request.params.slug, request.query.days, now);
        return cache.set(
          key,
          state.dataVersion,
          toCachedBody(presentPriceHistory(history, state.dataUpdatedAt)),
          history.validUntil,
        );
      });
    },
  );
}
