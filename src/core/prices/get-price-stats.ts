import { DAY_MS } from '../clock.ts';
import { invalidParameter, notFound } from '../errors.ts';
import { isSlug } from '../import/records.ts';
import type { Peptide } from '../peptides/model.ts';
import type { CatalogStore, PriceHistoryStore } from '../ports.ts';
import { type DailyPriceStats, dailyPriceStats, utcDayStart } from './price-stats.ts';

/** `days` of a price history: 1..365, default 90 (issue [10]). */
export const PRICE_HISTORY_DAYS = { min: 1, max: 365, default: 90 } as const;

export interface PriceStatsStores {
  catalog: Pick<CatalogStore, 'getPeptide'>;
  priceHistory: PriceHistoryStore;
}

export interface PriceStatsResult {
  peptide: Peptide;
  /** Today's (UTC) summary. */
  today: DailyPriceStats;
  /** Epoch ms: the next UTC midnight, when "today" moves (a data change invalidates it sooner). */
  validUntil: number;
}

export interface PriceHistoryResult {
  peptide: Peptide;
  /** One summary per UTC day, oldest first, the last one today. */
  days: DailyPriceStats[];
  validUntil: number;
}

async function peptideOf(stores: PriceStatsStores, slug: string): Promise<Peptide> {
  const peptide = isSlug(slug) ? await stores.catalog.getPeptide(slug) : null;
  if (!peptide) throw notFound('Peptide', slug);
  return peptide;
}

/** The summaries of the `days` UTC days that end with today, from the kept price changes. */
export async function getPriceHistory(
  stores: PriceStatsStores,
  slug: string,
  days: number,
  nowMs: number,
): Promise<PriceHistoryResult> {
  if (!Number.isInteger(days) || days < PRICE_HISTORY_DAYS.min || days > PRICE_HISTORY_DAYS.max)
    throw invalidParameter(
      'days',
      `must be an integer from ${PRICE_HISTORY_DAYS.min} to ${PRICE_HISTORY_DAYS.max}.`,
    );
  const peptide = await peptideOf(stores, slug);
  const today = utcDayStart(nowMs);
  const end = today + DAY_MS;
  const changes = await stores.priceHistory.listPriceChanges(peptide.id, new Date(end).toISOString());
  return { peptide, days: dailyPriceStats(changes, today - (days - 1) * DAY_MS, days), validUntil: end };
}

/** Today's summary (UTC), with the vendors of the cheapest in-stock and cheapest verified rows. */
export async function getPriceStats(
  stores: PriceStatsStores,
  slug: string,
  nowMs: number,
): Promise<PriceStatsResult> {
  const { peptide, days, validUntil } = await getPriceHistory(stores, slug, 1, nowMs);
  return { peptide, today: days[0]!, validUntil };
}
