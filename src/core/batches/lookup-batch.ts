import { invalidParameter, notFound } from '../errors.ts';
import { batchKey, isSlug } from '../import/records.ts';
import type { BatchStore } from '../ports.ts';
import { DEFAULT_STALE_AFTER_DAYS, resolveBatchLookup } from './batch-state.ts';
import { type BatchLookup, MAX_BATCH_ID_LENGTH } from './model.ts';

export { MAX_BATCH_ID_LENGTH };

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what we refuse
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Looks a batch number up. An unknown batch is `missing`, not an error; an unknown vendor in
 * `?vendor=` is `not_found` naming it: on a verification endpoint a typo in the vendor must not
 * make a real batch look counterfeit. The
 * answer comes with the moment it stops holding (BatchLookup.validUntil), so callers that keep
 * it (the response cache) never re-derive the staleness rule.
 */
export async function lookupBatch(
  store: BatchStore,
  rawId: string,
  nowMs: number,
  opts: { vendor?: string; staleAfterDays?: number } = {},
): Promise<BatchLookup> {
  // The route's schema refuses more than MAX_BATCH_ID_LENGTH characters as given; NFKC can lengthen
  // a text (one ligature becomes several letters), so the limit is checked again here, same words.
  const id = rawId.normalize('NFKC').trim();
  if (id === '') throw invalidParameter('batchId', 'must not be blank.');
  if (id.length > MAX_BATCH_ID_LENGTH)
    throw invalidParameter('batchId', `must be at most ${MAX_BATCH_ID_LENGTH} characters long.`);
  if (CONTROL.test(id)) throw invalidParameter('batchId', 'must not contain control characters.');
  const vendor = opts.vendor;
  // A vendor filter that cannot be a slug names no vendor (and must not reach the database as is).
  if (vendor !== undefined && !isSlug(vendor)) throw notFound('Vendor', vendor);
  const records = await store.findByKey(batchKey(id), vendor);
  // A record found proves the vendor; only an empty answer asks whether it exists.
  if (vendor !== undefined && records.length === 0 && !(await store.vendorExists(vendor))) {
    throw notFound('Vendor', vendor);
  }
  return resolveBatchLookup(id, records, nowMs, opts.staleAfterDays ?? DEFAULT_STALE_AFTER_DAYS);
}
