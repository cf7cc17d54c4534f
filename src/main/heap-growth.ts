import { setFlagsFromString } from 'node:v8';

/**
 * Caps how far V8 lets the heap grow between major GCs: to (1 + percent/100) × what the last one
 * kept, instead of V8's own factor, which on this service reached ≈ 2.7× under load (≈ 70 MB live,
 * ≈ 180 MB before the next major GC) and put resident memory over 300 MB. Decision 0015.
 *
 * Set while running rather than on the command line, so `npm start` and `purerank serve` get it
 * without wrapper scripts; V8 reads the flag at every major GC. 0 leaves V8's heuristics alone.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
