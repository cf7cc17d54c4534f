import { notFound } from '../errors.ts';
import { isSlug } from '../import/records.ts';
import type { Peptide } from '../peptides/model.ts';
import type { CatalogStore } from '../ports.ts';
import type { PriceRow } from './model.ts';
import { mergePriceTable, type StalenessRules } from './price-table.ts';

export interface PriceTable {
  peptide: Peptide;
  prices: PriceRow[];
}

export async function getPriceTable(
  store: CatalogStore,
  slug: string,
  nowMs: number,
  rules?: StalenessRules,
): Promise<PriceTable> {
  const peptide = isSlug(slug) ? await store.getPeptide(slug) : null;
  if (!peptide) throw notFound('Peptide', slug);
  return { peptide, prices: mergePriceTable(await store.listPrices(peptide.id), nowMs, rules) };
}
