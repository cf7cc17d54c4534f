import { z } from 'zod';
import { getPriceTable } from '../../../core/prices/get-price-table.ts';
import { presentPriceTable } from '../../variant-b/present.ts';
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

/** Variant B's merged price table (`GET /api/v1/peptides/{slug}/prices`), from the same use case. */
export const getPricesTool = defineTool({
  name: 'get_prices',
  title: 'Price table of a peptide',
  description:
    'The merged price table of one peptide, as Variant B publishes it: live vendor listings over the static ' +
    'baseline, in stock first, then claimed vendors, then ascending $/mg (`perMg`); the first in-stock row is ' +
    'the best price. `stale` marks a row older than the staleness threshold.',
  access: 'read',
  input: z.object({ peptide: slug('Peptide') }),
  output: envelope(
    z
      .object({ slug: z.string(), name: z.string(), category: z.string(), prices: z.array(PriceRow) })
      .passthrough(),
  ),
  async run({ peptide }, { services: s }) {
    const state = s.freshness.state;
    const table = await getPriceTable(s.store.catalog, peptide, s.clock.now(), s.config.priceStaleness);
    return JSON.parse(presentPriceTable(table, state.dataUpdatedAt)) as Record<string, unknown>;
  },
});
