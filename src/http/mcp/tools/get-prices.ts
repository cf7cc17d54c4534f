import { z } from 'zod';
import { getPriceHistory, getPriceStats, PRICE_HISTORY_DAYS } from '../../../core/prices/get-price-stats.ts';
import { getPriceTable } from '../../../core/prices/get-price-table.ts';
import { presentDailyStats, presentPriceTable } from '../../variant-b/present.ts';
import { defineTool } from './model.ts';
import { envelope, slug } from './shapes.ts';

const PriceRow = z
  .object({
    vendorSlug: z.string(),
    vendorName: z.string(),
    totalUsd: z.number(),
    vialMg: z.number(),
    perMg: z.number(),
    inStock: z.boolean(),
    claimed: z.boolean(),
    live: z.boolean(),
    stale: z.boolean(),
    updatedAt: z.string(),
  })
  .passthrough();

const StatRow = z
  .object({
    vendorSlug: z.string(),
    vendorName: z.string(),
    perMg: z.number(),
    totalUsd: z.number(),
    vialMg: z.number(),
  })
  .passthrough();

/** One UTC day's statistics, as `GET /api/v1/peptides/{slug}/price-stats` gives them. */
const DailyStats = z
  .object({
    date: z.string(),
    cheapestInStock: StatRow.nullable(),
    cheapestVerified: StatRow.nullable(),
    median: z.number().nullable(),
    p25: z.number().nullable(),
    p75: z.number().nullable(),
    vendorCount: z.number().int(),
    listedVendorCount: z.number().int(),
  })
  .passthrough();

/**
 * Variant B's merged price table (`GET /api/v1/peptides/{slug}/prices`) with today's price statistics
 * (`…/price-stats`) and, when asked, the daily history (`…/price-history`), from the same use cases.
 */
export const getPricesTool = defineTool({
  name: 'get_prices',
  title: 'Price table and price statistics of a peptide',
  description:
    'The merged price table of one peptide, as Variant B publishes it: live vendor listings over the static ' +
    'baseline, in stock first, then claimed vendors, then ascending $/mg (`perMg`); claimed vendors sort ' +
    'first, so the first row is not necessarily the cheapest in stock (`stats` names that one). `stale` marks a row older than the staleness threshold. `stats` is today’s (UTC) summary: ' +
    'cheapest in-stock and cheapest verified $/mg with their vendors, p25/median/p75 of each in-stock vendor’s ' +
    'lowest $/mg, vendor counts. With `history_days`, `history` holds one such summary per UTC day, oldest first.',
  access: 'read',
  input: z.object({
    peptide: slug('Peptide'),
    history_days: z
      .number()
      .int()
      .min(PRICE_HISTORY_DAYS.min)
      .max(PRICE_HISTORY_DAYS.max)
      .optional()
      .describe('Days of daily statistics to add as `history`, ending today (1..365); none when absent.'),
  }),
  output: envelope(
    z
      .object({
        slug: z.string(),
        name: z.string(),
        category: z.string(),
        prices: z.array(PriceRow),
        stats: DailyStats,
        history: z.array(DailyStats).optional(),
      })
      .passthrough(),
  ),
  async run({ peptide, history_days }, { services: s }) {
    const state = s.freshness.state;
    const now = s.clock.now();
    const table = await getPriceTable(s.store.catalog, peptide, now, s.config.priceStaleness);
    const body = JSON.parse(presentPriceTable(table, state.dataUpdatedAt)) as {
      data: Record<string, unknown>;
      data_updated_at: string;
    };
    if (history_days === undefined) {
      body.data.stats = presentDailyStats((await getPriceStats(s.store, peptide, now)).today);
    } else {
      const history = (await getPriceHistory(s.store, peptide, history_days, now)).days;
      body.data.stats = presentDailyStats(history.at(-1)!);
      body.data.history = history.map(presentDailyStats);
    }
    return body;
  },
});
