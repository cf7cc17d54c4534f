import { type Clock, DAY_MS, HOUR_MS } from '../core/clock.ts';
import type { UsageRow, UsageStore } from '../core/usage/ports.ts';
import { Random } from './prng.ts';

/** The demo key's quotas (the demo account is on Enterprise): Variant A per UTC hour, B per day. */
const LIMIT_A_PER_HOUR = 10_000;
const LIMIT_B_PER_DAY = 1_000;
const DAYS = 90;
const SEED = 0x5eed_0a9e;

/**
 * Weight of each UTC hour in a day's requests (about 1 in all): a client that works European and
 * American office hours, quiet at night.
 */
const DIURNAL = [
  0.012, 0.009, 0.008, 0.008, 0.01, 0.015, 0.025, 0.037, 0.05, 0.058, 0.062, 0.064, 0.066, 0.068, 0.07, 0.07,
  0.066, 0.06, 0.052, 0.045, 0.038, 0.03, 0.021, 0.016,
];

/**
 * Ninety days of a busy integration's usage for the demo key, so a newcomer's first dashboard shows
 * a chart: both variants, a slow rise, quiet weekends, a few spikes, and 429s where a day (B) or an
 * hour (A) went over its limit. Deterministic: the same rows for the same key and time (a seeded
 * PRNG, like the rest of src/seed). Hours before the current one only: "now" is the limiter's.
 */
export function demoUsage(keyId: string, nowMs: number): UsageRow[] {
  const rng = new Random(SEED);
  const rows: UsageRow[] = [];
  const currentHour = Math.floor(nowMs / HOUR_MS);
  const firstHour = currentHour - DAYS * 24;
  const firstDay = Math.floor(firstHour / 24);
  for (let day = firstDay; day * 24 < currentHour; day++) {
    const progress = (day - firstDay) / DAYS;
    const weekday = new Date(day * DAY_MS).getUTCDay();
    const weekend = weekday === 0 || weekday === 6 ? 0.55 : 1;
    const spike = rng.chance(0.07) ? rng.decimal(1.5, 2.1, 2) : 1;
    const noise = () => rng.decimal(0.8, 1.2, 3);
    // Variant B: a few hundred lookups a day, growing; a spike day runs into the daily limit.
    const demandB = (380 + 520 * progress) * weekend * spike * noise();
    // Variant A: tens of thousands a day; a spike's busiest hours run into the hourly limit.
    const demandA = (40_000 + 45_000 * progress) * weekend * spike * noise();
    let countedB = 0;
    for (let h = 0; h < 24; h++) {
      const hour = day * 24 + h;
      const share = DIURNAL[h]!;
      const b = Math.round(demandB * share * noise());
      const a = Math.round(demandA * share * noise());
      if (hour < firstHour || hour >= currentHour) continue;
      const okB = Math.max(0, Math.min(b, LIMIT_B_PER_DAY - countedB));
      countedB += okB;
      push(rows, rng, keyId, 'b', hour, okB, b - okB);
      const okA = Math.min(a, LIMIT_A_PER_HOUR);
      push(rows, rng, keyId, 'a', hour, okA, a - okA);
    }
  }
  return rows;
}

function push(
  rows: UsageRow[],
  rng: Random,
  keyId: string,
  scope: 'a' | 'b',
  hour: number,
  requests: number,
  limited: number,
): void {
  if (requests === 0 && limited === 0) return;
  rows.push({ keyId, scope, hour, requests, limited, lastAt: hour * HOUR_MS + rng.int(0, HOUR_MS - 1) });
}

/** Writes the demo key's usage, once: not when the demo account already has usage on record. */
export async function seedDemoUsage(
  deps: { usage: UsageStore; clock: Clock },
  accountId: number,
  keyId: string,
): Promise<number> {
  if ((await deps.usage.lastUsed(accountId)).size > 0) return 0;
  const rows = demoUsage(keyId, deps.clock.now());
  await deps.usage.add(rows);
  return rows.length;
}
