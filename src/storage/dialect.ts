/**
 * What differs between the backends, as flags rather than `if (postgres)` scattered in queries
 * (STYLE.md: Kysely's dialect-adapter pattern).
 */
export interface DialectCapabilities {
  name: 'sqlite' | 'postgres';
  /** Column type of an auto-incrementing integer primary key. */
  autoIdType: 'integer' | 'serial';
  /** Column type for double-precision numbers. */
  doubleType: 'real' | 'double precision';
  /** Column type for 64-bit integer counters. */
  bigIntType: 'integer' | 'bigint';
  /** Most bind parameters one statement may carry (chunk multi-row inserts below it). */
  maxParameters: number;
}

export const SQLITE: DialectCapabilities = {
  name: 'sqlite',
  autoIdType: 'integer',
  doubleType: 'real',
  bigIntType: 'integer',
  maxParameters: 32_000,
};

export const POSTGRES: DialectCapabilities = {
  name: 'postgres',
  autoIdType: 'serial',
  doubleType: 'double precision',
  bigIntType: 'bigint',
  maxParameters: 65_000,
};
