import type { Clock } from '../core/clock.ts';
import { DomainError } from '../core/errors.ts';
import { type ImportWriter, importJsonLines } from '../core/import/import-data.ts';
import { type ImportRecord, RECORD_TYPES } from '../core/import/records.ts';
import { demoDataset } from './demo-dataset.ts';
import { demoPriceHistory } from './demo-price-history.ts';

/**
 * Loads the demo dataset through the same validation as any import file, so the demo can never
 * hold data an operator could not have imported. Its 90 days of price history are written as the
 * listings' earlier versions first (the first round with everything else), then the current
 * prices: each write keeps its changes (migration 0009), as a feed's would over time.
 */
export async function seedDemo(deps: { store: ImportWriter; clock: Clock }): Promise<Record<string, number>> {
  const now = deps.clock.now();
  const data = demoDataset(now);
  const [first = [], ...later] = demoPriceHistory(data.price, now);
  const rest = RECORD_TYPES.filter((t) => t !== 'price').flatMap((t): readonly ImportRecord[] => data[t]);
  const writes: ImportRecord[][] = [[...rest, ...first], ...later, data.price];
  let counts: Record<string, number> = {};
  for (const [i, records] of writes.entries()) {
    const result = await importJsonLines(
      records.map((r) => JSON.stringify(r)),
      deps,
      { reason: 'demo seed' },
    );
    if (!result.ok) {
      const e = result.errors[0]!;
      throw new DomainError(
        'internal_error',
        `demo dataset is invalid: write ${i + 1}, line ${e.line}: ${e.message}`,
      );
    }
    if (i === 0) counts = { ...result.counts };
  }
  // What the demo holds: every record once (the history's earlier versions are not counted).
  return { ...counts, price: data.price.length };
}
