import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import type { ActionLog } from '../operator/actions.ts';
import type { ExistingKeys, ImportCounts, WriteExpectations } from '../ports.ts';
import type { RecomputeResult } from '../scoring/recompute-result.ts';
import { type ImportLineError, ImportParser } from './parse-import.ts';
import type { ImportBatch } from './records.ts';

/** The write side of the store that operator use cases need: the import path. */
export interface RecordWriter {
  existingKeys(batch: ImportBatch): Promise<ExistingKeys>;
  applyWithResult(
    batch: ImportBatch,
    opts: { nowIso: string; reason: string; expect?: WriteExpectations; log?: ActionLog },
  ): Promise<{ counts: ImportCounts; recompute: RecomputeResult }>;
}

export interface WriteRecordsDeps {
  writer: RecordWriter;
  clock: Clock;
  /** Called after a committed write, so this instance serves it at once. */
  afterWrite?: () => Promise<void>;
}

/**
 * Writes records exactly as an import would: the import parser's checks, then one transaction
 * (upsert, the write rules, recomputation, history, outbox events, data-version bump). Every use
 * case that changes data goes through here, so none can do what an import could not.
 * `label(i)` names the i-th record in error messages (e.g. `rows[3]`). `log` builds the operator
 * decision log's entries (core/operator/actions.ts), which the same transaction writes.
 */
export async function writeRecords(
  deps: WriteRecordsDeps,
  records: Record<string, unknown>[],
  opts: { reason: string; label?: (i: number) => string; expect?: WriteExpectations; log?: ActionLog },
): Promise<RecomputeResult> {
  const parser = new ImportParser(deps.clock.now());
  for (const [i, r] of records.entries()) parser.addValue(r, i + 1);
  const errors = parser.errors.length
    ? parser.errors
    : parser.finish(await deps.writer.existingKeys(parser.batch));
  if (errors.length) throw invalidRecords(errors, opts.label ?? (() => ''));
  const { recompute } = await deps.writer.applyWithResult(parser.batch, {
    nowIso: new Date(deps.clock.now()).toISOString(),
    reason: opts.reason,
    ...(opts.expect ? { expect: opts.expect } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  await deps.afterWrite?.();
  return recompute;
}

/** Turns the import parser's line errors into one 400 naming the record and the field. */
function invalidRecords(errors: ImportLineError[], label: (i: number) => string): DomainError {
  const parts = errors.map((e) => {
    const where = label(e.line - 1);
    // The parser words its messages for a file ("… not in this file nor in the database").
    const msg = e.message
      .replace(' (not in this file nor in the database)', '')
      .replace(
        /already appears on line (\d+)$/,
        (_m, n: string) => `repeats ${label(Number(n) - 1) || 'an earlier record'}`,
      );
    return where ? `${where}: ${msg}` : msg;
  });
  const first = parts.slice(0, 5).join('; ');
  const more = parts.length > 5 ? `; and ${parts.length - 5} more` : '';
  return new DomainError('invalid_parameter', `${first}${more}.`, { errors: parts.slice(0, 100) });
}
