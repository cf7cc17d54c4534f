import { DAY_MS } from '../core/clock.ts';

const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const MAX_CACHED_DAYS = 4096;

/**
 * Same output as `new Date(ms).toISOString()`, about 5x faster: the date part is cached per UTC day.
 * Formatting timestamps was most of the cost of generating a million scale batches.
 */
export function createIsoFormatter(): (ms: number) => string {
  const days = new Map<number, string>();
  return (time: number): string => {
    const ms = Math.trunc(time);
    const day = Math.floor(ms / DAY_MS);
    let prefix = days.get(day);
    if (prefix === undefined) {
      if (days.size >= MAX_CACHED_DAYS) days.clear();
      const iso = new Date(day * DAY_MS).toISOString();
      prefix = iso.slice(0, iso.indexOf('T') + 1);
      days.set(day, prefix);
    }
    let r = ms - day * DAY_MS;
    const h = Math.floor(r / 3_600_000);
    r -= h * 3_600_000;
    const m = Math.floor(r / 60_000);
    r -= m * 60_000;
    const s = Math.floor(r / 1000);
    return `${prefix}${TWO[h]}:${TWO[m]}:${TWO[s]}.${THREE[r - s * 1000]}Z`;
  };
}
