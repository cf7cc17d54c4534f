import { notFound } from '../errors.ts';
import { isSlug } from '../import/records.ts';
import type { Peptide } from '../peptides/model.ts';
import type { CatalogStore } from '../ports.ts';
import type { PriceRow } from './model.ts';
import {
  DEFAULT_STALENESS,
  mergePriceTable,
  priceTableValidUntil,
  type StalenessRules,
} from './price-table.ts';

export interface PriceTable {
  peptide: Peptide;
  prices: PriceRow[];
  /** Epoch ms at which the next fresh row turns stale (Infinity: only a data change alters the table). */
  validUntil: number;
}

export async function getPriceTable(
  store: CatalogStore,
  slug: string,
  nowMs: number,
  rules: StalenessRules = DEFAULT_STALENESS,
): Promise<PriceTable> {
  const peptide = isSlug(slug) ? await store.getPeptide(slug) : null;
  if (!peptide) throw notFound('Peptide', slug);
  const prices = mergePriceTable(await store.listPrices(peptide.id), nowMs, rules);
  return { peptide, prices, validUntil: priceTableValidUntil(prices, rules) };
}
