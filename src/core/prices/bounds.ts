/**
 * Bounds of a price row's numbers, one rule for import `price` records (core/import/records.ts)
 * and the listing feed (operator API and CLI `listings put`, which write price records).
 *
 * perMg = totalUsd / vialMg must always be a finite number (the spec types it as one): with a
 * vial of at least 0.001 mg (1 µg) and a price of at most 1,000,000 USD, perMg is at most 1e9.
 * A smaller vial is no real product, and a subnormal one (5e-324) made perMg Infinity, which
 * JSON serialises as null. Prices keep the precision given (stored as doubles on both
 * databases, so nothing is rounded differently by SQLite and PostgreSQL); the API rounds perMg.
 */
export const VIAL_MG_BOUNDS = { min: 0.001, max: 100_000 } as const;
export const TOTAL_USD_BOUNDS = { min: 0, max: 1_000_000 } as const;

/** perMg of a row within the bounds; finite by construction (see above). */
export const perMgOf = (totalUsd: number, vialMg: number): number => totalUsd / vialMg;
