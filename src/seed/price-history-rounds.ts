import { DAY_MS, isoTime } from '../core/clock.ts';
import type { PriceRecord } from '../core/import/records.ts';
import type { Random } from './prng.ts';

/** How a generated dataset's listings moved before their current record. */
export interface HistoryShape {
  /** Earlier prices are the current one times a factor uniform in [low, low + spread). */
  low: number;
  spread: number;
  /** The shelf price an earlier price is rounded to. */
  round: (usd: number) => number;
  /** Formats a time as ISO 8601 (the scale generator passes its faster formatter). */
  iso?: (ms: number) => string;
}

/**
 * A listing's versions from `startMs` (the start of the history window) up to, not including, its
 * current record `c`, oldest first. The first version is from a few days (0–5) before the window,
 * so the whole window is covered; up to three more moves fall between it and `c.updatedAt`. Each
 * version is out of stock one time in ten. A listing last updated before the window (within a day
 * after its start) has no earlier moves: the result is `[c]`, its current record opens the history.
 * Draws from `r` in a fixed order, so the same stream gives the same versions.
 */
export function earlierVersions(
  c: PriceRecord,
  startMs: number,
  r: Random,
  shape: HistoryShape,
): PriceRecord[] {
  const at = Date.parse(c.updatedAt);
  if (at <= startMs + DAY_MS) return [c];
  const iso = shape.iso ?? isoTime;
  const first = startMs - r.int(0, 5 * DAY_MS);
  const moves = r.int(1, 4);
  const times = [first, ...Array.from({ length: moves - 1 }, () => r.int(first + 1, at - 1))].sort(
    (a, b) => a - b,
  );
  return times.map((t) => ({
    ...c,
    totalUsd: shape.round(c.totalUsd * (shape.low + r.float() * shape.spread)),
    inStock: r.chance(0.9),
    updatedAt: iso(t),
  }));
}

/**
 * Lists of versions (one list per listing, oldest first) as rounds of writes: round i holds every
 * listing's i-th version, so a listing is at most once in a round and every listing is in the
 * first. Writing the rounds in order, then the current records, gives each listing its history.
 */
export function asRounds(versions: Iterable<readonly PriceRecord[]>): PriceRecord[][] {
  const rounds: PriceRecord[][] = [];
  for (const list of versions) {
    for (const [i, v] of list.entries()) {
      if (rounds[i] === undefined) rounds[i] = [];
      rounds[i].push(v);
    }
  }
  return rounds;
}
