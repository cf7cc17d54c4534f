import { invalidParameter } from '../errors.ts';
import { batchKey, isSlug } from '../import/records.ts';
import type { BatchStore } from '../ports.ts';
import { DEFAULT_STALE_AFTER_DAYS, resolveBatchLookup } from './batch-state.ts';
import type { BatchLookup } from './model.ts';

export const MAX_BATCH_ID_LENGTH = 128;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what we refuse
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Looks a batch number up. Always an answer: an unknown batch is `missing`, not an error. The
 * answer comes with the moment it stops holding (BatchLookup.validUntil), so callers that keep
 * it (the response cache) never re-derive the staleness rule.
 */
export async function lookupBatch(
  store: BatchStore,
  rawId: string,
  nowMs: number,
  opts: { vendor?: string; staleAfterDays?: number } = {},
): Promise<BatchLookup> {
  const id = rawId.normalize('NFKC').trim();
  if (id === '') throw invalidParameter('batchId', 'must not be blank.');
  if (id.length > MAX_BATCH_ID_LENGTH)
    throw invalidParameter('batchId', `must be at most ${MAX_BATCH_ID_LENGTH} characters.`);
  if (CONTROL.test(id)) throw invalidParameter('batchId', 'must not contain control characters.');
  // A vendor filter that cannot be a slug matches nothing (and must not reach the database as is).
  if (opts.vendor !== undefined && !isSlug(opts.vendor)) return resolveBatchLookup(id, [], nowMs);
  const records = await store.findByKey(batchKey(id), opts.vendor);
  return resolveBatchLookup(id, records, nowMs, opts.staleAfterDays ?? DEFAULT_STALE_AFTER_DAYS);
}
