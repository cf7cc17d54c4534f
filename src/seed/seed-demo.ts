import type { Clock } from '../core/clock.ts';
import { DomainError } from '../core/errors.ts';
import { type ImportWriter, importJsonLines } from '../core/import/import-data.ts';
import { RECORD_TYPES } from '../core/import/records.ts';
import { demoDataset } from './demo-dataset.ts';

/**
 * Loads the demo dataset through the same validation as any import file, so the demo can never
 * hold data an operator could not have imported.
 */
export async function seedDemo(deps: { store: ImportWriter; clock: Clock }): Promise<Record<string, number>> {
  const data = demoDataset(deps.clock.now());
  const lines = RECORD_TYPES.flatMap((t) => data[t].map((r) => JSON.stringify(r)));
  const result = await importJsonLines(lines, deps, { reason: 'demo seed' });
  if (!result.ok) {
    const first = result.errors[0]!;
    throw new DomainError('internal_error', `demo dataset is invalid: line ${first.line}: ${first.message}`);
  }
  return result.counts;
}
