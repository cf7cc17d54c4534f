import { DAY_MS } from '../core/clock.ts';
import type { PriceRecord } from '../core/import/records.ts';
import { asRounds, earlierVersions, type HistoryShape } from './price-history-rounds.ts';
import { Random } from './prng.ts';

/** Days of price history the demo carries, so statistics and charts show something on first start. */
export const DEMO_HISTORY_DAYS = 90;

/** A stream of its own, so the history does not reshuffle the rest of the demo dataset. */
const rng = () => new Random(0x5eed_0001 + 7 * 0x9e37);

/** Earlier prices within about 15 % of today's, at retail prices ($x.99, $9.99 at least). */
const DEMO_SHAPE: HistoryShape = {
  low: 0.88,
  spread: 0.3,
  round: (usd) => Math.max(9.99, Math.round(usd) - 0.01),
};

/**
 * Earlier versions of the demo's listings, as rounds of writes, oldest first: every listing is in the
 * first round (so the set of listings, and with it every score, is the same from the first write on)
 * and has up to three more moves before it reaches its current record, which the seed writes last.
 * Each listing's history starts a few days more than 90 days back, with prices within about 15 % of
 * today's and a spell out of stock now and then. A listing last updated before the window (a stale
 * baseline) has no earlier moves: its current record opens the history.
 */
export function demoPriceHistory(current: readonly PriceRecord[], nowMs: number): PriceRecord[][] {
  const r = rng();
  const start = nowMs - DEMO_HISTORY_DAYS * DAY_MS;
  return asRounds(current.map((c) => earlierVersions(c, start, r, DEMO_SHAPE)));
}
