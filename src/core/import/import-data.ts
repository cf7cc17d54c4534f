import type { Clock } from '../clock.ts';
import type { ImportCounts, ImportStore } from '../ports.ts';
import type { ImportLine } from './json-lines.ts';
import { type ImportLineError, ImportParser } from './parse-import.ts';
import { emptyImportBatch, type ImportBatch, RECORD_TYPES } from './records.ts';

export type ImportResult =
  | { ok: true; lines: number; counts: ImportCounts }
  | { ok: false; lines: number; errors: ImportLineError[] };

export interface ImportProgress {
  phase: 'parse' | 'write';
  /** Lines parsed, or records written. */
  done: number;
  total?: number;
}

/** The slice of the store an import needs (the Kysely store also offers chunked apply). */
export interface ImportWriter extends ImportStore {
  applyChunks(
    chunks: Iterable<ImportBatch>,
    opts: { nowIso: string; reason: string; onChunk?: (counts: ImportCounts) => void },
  ): Promise<ImportCounts>;
}

const WRITE_CHUNK = 5000;

/**
 * Imports a JSON Lines document: all or nothing. Every bad line is reported with its number and
 * reason and then nothing is written; a good file is upserted in one transaction, so importing
 * the same file twice leaves the data as it was after the first time.
 */
export async function importJsonLines(
  lines: AsyncIterable<ImportLine> | Iterable<ImportLine>,
  deps: { store: ImportWriter; clock: Clock },
  opts: { reason?: string; onProgress?: (p: ImportProgress) => void } = {},
): Promise<ImportResult> {
  const parser = new ImportParser(deps.clock.now());
  let n = 0;
  for await (const line of lines) {
    n++;
    parser.addLine(line, n);
    if (n % 10_000 === 0) opts.onProgress?.({ phase: 'parse', done: n });
  }
  opts.onProgress?.({ phase: 'parse', done: n });
  const existing = await deps.store.existingKeys(parser.batch);
  const errors = parser.finish(existing);
  if (errors.length) return { ok: false, lines: n, errors };
  const total = RECORD_TYPES.reduce((s, t) => s + parser.batch[t].length, 0);
  let written = 0;
  const counts = await deps.store.applyChunks(splitBatch(parser.batch, WRITE_CHUNK), {
    nowIso: new Date(deps.clock.now()).toISOString(),
    reason: opts.reason ?? 'import',
    onChunk: (c) => {
      written = Object.values(c).reduce((s, x) => s + x, 0);
      opts.onProgress?.({ phase: 'write', done: written, total });
    },
  });
  return { ok: true, lines: n, counts };
}

/** Splits one import into chunks that keep the dependency order (referenced types first). */
export function* splitBatch(batch: ImportBatch, size: number): Generator<ImportBatch> {
  let current = emptyImportBatch();
  let count = 0;
  for (const type of RECORD_TYPES) {
    for (const record of batch[type]) {
      (current[type] as unknown[]).push(record);
      if (++count === size) {
        yield current;
        current = emptyImportBatch();
        count = 0;
      }
    }
  }
  if (count) yield current;
}
