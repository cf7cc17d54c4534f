/** The seeded PRNG of the datasets, so the request mix is identical on every run and machine. */
export { mulberry32 } from '../../src/seed/prng.ts';

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
